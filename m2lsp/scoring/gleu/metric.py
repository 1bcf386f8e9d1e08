"""`--metric gleu`: GLEU as JFLEG's `eval/gleu.py` prints it (or, with --fix-seed, as the
`gleu` package's `gleu -f`).  SYSTEM is the hypothesis, one sentence a line; the references
are `--ref` files with `--source`, or the GOLD M2 file's annotators."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from m2lsp.errors import InputError, UsageError
from m2lsp.parsing.source import Input, Text
from m2lsp.scoring.gleu import DECLARATION
from m2lsp.scoring.metric import (
    EditorJob,
    EditorScore,
    MetricBase,
    Request,
    ScoreBase,
    SentenceStats,
    Shared,
    Steps,
    given,
)


@dataclass(frozen=True)
class GleuScore(ScoreBase):
    result: Any  # corpus.GleuResult
    signature: str
    references: tuple[str, ...]

    def text(self, request: Request) -> str:
        from m2lsp.scoring.gleu.report import jfleg_text, package_text

        if self.result.settings.fixed_seed:
            return package_text(self.result, str(request.system))
        return jfleg_text(self.result, str(request.system), request.shared.sentence_level)

    def json(self, request: Request) -> dict[str, Any]:
        from m2lsp.scoring.gleu.report import result_json

        return result_json(self.result, self.signature, str(request.system),
                           list(self.references), request.shared.sentence_level)

    def sentence_stats(self) -> SentenceStats | None:
        return None  # GLEU draws references per iteration; its own interval is printed

    def sentence_scores(self) -> list[float | None]:
        """Each sentence's GLEU (smoothed), the mean over its references."""
        return [self.result.sentence(i).mean for i in range(len(self.result.table))]


@dataclass(frozen=True)
class GecMetricsGleuScore(ScoreBase):
    """GLEU as gec-metrics' `GLEU` class computes it (`gleu.gec_metrics`)."""

    corpus: float
    sentences: tuple[float, ...]
    signature: str
    iterations: int

    def text(self, request: Request) -> str:
        """As `gecmetrics-eval --metric gleu` prints it; with --sent, then each sentence's
        score, numbered."""
        lines = [f"Score={self.corpus} | Metric=gleu | hyp_file={request.system}"]
        if request.shared.sentence_level:
            lines += [f"{i + 1}\t{v}" for i, v in enumerate(self.sentences)]
        return "\n".join(lines) + "\n"

    def json(self, request: Request) -> dict[str, Any]:
        data: dict[str, Any] = {
            "metric": "gleu", "signature": self.signature, "system": str(request.system),
            "variant": "gec-metrics", "sentences": len(self.sentences),
            "iterations": self.iterations, "gleu": self.corpus}
        if request.shared.sentence_level:
            data["sentence_scores"] = list(self.sentences)
        return data

    def headline(self, data: dict[str, Any]) -> dict[str, float]:
        return {"gleu": data["gleu"]}

    def sentence_scores(self) -> list[float | None]:
        return list(self.sentences)


class Gleu(MetricBase):
    declaration = DECLARATION
    editor = "steps"

    def options(self, values: Mapping[str, Any], shared: Shared, config: Any) -> GleuOptions:
        return gleu_options(values, shared)

    def run(self, request: Request) -> GleuScore | GecMetricsGleuScore:
        from m2lsp.scoring.gleu.corpus import evaluate
        from m2lsp.scoring.gleu.inputs import read_m2, read_plain
        from m2lsp.scoring.signature import signed

        settings = request.options.settings
        if settings.variant == "gec-metrics":
            return _gec_metrics(request)
        refs = request.options.references
        if refs and request.gold is not None:
            raise UsageError("--metric gleu takes the references from --ref or from GOLD "
                             "(M2), not both")
        if refs:
            if request.options.source is None:
                raise UsageError("--metric gleu with --ref needs --source")
            paths = tuple(_input(r) for r in refs)
            inputs = read_plain(request.system, _input(request.options.source), paths,
                                request.encoding, request.warn)
            names = tuple(str(p) for p in paths)
        elif request.gold is not None:
            from m2lsp.scoring.system_text import check_order

            check_order(request.system, request.gold, request.usage)
            source = request.options.source
            inputs = read_m2(request.system, request.gold,
                             None if source is None else _input(source),
                             request.encoding)
            names = (str(request.gold),)
        else:
            raise UsageError("--metric gleu needs references: --source SRC --ref REF ..., "
                             "or a GOLD M2 file")
        result = evaluate(inputs.sources, inputs.references, inputs.hypotheses, settings)
        signature = signed(settings.signature(result.references), *inputs.reference_texts)
        return GleuScore(result, signature, names)

    def in_editor(self, job: EditorJob) -> Steps:
        """The open document is the source (`role` "source", default; the other file is the
        hypothesis) or the hypothesis (`role` "hypothesis"; the other file is the source);
        `references` lists reference files, one sentence a line.  Each line gets its sentence
        GLEU as a hint."""
        from m2lsp.diagnostic import Diagnostic, Severity
        from m2lsp.model import Span
        from m2lsp.scoring.gleu.corpus import GleuSettings, evaluate
        from m2lsp.scoring.gleu.inputs import lines
        from m2lsp.scoring.signature import signed

        role = job.options.get("role", "source")
        if role not in ("source", "hypothesis"):
            raise UsageError("gleu: role is source or hypothesis")
        mine = [tuple(line.split()) for line in lines(job.text)]
        other = [tuple(line.split()) for line in lines(job.system_text)]
        sources, hypotheses = (mine, other) if role == "source" else (other, mine)
        refs, texts = _editor_references(job.options.get("references"), len(sources),
                                         job.uri)
        if len(hypotheses) != len(sources):
            raise InputError(f"gleu: the hypothesis has {len(hypotheses)} lines but the "
                             f"source {len(sources)}")
        yield 0
        settings = GleuSettings()
        result = evaluate(sources, refs, hypotheses, settings)
        signature = signed(settings.signature(result.references), *texts)
        marks = [Diagnostic("gleu", f"GLEU {result.sentence(i).mean:.4f} (sentence, mean "
                            f"over {result.references} references)",
                            Span.on_line(i, 0, len(job.lines[i]) if i < len(job.lines) else 0),
                            Severity.HINT) for i in range(len(result.table))]
        corpus = result.corpus
        return EditorScore(marks, f"GLEU {corpus.mean:.6f} ± {corpus.stdev:.6f}  ({signature})",
                           {"gleu": corpus.mean, "stdev": corpus.stdev,
                            "signature": signature})


def _gec_metrics(request: Request) -> GecMetricsGleuScore:
    """gec-metrics' GLEU of the request's system output."""
    from m2lsp.scoring.gleu import gec_metrics
    from m2lsp.scoring.sentence_inputs import with_references
    from m2lsp.scoring.signature import signed

    options: GleuOptions = request.options
    settings = options.settings
    found = with_references(request, options.references, options.source, "GLEU")
    counts = found.references[0] if found.references else []
    if any(len(refs) != len(counts) for refs in found.references):
        raise InputError("--gleu-variant gec-metrics: every sentence needs the same number "
                         "of references")
    stats = gec_metrics.table(found.sources, found.references, found.hypotheses,
                              settings.order, "word")
    corpus = gec_metrics.mean(gec_metrics.corpus_iterations(stats, settings.iterations,
                                                            settings.order))
    signature = signed(settings.signature(len(counts)), *found.texts)
    return GecMetricsGleuScore(corpus, tuple(gec_metrics.sentence_scores(stats, settings.order)),
                               signature, settings.iterations)


def _editor_references(value: Any, count: int, uri: str) -> tuple[tuple, tuple[str, ...]]:
    """Reference token lists per sentence from the `references` option (paths)."""
    from m2lsp.scoring.gleu.inputs import read_references

    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise UsageError("gleu: give `references`, a list of reference files")
    return read_references([Path(v) for v in value], uri, count)


@dataclass(frozen=True)
class GleuOptions:
    """GLEU's own options."""

    source: str | Text | None  # --source (a path, or the API's sentences in memory)
    references: tuple[str | Text, ...]  # --ref
    settings: Any  # corpus.GleuSettings


def gleu_options(values: Mapping[str, Any], shared: Shared) -> GleuOptions:
    from m2lsp.scoring.gleu.corpus import GleuSettings

    iterations, digits = given(values, "gleu_iterations", 500), given(values, "gleu_digits", 2)
    if iterations < 1:
        raise UsageError(f"--iter must be at least 1, not {iterations}")
    if digits < 0:
        raise UsageError(f"--digits must be 0 or more, not {digits}")
    variant = given(values, "gleu_variant", "jfleg")
    if variant == "gec-metrics" and values.get("gleu_fixed_seed"):
        raise UsageError("--fix-seed is the gleu package's; --gleu-variant gec-metrics draws "
                         "as JFLEG's gleu.py does")
    order = given(values, "gleu_order", 4)
    if order < 1:
        raise UsageError(f"--gleu-n must be at least 1, not {order}")
    settings = GleuSettings(iterations=iterations,
                            fixed_seed=bool(values.get("gleu_fixed_seed")), digits=digits,
                            variant=variant, order=order)
    source = shared.source if shared.source is None or isinstance(shared.source, Text) \
        else str(shared.source)
    return GleuOptions(source, tuple(values.get("gleu_references") or ()), settings)


def _input(value: str | Text) -> Input:
    """A path given as a str, or a text in memory as it is."""
    return value if isinstance(value, Text) else Path(value)


METRIC = Gleu()
