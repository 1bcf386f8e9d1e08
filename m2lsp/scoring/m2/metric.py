"""`--metric m2` (the default): MaxMatch, identical to the NUS M2 scorer 3.2.  SYSTEM is one
tokenized sentence a line, GOLD the M2 file."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from m2lsp.errors import InputError, UsageError
from m2lsp.scoring.m2 import DECLARATION
from m2lsp.scoring.m2.options import M2Options, m2_options
from m2lsp.scoring.metric import (
    Agreement,
    MetricBase,
    Numbers,
    Request,
    ScoreBase,
    SentenceStats,
    Shared,
)
from m2lsp.scoring.signature import signed

if TYPE_CHECKING:
    from m2lsp.parsing.source import Input
    from m2lsp.scoring.m2.maxmatch import M2Settings, SentenceResult




@dataclass(frozen=True)
class M2Score(ScoreBase):
    results: tuple[SentenceResult, ...]
    settings: M2Settings
    warnings: tuple[Any, ...]  # GoldWarning
    gold_text: str = ""

    @cached_property
    def signature(self) -> str:  # (a hash of the gold: once a score)
        return signed(self.settings.signature(), self.gold_text)

    @cached_property
    def chosen(self) -> tuple[list[SentenceResult], Any]:
        """Each sentence's chosen annotator and the corpus score (computed once)."""
        from m2lsp.scoring.m2.maxmatch import choose, corpus_score

        chosen, total = choose(self.results, self.settings.beta)
        return chosen, corpus_score(total, self.settings)

    def text(self, request: Request) -> str:
        from m2lsp.scoring.m2.report import Reprs, summary, verbose

        chosen, score = self.chosen
        if request.shared.verbose or request.options.very_verbose:
            reprs = Reprs(True, self.gold_text.split("\n")) if request.options.python2 \
                else Reprs()
            text, score = verbose(list(self.results), self.settings,
                                  lattices=request.options.very_verbose, reprs=reprs)
        else:
            text = summary(score)
        return text + self._extras(chosen, request)

    def _extras(self, chosen: list[SentenceResult], request: Request) -> str:
        shared = request.shared
        if not (shared.per_type or shared.sentence_level or shared.bootstrap
                or shared.sentence_average):
            return ""  # (and nothing more to import)
        from m2lsp.scoring.m2.breakdown import per_type, per_type_text, sentence_text
        from m2lsp.scoring.macro import macro_line
        from m2lsp.scoring.metric import bootstrap_text

        beta, parts = self.settings.beta, []
        if shared.per_type:
            parts.append("\n" + per_type_text(per_type(chosen), beta) + macro_line(
                self.macro(), beta))
        if shared.sentence_level:
            parts.append("\n" + sentence_text(chosen, beta))
        if shared.bootstrap:
            parts.append("\n" + bootstrap_text(self.sentence_stats(), request))
        if shared.sentence_average:
            parts.append("\n" + self.sentence_average().text("SentM2"))
        if parts:
            parts.append(f"\n{self.signature}\n")
        return "".join(parts)

    def sentence_scores(self) -> list[float | None]:
        """Each sentence's F-beta against its own best annotator (SentM2's terms)."""
        from m2lsp.scoring.sentence_average import best_per_sentence

        return best_per_sentence(self._attempt_counts(), self.settings.beta)

    def _attempt_counts(self) -> list[list[tuple[int, int, int]]]:
        return [[(c, p - c, g - c) for c, p, g in (a.counts for a in r.attempts)]
                for r in self.results]

    def sentence_average(self) -> Any:
        """SentM2: each sentence's best F over the annotators the scorer tries for it."""
        from m2lsp.scoring.sentence_average import averaged

        return averaged(self._attempt_counts(), self.settings.beta)

    def json(self, request: Request) -> dict[str, Any]:
        from m2lsp.scoring.m2.breakdown import per_type
        from m2lsp.scoring.m2.json_output import result_data
        from m2lsp.scoring.m2.maxmatch import M2Result
        from m2lsp.scoring.metric import bootstrap_data

        chosen, score = self.chosen
        extra: dict = {"gold_warnings": [
            {"kind": w.kind, "count": w.count, "lines": [line + 1 for line in w.lines],
             "message": w.describe()} for w in self.warnings]}
        if request.shared.per_type:
            extra["per_type"] = [
                {"type": r.type, "true_positives": r.true_positives,
                 "false_positives": r.false_positives, "false_negatives": r.false_negatives,
                 **dict(zip(("precision", "recall", "f"), r.scores(self.settings.beta),
                            strict=True))} for r in per_type(chosen)]
            macro = self.macro()
            extra["macro"] = None if macro is None else macro.data()
        if request.shared.bootstrap:
            extra["bootstrap"] = bootstrap_data(self.sentence_stats(), request)
        if request.shared.sentence_average:
            extra["sentence_average"] = self.sentence_average().data()
        data = result_data(M2Result(chosen, score), request.system, request.gold, extra)
        data["signature"] = self.signature
        return data

    def reviews(self) -> list[Any]:
        """Each sentence in plain words (review.SentenceReview), as the editor shows it."""
        from m2lsp.scoring.m2.review import review

        chosen, _ = self.chosen
        return [review(s, self.settings.beta) for s in chosen]

    def macro(self) -> Any:
        """The macro-averaged P, R, F over the gold error types (scoring.macro)."""
        from m2lsp.scoring.macro import macro_average

        return macro_average((t[:4] for t in self.type_counts()), self.settings.beta)

    def type_counts(self) -> list[tuple[str, int, int, int, float]]:
        """(type, TP, FP, FN, F) per gold error type, as --per-type counts them."""
        from m2lsp.scoring.m2.breakdown import per_type

        chosen, _ = self.chosen
        return [(r.type, r.true_positives, r.false_positives, r.false_negatives,
                 r.scores(self.settings.beta)[2]) for r in per_type(chosen)]

    def unrounded(self, data: dict[str, Any]) -> Numbers:
        """The corpus P, R, F (full floats) and the counts as TP, FP, FN: the correct
        edits, the proposed ones not correct, the gold ones not matched."""
        _, score = self.chosen
        counts = score.counts
        correct = int(counts.correct)
        return Numbers(score.precision, score.recall, score.f,
                       {"tp": correct, "fp": int(counts.proposed) - correct,
                        "fn": int(counts.gold) - correct})

    def sentence_stats(self) -> SentenceStats:
        chosen, _ = self.chosen
        beta = self.settings.beta
        return SentenceStats([s.best.counts for s in chosen], ("Precision", "Recall",
                                                               f"F_{beta:.1f}"),
                             _aggregate(self.settings), main=2)


def _aggregate(settings: M2Settings) -> Callable[[tuple], tuple[float, float, float]]:
    from m2lsp.scoring.m2.maxmatch import Counts, corpus_score

    def aggregate(sums: tuple) -> tuple[float, float, float]:
        s = corpus_score(Counts(*sums), settings)
        return s.precision, s.recall, s.f
    return aggregate


class Scoring:
    """Reading, checking and scoring one system at a time (gold read once).  Gold edits that
    change the score without saying so are handed to `warn` when the gold is read; `progress`
    (sentences) -> a context manager whose value's `at(index, line)` reports progress."""

    def __init__(self, settings: M2Settings, encoding: str | None = None, jobs: int = 1,
                 time_limit: float = 5.0, warn: Callable[[str], None] | None = None,
                 progress: Callable[[int], Any] | None = None,
                 usage: str = "m2lsp score SYSTEM GOLD", metric: str = "m2") -> None:
        self.settings, self.encoding = settings, encoding
        self.jobs, self.time_limit = jobs, time_limit
        self.warn, self.progress, self.usage = warn, progress, usage
        self.metric = metric  # whose inputs these are, for the errors that name it
        self._gold: dict[Input, list] = {}
        self.warnings: dict[Input, list] = {}
        self.texts: dict[Input, str] = {}  # what each gold said, for the signature

    def gold(self, path: Input) -> list:
        from m2lsp.files.kept import kept
        from m2lsp.parsing.m2 import ParsedM2, parse_m2
        from m2lsp.parsing.source import read_source
        from m2lsp.scoring.m2.inputs import gold_warnings, read_gold

        def made() -> tuple[list, str, list]:
            source = read_source(path, "gold", self.encoding)
            document = path.document if isinstance(path, ParsedM2) else parse_m2(source)
            gold = read_gold(document, source, str(path))
            return gold, source.text, gold_warnings(gold)

        if path not in self._gold:
            found = kept(path, ("m2-gold", self.encoding), made)
            self._gold[path], self.texts[path], self.warnings[path] = found
            if self.warn is not None:
                _warn_gold(self.warn, path, self.warnings[path])
        return self._gold[path]

    def results(self, system_path: Input, gold_path: Input) -> list[SentenceResult]:
        from contextlib import nullcontext

        from m2lsp.parsing.source import read_source
        from m2lsp.scoring.m2.inputs import read_system
        from m2lsp.scoring.m2.maxmatch import score_all
        from m2lsp.scoring.system_text import empty_problem, system_notes
        from m2lsp.scripts import mismatch

        system = read_source(system_path, "system", self.encoding)
        gold = self._checked_gold(system_path, system.text, gold_path)
        hypotheses = self._segmented(read_system(system), gold, system_path, gold_path)
        if (empty := empty_problem(system_path, len(hypotheses), gold_path, len(gold))):
            raise InputError(empty)
        if len(gold) != len(hypotheses):
            raise InputError(count_mismatch(gold, hypotheses, system_path, gold_path))
        if self.warn is not None:
            for note in system_notes(system_path, hypotheses, [g.source for g in gold]):
                self.warn(f"warning: {note}")
            if (different := mismatch(system.text, self.texts[gold_path])) is not None:
                self.warn(f"warning: {different}: every edit will be counted wrong or missed")
        ticker = self.progress(len(gold)) if self.progress else nullcontext(None)
        warn = self.warn
        slow = (lambda r, s: _note_slow(warn, r, s)) if warn is not None else None
        with ticker as tick:
            return score_all(gold, hypotheses, self.settings, self.jobs, slow,
                             self.time_limit, tick.at if tick is not None else None)

    def _segmented(self, hypotheses: list[str], gold: list, system_path: Input,
                   gold_path: Input) -> list[str]:
        """The hypotheses cut into characters with `split_chars`; else as they are, unless
        their Chinese is cut otherwise than the gold's (an error saying how to cut it)."""
        from m2lsp.files.kept import kept
        from m2lsp.scripts import segmentation, segmentation_problem, split_chars

        if self.settings.split_chars:
            return [split_chars(h) for h in hypotheses]
        cut = kept(gold_path, ("m2-gold-segmentation", self.encoding),  # once a gold
                   lambda: segmentation([g.source for g in gold]))
        problem = segmentation_problem(str(system_path), hypotheses, str(gold_path), cut)
        if problem is not None:
            raise InputError(problem)
        return hypotheses

    def _checked_gold(self, system_path: Input, system_text: str, gold_path: Input) -> list:
        """The gold, unless the files look given the wrong way round or the gold is not
        M2: then an error that says what probably happened."""
        from m2lsp.parsing.source import read_source
        from m2lsp.scoring.system_text import argument_problem, looks_like_m2

        try:
            gold = self.gold(gold_path)
        except InputError as exc:
            text = read_source(gold_path, "gold", self.encoding).text
            hint = argument_problem(system_path, system_text, gold_path, text,
                                    metric=self.metric, usage=self.usage)
            raise (InputError(hint) if hint else exc) from None
        if looks_like_m2(system_text):
            raise InputError(argument_problem(system_path, system_text, gold_path,
                                              self.texts[gold_path], metric=self.metric,
                                              usage=self.usage) or "")
        return gold


def _warn_gold(warn: Callable[[str], None], path: Input, warnings: list) -> None:
    for warning in warnings:
        warn(f"warning: {path}: {warning.describe()}")
    if warnings:
        warn(f"the scores count these edits as the NUS M2 scorer 3.2 does; "
             f"`m2lsp check {path}` lists every problem of the gold")


def _note_slow(warn: Callable[[str], None], result: SentenceResult, seconds: float) -> None:
    warn(f"note: sentence {result.index + 1} (gold line {result.line + 1}) took "
         f"{seconds:.1f} s; its result is exact")


def count_mismatch(gold: Sequence, hypotheses: Sequence[str], system_path: Input,
                   gold_path: Input) -> str:
    """Both counts, and the first sentence where the files stop lining up."""
    line = first_divergence([g.source for g in gold], hypotheses)
    where = ""
    if line is not None:
        gold_line = gold[line].line + 1 if line < len(gold) else None
        where = (f"; they stop lining up at system line {line + 1}"
                 + (f" (gold S line {gold_line})" if gold_line else ""))
    return (f"system file {system_path} has {len(hypotheses)} sentences but gold file "
            f"{gold_path} has {len(gold)}{where}")


def first_divergence(sources: Sequence[str], hypotheses: Sequence[str]) -> int | None:
    """The first index from which hypotheses look more like a shifted source than their own
    (a sentence lost or added), or the end of the shorter file."""
    def overlap(a: str, b: str) -> float:
        x, y = set(a.split()), set(b.split())
        return len(x & y) / max(len(x | y), 1)

    for index in range(min(len(sources), len(hypotheses))):
        own = overlap(sources[index], hypotheses[index])
        shifted = max(overlap(sources[index + 1], hypotheses[index])
                      if index + 1 < len(sources) else 0.0,
                      overlap(sources[index - 1], hypotheses[index]) if index else 0.0)
        if shifted > own + 0.2:
            return index
    return min(len(sources), len(hypotheses))


class MaxMatch(MetricBase):
    declaration = DECLARATION
    editor = "steps"

    def agreement(self, scored_m2: str, gold_m2: str, corrected: Sequence[str],
                  beta: float) -> Agreement:
        """MaxMatch of the scored annotator's corrected sentences against the gold one's
        edits (a gold read as the NUS scorer reads it)."""
        from m2lsp.parsing.m2 import parse_m2
        from m2lsp.parsing.source import SourceText
        from m2lsp.scoring.m2.inputs import read_gold
        from m2lsp.scoring.m2.maxmatch import M2Settings, evaluate

        text = SourceText(gold_m2)
        sentences = read_gold(parse_m2(text), text, "the gold annotator")
        score = evaluate(sentences, list(corrected), M2Settings(beta=beta)).score
        correct, proposed, found = (int(n) for n in (
            score.counts.correct, score.counts.proposed, score.counts.gold))
        return Agreement(correct, proposed - correct, found - correct, score.precision,
                         score.recall, score.f)

    def scoring(self, request: Request) -> Scoring:
        options = request.options
        return Scoring(options.settings, request.encoding, options.jobs, options.time_limit,
                       request.warn, request.progress, request.usage)

    def options(self, values: Mapping[str, Any], shared: Shared, config: Any) -> M2Options:
        return m2_options(values, shared, config)

    def run(self, request: Request) -> M2Score:
        if request.gold is None:
            raise UsageError("--metric m2 needs GOLD (an M2 file)")
        job = self.scoring(request)
        results = job.results(request.system, request.gold)
        return M2Score(tuple(results), job.settings,
                       tuple(job.warnings.get(request.gold, ())), job.texts[request.gold])

    def live(self, config: Any) -> Any:  # config.ScoreSettings -> live.M2Live
        """A score of the open gold that follows its edits and the system's."""
        from m2lsp.scoring.m2.live import M2Live

        return M2Live(config)

    def run_many(self, request: Request, systems: Sequence[Input]) -> Sequence[M2Score]:
        """Several systems against one gold, read once (for `m2lsp compare`)."""
        if request.gold is None:
            raise UsageError("--metric m2 needs GOLD (an M2 file)")
        job = self.scoring(request)
        results = [tuple(job.results(s, request.gold)) for s in systems]
        return [M2Score(r, job.settings, (), job.texts[request.gold]) for r in results]


METRIC = MaxMatch()
