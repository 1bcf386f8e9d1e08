"""`--metric green`: GREEN of a system output (one sentence a line) against plain-text
references (`--ref R0 R1 --source SRC`) or an M2 gold (each annotator's corrected sentence
one reference, the S lines the source).  Text output as the authors' `green` prints it:
`alpha` and `beta` lines, then the system and its score x 100."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import m2lsp.defaults as defaults
from m2lsp.errors import UsageError
from m2lsp.parsing.source import Text
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
    references: tuple[str | Text, ...]  # paths, or the API's texts in memory
    source: str | Text | None
    digits: int
    betas: tuple[float, ...] = ()  # --green-beta B ...: every beta printed (first: settings')
    systems: tuple[str, ...] = ()  # --green-systems: more systems, a line each
    mean: bool = False  # --green-mean: mgreen's mean of the sentences' GREEN
    line_verbose: bool = False  # --line-verbose


@dataclass(frozen=True)
class GreenRow:
    """One system's line of the authors' table: its score for each beta."""

    system: str
    scores: tuple[float, ...]


@dataclass(frozen=True)
class GreenScore(ScoreBase):
    result: Any  # ngrams.GreenResult
    reference_texts: tuple[str, ...]
    digits: int
    betas: tuple[float, ...] = ()  # every beta asked (empty: the settings' one)
    rows: tuple[GreenRow, ...] = ()  # every system's scores for each beta
    mean: bool = False  # the system score is mgreen's mean of the sentences'
    tables: tuple[Any, ...] = ()  # -v: verbose.VerboseTable per system and beta
    one_line: bool = False  # --line-verbose
    sentence_tables: str = ""  # -v --sent: sgreen -v's tables

    @property
    def signature(self) -> str:
        s = self.result.settings
        fields = [("n", str(s.n)), ("beta", f"{s.beta:g}"), ("unit", s.unit),
                  ("variant", s.variant)]
        if self.mean:
            fields.append(("aggregate", "mean-of-sentences"))
        base = Signature("GREEN", (*fields, ("scorer", _scorer(s.variant))))
        return signed(base, *self.reference_texts)

    def text(self, request: Request) -> str:
        from decimal import ROUND_HALF_UP, Decimal

        def shown(x: float) -> str:  # the authors' round_half_up
            quantum = Decimal("0." + "0" * self.digits) if self.digits else Decimal("1")
            return str(Decimal(str(x)).quantize(quantum, rounding=ROUND_HALF_UP))

        if self.sentence_tables:
            return self.sentence_tables
        if self.tables:
            from m2lsp.scoring.green.verbose import text

            return text(self.tables, self.digits, self.one_line)
        s = self.result.settings
        betas = self.betas or (s.beta,)
        rows = self.rows or (GreenRow(str(request.system), (self.score,)),)
        alphas = [1 / (b ** 2 + 1) for b in betas]
        lines = ["\t".join(["alpha", *map(shown, alphas)]),
                 "\t".join(["beta", *map(shown, betas)]),
                 *("\t".join([row.system, *(shown(100 * f) for f in row.scores)])
                   for row in rows)]
        if request.shared.sentence_level:
            lines += [f"{i + 1}\t{shown(100 * self.result.sentence_f(i))}"
                      for i in range(len(self.result.chosen))]
        return "\n".join(lines) + "\n"

    @property
    def score(self) -> float:
        """The system's GREEN: of the corpus's counts, or with `mean` the mean of the
        sentences' (NumPy's mean, as mgreen takes it)."""
        if not self.mean:
            return self.result.f
        from m2lsp.scoring.gleu.numeric import mean

        count = len(self.result.chosen)
        return mean([self.result.sentence_f(i) for i in range(count)]) if count else 0.0

    def json(self, request: Request) -> dict[str, Any]:
        from m2lsp.scoring.green.ngrams import precision_recall

        s = self.result.settings
        data: dict[str, Any] = {
            "metric": "green", "signature": self.signature, "system": str(request.system),
            "green": self.score, "n": s.n, "beta": s.beta, "unit": s.unit,
            "variant": s.variant, "sentences": len(self.result.chosen),
            "counts": [{"n": n + 1, "true_positives": tp, "false_positives": fp,
                        "false_negatives": fn,
                        **dict(zip(("precision", "recall"),
                                   precision_recall(tp, fp, fn, s.variant), strict=True))}
                       for n, (tp, fp, fn) in enumerate(self.result.totals())]}
        if request.shared.sentence_level:
            data["sentence_scores"] = [self.result.sentence_f(i)
                                       for i in range(len(self.result.chosen))]
        if self.rows:
            data["table"] = [{"system": row.system, "scores": dict(zip(
                (f"{b:g}" for b in self.betas), row.scores, strict=True))}
                for row in self.rows]
        if self.mean:
            data["mean_of_sentences"] = True
        return data

    def headline(self, data: dict[str, Any]) -> dict[str, float]:
        return {"green": data["green"]}

    def sentence_stats(self) -> SentenceStats | None:
        from m2lsp.scoring.green.ngrams import score

        if self.mean:
            return None  # a mean of sentence scores: the bootstrap resamples the counts

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


def _outputs(request: Request, options: GreenOptions, found: Any
             ) -> list[tuple[str, list[str]]]:
    """SYSTEM's sentences, then each of --green-systems', by name."""
    from m2lsp.scoring.sentence_inputs import read, same

    outputs = [(str(request.system), list(found.hypotheses))]
    for path in options.systems:
        lines, _ = read(path, "system", request.encoding)
        same(path, len(lines), request.system, len(found.hypotheses), "GREEN")
        outputs.append((path, lines))
    return outputs


def _tables(request: Request, options: GreenOptions, found: Any) -> tuple[Any, ...]:
    """-v: each system's regions for each beta (the authors' order: systems outside)."""
    from m2lsp.scoring.green.verbose import table

    betas = options.betas or (options.settings.beta,)
    return tuple(table(name, found.sources, found.references, hypotheses,
                       replace(options.settings, beta=beta))
                 for name, hypotheses in _outputs(request, options, found) for beta in betas)


def _rows(request: Request, options: GreenOptions, found: Any, first: GreenScore,
          jobs: int) -> tuple[GreenRow, ...]:
    """Every system's scores for each beta (each beta chooses its own references, as the
    authors' green does): SYSTEM's, then each of --green-systems."""
    from m2lsp.scoring.green.split import evaluate_on

    betas = options.betas or (options.settings.beta,)
    rows = []
    for name, hypotheses in _outputs(request, options, found):
        scores = []
        for beta in betas:
            if name == str(request.system) and beta == betas[0]:
                scores.append(first.score)
                continue
            settings = replace(options.settings, beta=beta)
            result = evaluate_on(jobs, found.sources, found.references, hypotheses, settings)
            scores.append(replace(first, result=result).score)
        rows.append(GreenRow(name, tuple(scores)))
    return tuple(rows)


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
        betas = tuple(float(b) for b in (beta if isinstance(beta, list | tuple) else [beta]))
        if not betas:
            raise UsageError("--green-beta needs a value")
        settings = GreenSettings(n, betas[0], given(values, "green_unit", "word"), variant)
        source = shared.source if shared.source is None or isinstance(shared.source, Text) \
            else str(shared.source)
        return GreenOptions(settings, tuple(values.get("gleu_references") or ()), source,
                            given(values, "green_digits", 2),
                            betas if len(betas) > 1 else (),
                            tuple(values.get("green_systems") or ()),
                            bool(values.get("green_mean")),
                            bool(values.get("green_line_verbose")))

    def run(self, request: Request) -> GreenScore:
        from m2lsp.scoring.green.split import evaluate_on
        from m2lsp.scoring.sentence_inputs import with_references

        options: GreenOptions = request.options
        found = with_references(request, options.references, options.source, "GREEN")
        sources, references, hypotheses, texts = (found.sources, found.references,
                                                  found.hypotheses, found.texts)
        jobs = request.shared.jobs or defaults.jobs()
        result = evaluate_on(jobs, sources, references, hypotheses, options.settings)
        score = GreenScore(result, texts, options.digits, options.betas, mean=options.mean)
        if request.shared.verbose and request.shared.sentence_level:
            from m2lsp.scoring.green.verbose import sentence_text

            betas = options.betas or (options.settings.beta,)
            score = replace(score, sentence_tables=sentence_text(
                found.sources, found.references,
                [h for _, h in _outputs(request, options, found)],
                [replace(options.settings, beta=b) for b in betas], options.digits))
        elif request.shared.verbose:
            score = replace(score, tables=_tables(request, options, found),
                            one_line=options.line_verbose)
        if not options.betas and not options.systems:
            return score
        return replace(score, rows=_rows(request, options, found, score, jobs))

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
