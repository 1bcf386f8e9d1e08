"""`--metric green`: GREEN of a system output (one sentence a line) against plain-text
references (`--ref R0 R1 --source SRC`) or an M2 gold (each annotator's corrected sentence
one reference, the S lines the source).  Text output as the authors' `green` prints it:
`alpha` and `beta` lines, then the system and its score x 100."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from m2lsp import defaults
from m2lsp.errors import UsageError
from m2lsp.scoring.green import DECLARATION
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
from m2lsp.scoring.signature import Signature, signed


@dataclass(frozen=True)
class GreenOptions:
    settings: Any  # ngrams.GreenSettings
    references: tuple[str, ...]
    source: str | None
    digits: int


@dataclass(frozen=True)
class GreenScore(ScoreBase):
    result: Any  # ngrams.GreenResult
    reference_texts: tuple[str, ...]
    digits: int

    @property
    def signature(self) -> str:
        s = self.result.settings
        base = Signature("GREEN", (("n", str(s.n)), ("beta", f"{s.beta:g}"), ("unit", s.unit),
                                   ("variant", s.variant), ("scorer", _scorer(s.variant))))
        return signed(base, *self.reference_texts)

    def text(self, request: Request) -> str:
        from decimal import ROUND_HALF_UP, Decimal

        def shown(x: float) -> str:  # the authors' round_half_up
            quantum = Decimal("0." + "0" * self.digits) if self.digits else Decimal("1")
            return str(Decimal(str(x)).quantize(quantum, rounding=ROUND_HALF_UP))

        s = self.result.settings
        lines = [f"alpha\t{shown(s.alpha)}", f"beta\t{shown(s.beta)}",
                 f"{request.system}\t{shown(100 * self.result.f)}"]
        if request.shared.sentence_level:
            lines += [f"{i + 1}\t{shown(100 * self.result.sentence_f(i))}"
                      for i in range(len(self.result.chosen))]
        return "\n".join(lines) + "\n"

    def json(self, request: Request) -> dict[str, Any]:
        from m2lsp.scoring.green.ngrams import precision_recall

        s = self.result.settings
        data: dict[str, Any] = {
            "metric": "green", "signature": self.signature, "system": str(request.system),
            "green": self.result.f, "n": s.n, "beta": s.beta, "unit": s.unit,
            "variant": s.variant, "sentences": len(self.result.chosen),
            "counts": [{"n": n + 1, "true_positives": tp, "false_positives": fp,
                        "false_negatives": fn,
                        **dict(zip(("precision", "recall"),
                                   precision_recall(tp, fp, fn, s.variant), strict=True))}
                       for n, (tp, fp, fn) in enumerate(self.result.totals())]}
        if request.shared.sentence_level:
            data["sentence_scores"] = [self.result.sentence_f(i)
                                       for i in range(len(self.result.chosen))]
        return data

    def headline(self, data: dict[str, Any]) -> dict[str, float]:
        return {"green": data["green"]}

    def sentence_stats(self) -> SentenceStats:
        from m2lsp.scoring.green.ngrams import score

        settings = self.result.settings
        width = settings.n

        def aggregate(sums: tuple) -> tuple[float]:
            per_n = tuple((int(sums[3 * k]), int(sums[3 * k + 1]), int(sums[3 * k + 2]))
                          for k in range(width))
            return (score(per_n, settings),)
        rows = [tuple(x for counts in sentence for x in counts) for sentence in self.result.chosen]
        return SentenceStats(rows, ("GREEN",), aggregate, main=0, scale=100.0)

    def sentence_scores(self) -> list[float | None]:
        return [self.result.sentence_f(i) for i in range(len(self.result.chosen))]


def _scorer(variant: str) -> str:
    return "green-0.1.0" if variant == "authors" else "gec-metrics-green"


class Green(MetricBase):
    declaration = DECLARATION
    editor = "steps"

    def options(self, values: Mapping[str, Any], shared: Shared, config: Any) -> GreenOptions:
        from m2lsp.scoring.green.ngrams import GreenSettings

        variant = given(values, "green_variant", "authors")
        n = given(values, "green_n", 4)
        if n < 1:
            raise UsageError(f"--green-n must be at least 1, not {n}")
        beta = given(values, "green_beta", 2.0 if variant == "gec-metrics" else 1.0)
        settings = GreenSettings(n, float(beta), given(values, "green_unit", "word"), variant)
        source = None if shared.source is None else str(shared.source)
        return GreenOptions(settings, tuple(values.get("gleu_references") or ()), source,
                            given(values, "green_digits", 2))

    def run(self, request: Request) -> GreenScore:
        from m2lsp.scoring.green.split import evaluate_on
        from m2lsp.scoring.sentence_inputs import with_references

        options: GreenOptions = request.options
        found = with_references(request, options.references, options.source, "GREEN")
        sources, references, hypotheses, texts = (found.sources, found.references,
                                                  found.hypotheses, found.texts)
        result = evaluate_on(request.shared.jobs or defaults.jobs(), sources, references,
                             hypotheses, options.settings)
        return GreenScore(result, texts, options.digits)

    def in_editor(self, job: EditorJob) -> Steps:
        """The open document is the M2 gold (its S lines the sources, each annotator's
        corrected sentence a reference), the system a plain-text output, one sentence a
        line; each sentence's GREEN is a hint on its S line.  Options: `green_variant`,
        `green_n`, `green_beta`, `green_unit`, as on the command line."""
        from m2lsp.diagnostic import Diagnostic, Severity
        from m2lsp.model import Span
        from m2lsp.scoring.green.ngrams import evaluate
        from m2lsp.scoring.sentence_inputs import in_editor

        settings = self.options(dict(job.options), Shared(), None).settings
        starts, found = in_editor(job, "green", "GREEN")
        yield 0
        result = evaluate(found.sources, found.references, found.hypotheses, settings)
        score = GreenScore(result, (job.text,), 2)
        marks = [Diagnostic("green", f"GREEN {result.sentence_f(i) * 100:.2f} (sentence)",
                            Span.on_line(start, 0, len(job.lines[start])), Severity.HINT)
                 for i, start in enumerate(starts)]
        return EditorScore(marks, f"GREEN {result.f * 100:.2f}  ({score.signature})",
                           {"green": result.f, "signature": score.signature})


METRIC = Green()
