"""`--metric green`: GREEN of a system output (one sentence a line) against plain-text
references (`--ref R0 R1 --source SRC`) or an M2 gold (each annotator's corrected sentence
one reference, the S lines the source).  Text output as the authors' `green` prints it:
`alpha` and `beta` lines, then the system and its score x 100."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from m2lsp.errors import InputError, UsageError
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
        return SentenceStats(rows, ("GREEN",), aggregate, main=0)

    def sentence_scores(self) -> list[float | None]:
        return [self.result.sentence_f(i) for i in range(len(self.result.chosen))]


def _scorer(variant: str) -> str:
    return "green-0.1.0" if variant == "authors" else "gec-metrics-green"


class Green(MetricBase):
    declaration = DECLARATION

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
        from m2lsp.scoring.green.ngrams import evaluate

        options: GreenOptions = request.options
        sources, references, hypotheses, texts = _inputs(request, options)
        result = evaluate(sources, references, hypotheses, options.settings)
        return GreenScore(result, texts, options.digits)

    def in_editor(self, job: EditorJob) -> Steps:
        """The open document is the M2 gold (its S lines the sources, each annotator's
        corrected sentence a reference), the system a plain-text output, one sentence a
        line; each sentence's GREEN is a hint on its S line.  Options: `green_variant`,
        `green_n`, `green_beta`, `green_unit`, as on the command line."""
        from m2lsp.diagnostic import Diagnostic, Severity
        from m2lsp.model import Span
        from m2lsp.parsing.m2 import M2Document
        from m2lsp.scoring.gleu.inputs import lines, m2_references
        from m2lsp.scoring.green.ngrams import evaluate

        if not isinstance(job.document, M2Document):
            raise UsageError("green in the editor scores a system against the open M2 gold; "
                             "for plain-text references run `m2lsp score --metric green`")
        settings = self.options(dict(job.options), Shared(), None).settings
        blocks, references = m2_references(job.document, Path(job.uri))
        starts = [start for start, b in zip(job.document.starts, job.document.blocks,
                                            strict=True) if b.sentence is not None]
        sources = [" ".join(b.sentence.tokens) for b in blocks if b.sentence is not None]
        hypotheses = lines(job.system_text)
        _same("the system", len(hypotheses), "the gold's sentences", len(sources))
        yield 0
        result = evaluate(sources, references, hypotheses, settings)
        score = GreenScore(result, (job.text,), 2)
        marks = [Diagnostic("green", f"GREEN {result.sentence_f(i) * 100:.2f} (sentence)",
                            Span.on_line(start, 0, len(job.lines[start])), Severity.HINT)
                 for i, start in enumerate(starts)]
        return EditorScore(marks, f"GREEN {result.f * 100:.2f}  ({score.signature})",
                           {"green": result.f, "signature": score.signature})



def _inputs(request: Request, options: GreenOptions
            ) -> tuple[list[str], list[list[str]], list[str], tuple[str, ...]]:
    """Sources, each sentence's references, hypotheses (lines as Python's file iteration
    gives them, as `green` reads them) and the texts the references came from."""
    from m2lsp.parsing.source import read_source
    from m2lsp.scoring.gleu.inputs import lines

    def read(path: Path | str, what: str) -> tuple[list[str], str]:
        text = read_source(Path(path), what, request.encoding).text
        return lines(text), text

    from m2lsp.scoring.system_text import check_order

    check_order(request.system, request.gold, request.usage)
    hypotheses, _ = read(request.system, "system")
    if options.references and request.gold is not None:
        raise UsageError("--metric green takes the references from --ref or from GOLD (M2), "
                         "not both")
    if options.references:
        if options.source is None:
            raise UsageError("--metric green with --ref needs --source")
        sources, _ = read(options.source, "source")
        columns = [read(r, "reference") for r in options.references]
        for path, (column, _) in zip(options.references, columns, strict=True):
            _same(path, len(column), options.source, len(sources))
        references = [list(refs) for refs in zip(*(c for c, _ in columns), strict=True)]
        texts = tuple(t for _, t in columns)
    elif request.gold is not None:
        sources, references, texts = _from_m2(request.gold, request.encoding)
        if options.source is not None:
            sources, _ = read(options.source, "source")
    else:
        raise UsageError("--metric green needs references: --source SRC --ref REF ..., or a "
                         "GOLD M2 file")
    _same(request.system, len(hypotheses), request.gold or options.source or "", len(sources))
    return sources, references, hypotheses, texts


def _same(path: Path | str, count: int, other: Path | str, expected: int) -> None:
    if count != expected:
        raise InputError(f"{path} has {count} lines but {other} has {expected}; GREEN pairs "
                         "them line by line")


def _from_m2(gold: Path, encoding: str | None
             ) -> tuple[list[str], list[list[str]], tuple[str, ...]]:
    """Sources (S lines) and references (each annotator's corrected sentence, as GLEU reads
    them from an M2 gold) of an M2 gold, and its text."""
    from m2lsp.parsing.m2 import parse_m2
    from m2lsp.parsing.source import read_source
    from m2lsp.scoring.gleu.inputs import m2_references

    text = read_source(gold, "gold", encoding)
    blocks, references = m2_references(parse_m2(text), gold)
    sources = [" ".join(b.sentence.tokens) for b in blocks if b.sentence is not None]
    return sources, references, (text.text,)


METRIC = Green()
