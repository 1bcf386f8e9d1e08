"""What the learned metrics (IMPARA, SOME, Scribendi, BERTScore) share as metrics: options
read from their `--NAME-FIELD` flags with gec-metrics' defaults, the sentences read once per
system, every system of a `compare` or `report` scored in one pass with the models loaded
once, and a `SentenceScored` result."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from m2lsp.parsing.source import Input, file_option
from m2lsp.scoring.metric import (
    EditorJob,
    EditorScore,
    Flag,
    MetricBase,
    Request,
    Shared,
    Steps,
    given,
)


class LearnedMetric(MetricBase):
    label = ""  # as people write it: IMPARA
    total = "mean"  # the corpus score: the sentences' mean, or their sum
    scorer = "gec-metrics-0.1.1"  # the tool whose numbers these are
    editor = "thread"

    def options(self, values: Mapping[str, Any], shared: Shared, config: Any
                ) -> dict[str, Any]:
        """Every flag's value by its field (`--impara-model-qe` -> `model_qe`), and the
        sources and references the shared flags give."""
        prefix = self.name.replace("-", "_") + "_"
        out = {f.dest.removeprefix(prefix): given(values, f.dest, f.default)
               for f in self.flags}
        out["source"] = None if shared.source is None else file_option(shared.source)
        out["references"] = tuple(file_option(r) for r in values.get("gleu_references") or ())
        return out

    def run(self, request: Request) -> Any:
        return self.run_many(request, [request.system])[0]

    def run_many(self, request: Request, systems: Sequence[Input]) -> list[Any]:
        from m2lsp.learned.loading import model_errors

        found = [self.sentences(replace(request, system=s)) for s in systems]
        self.checked(request.options)
        note = self.language_note(request.options, found[0].hypotheses)
        if note is not None and request.warn is not None:
            request.warn(note)
        with model_errors(self.label):
            models = self.models(request.options)
            scores = self.scores(models, [s for f in found for s in f.sources],
                                 [h for f in found for h in f.hypotheses],
                                 [r for f in found for r in f.references])
        out, at = [], 0
        for f in found:
            out.append(self.result(models, scores[at:at + len(f.hypotheses)], f.texts))
            at += len(f.hypotheses)
        return out

    def sentences(self, request: Request) -> Any:
        from m2lsp.scoring.sentence_inputs import with_references, without_references

        options = request.options
        if self.declaration.reference_free:
            return without_references(request, options["source"], self.label)
        return with_references(request, options["references"], options["source"],
                               self.label)

    def checked(self, options: dict[str, Any]) -> None:
        """Each model option a hub id or a folder that exists (said before torch loads,
        which takes seconds)."""
        from m2lsp.errors import UsageError
        from m2lsp.learned.loading import exists

        for flag in self.flags:
            if flag.spec.get("metavar") != "MODEL":
                continue
            value = options.get(flag.dest.removeprefix(self.name.replace("-", "_") + "_"))
            if not isinstance(value, str) or not value.strip():
                raise UsageError(f"{flag.names[0]} takes a hub id or a local folder, not "
                                 f"{value!r}")
            exists(value, flag.names[0])

    def language_note(self, options: dict[str, Any], hypotheses: Sequence[str]
                      ) -> str | None:
        """A warning when the models are the English defaults (and, for BERTScore, the
        language English) but the sentences are in another script: their scores mean
        little there, as ERRANT's English classifier on Chinese would."""
        from m2lsp.scripts import script

        prefix = self.name.replace("-", "_") + "_"
        models = [f for f in self.flags if f.spec.get("metavar") == "MODEL"]
        if any(options.get(f.dest.removeprefix(prefix)) != f.default for f in models) or \
                options.get("lang", "en") != "en":
            return None
        found = script("\n".join(hypotheses[:200]))
        if found in (None, "Latin"):
            return None
        names = ", ".join(f"{f.default} ({f.names[0]})" for f in models)
        return (f"warning: {self.label}'s default models are English ({names}), but the "
                f"sentences are {found}: its scores mean little there; give models trained "
                "for their language")

    def result(self, models: Any, scores: list[float], texts: tuple[str, ...]) -> Any:
        from m2lsp.learned.loading import finite
        from m2lsp.scoring.sentence_scored import SentenceScored
        from m2lsp.scoring.signature import Signature

        finite(self.label, scores)
        fields = (*self.signed(models), ("scorer", self.scorer))
        return SentenceScored(self.name, self.label, tuple(scores),
                              Signature(self.label, fields), texts, self.total,
                              self.described(models))

    def in_editor(self, job: EditorJob) -> Steps:
        """The open document is the M2 gold (its S lines the sources, each annotator's
        corrected sentence a reference), the system a plain-text output, one sentence a
        line; each sentence's score is a hint on its S line, the corpus score and the
        signature the message.  Options by their flags' `dest`, as the API's keywords
        (`impara_model_qe`), with the command line's defaults."""
        from m2lsp.diagnostic import Diagnostic, Severity
        from m2lsp.learned.loading import model_errors
        from m2lsp.model import Span
        from m2lsp.scoring.sentence_inputs import in_editor

        options = self.options(dict(job.options), Shared(), None)
        self.checked(options)
        starts, given = in_editor(job, self.name, self.label)
        yield 0
        references = [] if self.declaration.reference_free else given.references
        with model_errors(self.label):
            models = self.models(options)
            scores = self.scores(models, given.sources, given.hypotheses, references)
        found = self.result(models, scores, given.texts)
        marks = [Diagnostic(self.name, f"{self.label} {self.shown(score)} (sentence)",
                            Span.on_line(start, 0, len(job.lines[start])), Severity.HINT)
                 for start, score in zip(starts, found.scores, strict=True)]
        return EditorScore(marks, f"{self.label} {found.corpus:.4f}  ({found.signature})",
                           {self.name: found.corpus, "signature": found.signature,
                            "sentence_scores": list(found.scores)})

    def shown(self, score: Any) -> str:
        """A sentence's score as the editor shows it."""
        return f"{score:.4f}"

    # -- what each learned metric defines ------------------------------------------------

    def models(self, options: dict[str, Any]) -> Any:
        """The loaded models and settings (`learned.*`)."""
        raise NotImplementedError

    def scores(self, models: Any, sources: list[str], hypotheses: list[str],
               references: list[list[str]]) -> list[float]:
        """Each hypothesis's score."""
        raise NotImplementedError

    def signed(self, models: Any) -> tuple[tuple[str, str], ...]:
        """The signature's fields: model ids with revisions, and the options."""
        raise NotImplementedError

    def described(self, models: Any) -> dict[str, Any]:
        """More JSON fields (the model ids as given)."""
        return {}


def model_flag(metric: str, field: str, default: str, what: str) -> Flag:
    """`--METRIC-FIELD MODEL`: a hub id or a local folder."""
    return Flag((f"--{metric}-{field.replace('_', '-')}",),
                f"{metric}: {what}, a hub id or a local folder (default {default})",
                {"default": default, "metavar": "MODEL", "dest": f"{metric}_{field}"})


def number_flag(metric: str, field: str, kind: Any, default: float, what: str) -> Flag:
    return Flag((f"--{metric}-{field.replace('_', '-')}",),
                f"{metric}: {what} (default {default:g})",
                {"type": kind, "default": default, "metavar": "N",
                 "dest": f"{metric}_{field}"})


def cpu_flag(metric: str) -> Flag:
    return Flag((f"--{metric}-no-cuda",),
                f"{metric}: run on the CPU even where CUDA is available",
                {"action": "store_true", "dest": f"{metric}_no_cuda"})
