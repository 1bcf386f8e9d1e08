"""The M2 (MaxMatch) corpus scorer: per-sentence results as data, then the NUS scorer's
choice of annotator, then precision, recall and F.

Per sentence and annotator the expensive part (lattice, best path, matching) does not
depend on other sentences, so it can run in any order or in other processes; the choice of
annotator does (it maximises the *cumulative* F), and is a cheap pass in order.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import m2lsp.defaults as defaults
from m2lsp.errors import InputError
from m2lsp.parsing.source import SourceText
from m2lsp.scoring.m2 import py2
from m2lsp.scoring.m2.inputs import GoldSentence
from m2lsp.scoring.m2.lattice import (
    AVAILABLE_SHARE,
    DEFAULT_MEMORY_LIMIT,
    GoldEdit,
    LatticeCrash,
    LatticeTooLarge,
    SentenceLattice,
    SystemEdit,
    available_memory,
    best_paths,
    match,
)
from m2lsp.scoring.signature import Signature


@dataclass(frozen=True)
class M2Settings:
    """The scorer's options; the defaults are the NUS M2 scorer's."""

    max_unchanged_words: int = defaults.MAX_UNCHANGED_WORDS
    beta: float = defaults.BETA
    ignore_whitespace_casing: bool = False
    # the bound on one sentence's lattice, in MiB (0: the memory available, see
    # memory_limit); it never changes a result, it only stops a sentence that would need
    # more (see SentenceTooLarge)
    max_lattice_memory: int = DEFAULT_MEMORY_LIMIT // 2**20
    # m2lsp's own: the system's lines cut into characters first (ChERRANT's char level),
    # for a char-level gold (MuCGEC's `.char` files) and a system written without spaces
    split_chars: bool = False

    @property
    def memory_limit(self) -> int:
        """The lattice bound in bytes.  `max_lattice_memory` 0 ("none") bounds it by the
        memory actually available now, so that a lattice too large for the machine stops
        with an error naming its sentence, not the process killed by the kernel."""
        if self.max_lattice_memory:
            return self.max_lattice_memory * 2**20
        available = available_memory()
        return int(available * AVAILABLE_SHARE) if available is not None else 0

    def signature(self) -> Signature:
        """How the numbers were made, printed with them."""
        casing = "yes" if self.ignore_whitespace_casing else "no"
        split = (("system", "split-chars"),) if self.split_chars else ()
        return Signature("M2", (("beta", f"{self.beta:g}"),
                                ("max-unchanged", str(self.max_unchanged_words)),
                                ("ignore-whitespace-casing", casing), *split,
                                ("scorer", "nus-m2-3.2")))


@dataclass(frozen=True)
class Attempt:
    """One annotator's reading of one sentence."""

    annotator: int
    gold: tuple[GoldEdit, ...]
    system: tuple[SystemEdit, ...]  # the scorer's order: last edit first
    correct: tuple[SystemEdit, ...]
    types: tuple[str, ...] = ()  # the error type of each gold edit
    lines: tuple[int, ...] = ()  # the file line (0-based) of each gold edit

    @property
    def counts(self) -> tuple[int, int, int]:
        return len(self.correct), len(self.system), len(self.gold)


@dataclass(frozen=True)
class SentenceResult:
    """Everything scoring found about one sentence."""

    index: int  # 0-based
    line: int  # the S line in the gold file (0-based)
    source: str
    hypothesis: str
    attempts: tuple[Attempt, ...]  # in the order the scorer tried the annotators
    chosen: int = 0  # index into attempts

    @property
    def best(self) -> Attempt:
        return self.attempts[self.chosen]

    @property
    def true_positives(self) -> tuple[SystemEdit, ...]:
        return self.best.correct

    @property
    def false_positives(self) -> tuple[SystemEdit, ...]:
        correct = set(self.best.correct)
        return tuple(e for e in reversed(self.best.system) if e not in correct)

    @property
    def false_negatives(self) -> tuple[GoldEdit, ...]:
        """Gold edits of the chosen annotator that no system edit matched."""
        found = {(e.start, e.end, e.original, e.correction) for e in self.best.correct}
        return tuple(g for g in self.best.gold if not any(
            (g.start, g.end, g.original, c) in found for c in g.corrections))


@dataclass(frozen=True)
class Counts:
    correct: float = 0.0
    proposed: float = 0.0
    gold: float = 0.0

    def plus(self, counts: tuple[int, int, int]) -> Counts:
        c, p, g = counts
        return Counts(self.correct + c, self.proposed + p, self.gold + g)


@dataclass(frozen=True)
class Score:
    """Corpus precision, recall and F-beta, and how they were made."""

    precision: float
    recall: float
    f: float
    counts: Counts
    settings: M2Settings = field(default_factory=M2Settings)

    @property
    def signature(self) -> str:
        return str(self.settings.signature())


# ---------------------------------------------------------------------------------------
# One sentence

def attempt(system: list[SystemEdit], annotator: int, gold: tuple[GoldEdit, ...],
            settings: M2Settings, types: tuple[str, ...] = (),
            lines: tuple[int, ...] = ()) -> Attempt:
    """One annotator's reading of the best path's edits."""
    if settings.ignore_whitespace_casing:
        system = [e for e in system if not _same_ignoring_case(e.original, e.correction)]
    return Attempt(annotator, gold, tuple(system), tuple(match(system, gold)), types, lines)


def _same_ignoring_case(a: str, b: str) -> bool:
    return a.replace(" ", "").lower() == b.replace(" ", "").lower()


def build_lattice(source: list[str], hypothesis: list[str], settings: M2Settings
                  ) -> SentenceLattice | None:
    """The sentence's lattice (for reports), or None when nothing changed."""
    if source == hypothesis:
        return None
    return SentenceLattice(source, hypothesis, settings.max_unchanged_words,
                           settings.memory_limit)


def score_sentence(index: int, gold: GoldSentence, hypothesis: str,
                   settings: M2Settings) -> SentenceResult:
    """Every annotator's attempt at one sentence (the choice comes later)."""
    return sentence_result(index, gold, hypothesis,
                           sentence_paths(index, gold, hypothesis, settings), settings)


def sentence_paths(index: int, gold: GoldSentence, hypothesis: str, settings: M2Settings
                   ) -> list[list[SystemEdit]]:
    """The best path's edits for each annotator (the expensive part of a sentence).  A
    hypothesis equal to the source has no changing path: every annotator gets no edit."""
    source_tokens = py2.split(gold.source)
    hypothesis_tokens = py2.split(hypothesis)
    golds = [edits for _, edits in gold.annotators]
    if source_tokens == hypothesis_tokens:
        return [[] for _ in golds]
    try:
        return best_paths(source_tokens, hypothesis_tokens, settings.max_unchanged_words,
                          golds, memory_limit=settings.memory_limit)
    except LatticeCrash as exc:
        raise ScorerCrash(index, gold.line) from exc
    except LatticeTooLarge as exc:
        raise SentenceTooLarge(index, gold.line, len(source_tokens),
                               len(hypothesis_tokens), exc,
                               settings.max_lattice_memory == 0) from None


def sentence_result(index: int, gold: GoldSentence, hypothesis: str,
                    paths: list[list[SystemEdit]], settings: M2Settings) -> SentenceResult:
    """The attempts of each annotator from the best paths found for them."""
    types = gold.types or tuple(() for _ in paths)
    lines = gold.lines or tuple(() for _ in paths)
    attempts = tuple(attempt(path, a, edits, settings, t, n) for path, (a, edits), t, n
                     in zip(paths, gold.annotators, types, lines, strict=True))
    return SentenceResult(index, gold.line, gold.source, hypothesis, attempts)


class ScorerCrash(InputError):
    """A sentence on which NUS M2 scorer 3.2 itself raises an exception."""

    def __init__(self, index: int, line: int) -> None:
        super().__init__(f"the NUS M2 scorer 3.2 stops with an exception on sentence "
                         f"{index + 1} (gold line {line + 1}), so there is no official score "
                         "to reproduce")


class SentenceTooLarge(InputError):
    """A sentence whose lattice would take more memory than the bound: named, with its sizes
    and the option that lifts the bound, instead of the machine running out of memory."""

    def __init__(self, index: int, line: int, source: int, hypothesis: int,
                 found: LatticeTooLarge, available: bool = False) -> None:
        self.index, self.line = index, line
        made = f", {found.entries:,} edges made before stopping" if found.entries else ""
        made += f", {found.annotators:,} annotators" if found.annotators > 1 else ""
        what = (f"the edit lattice of its {source} source and {hypothesis} hypothesis tokens "
                f"({found.vertices:,} vertices{made})")
        if found.paths:
            what = (f"the best paths of its {found.annotators:,} annotators over its {source} "
                    f"source and {hypothesis} hypothesis tokens")
        within = (f"the memory available ({_mib(found.limit)}, --max-lattice-memory 0)"
                  if available else _mib(found.limit))
        lift = ("No bound lifts this on this machine" if available else
                "The option --max-lattice-memory MIB raises the bound (0: the memory available)")
        super().__init__(
            f"sentence {index + 1} (gold line {line + 1}) cannot be scored exactly within "
            f"{within}: {what} {'may need' if found.paths else 'needs'} more than "
            f"{_mib(found.needed)}{_projection(found)}.  {lift}; NUS M2 scorer 3.2 builds "
            "the same lattice, with more memory and time")


def _projection(found: LatticeTooLarge) -> str:
    """How large the whole lattice would be, where enough of it was built to tell."""
    if found.paths:
        return (" (each annotator's path has at most one edit per token, and every "
                "annotator's is kept)")
    projected = found.projected
    if projected is None or projected < 2 * found.needed:
        return " (a lower bound: how large it grows shows only as it is built)"
    share = 100 * found.done / found.total
    return (f" (a lower bound; built as far as it got, {share:.1f}% of its closure, it "
            f"would need about {_mib(projected)})")


def _mib(size: float) -> str:
    return f"{size / 2**20:,.0f} MiB"


# ---------------------------------------------------------------------------------------
# The corpus

def p_r_f(counts: Counts, beta: float) -> tuple[float, float, float]:
    """Per-annotator cumulative P, R, F as the scorer computes them (1.0 for 0/0 P and R;
    F is 1.0 when nothing is correct and nothing was expected... see `_f`)."""
    c, e, g = counts.correct, counts.proposed, counts.gold
    p = c / e if e else 1.0
    r = c / g if g else 1.0
    return p, r, _f(c, e, g, beta)


def _f(c: float, e: float, g: float, beta: float) -> float:
    denominator = beta * beta * g + e
    if denominator == 0:
        return 1.0 if c == 0.0 else 0.0
    return (1 + beta * beta) * c / denominator


def choose(results: Iterable[SentenceResult], beta: float,
           on_choice: Callable[[SentenceResult, Counts, list[Counts]], None] | None = None
           ) -> tuple[list[SentenceResult], Counts]:
    """Pick each sentence's annotator as the scorer does: the one that maximises the
    cumulative F; ties go to more correct edits, then to fewer proposed + beta^2 * gold,
    then to the annotator tried first."""
    total = Counts()
    chosen = []
    square = beta * beta
    for result in results:
        best, best_key = 0, None
        tried = [total.plus(a.counts) for a in result.attempts]
        for index, local in enumerate(tried):
            f = _f(local.correct, local.proposed, local.gold, beta)
            weight = local.proposed + square * local.gold
            if best_key is None or _better((f, local.correct, weight), best_key):
                best, best_key = index, (f, local.correct, weight)
        decided = SentenceResult(result.index, result.line, result.source, result.hypothesis,
                                 result.attempts, best)
        if on_choice is not None:
            on_choice(decided, total, tried)
        total = total.plus(result.attempts[best].counts)
        chosen.append(decided)
    return chosen, total


def _better(new: tuple[float, float, float], old: tuple[float, float, float]) -> bool:
    f, correct, weight = new
    best_f, best_correct, best_weight = old
    return (best_f < f or (best_f == f and best_correct < correct)
            or (best_f == f and best_correct == correct and best_weight > weight))


def corpus_score(total: Counts, settings: M2Settings) -> Score:
    """P, R and F of the summed counts, computed as the scorer computes them."""
    c, e, g = total.correct, total.proposed, total.gold
    beta = settings.beta
    p = c / e if e else 1.0
    r = c / g if g else 1.0
    denominator = beta * beta * p + r
    f = (1.0 + beta * beta) * p * r / denominator if denominator else 0.0
    return Score(p, r, f, total, settings)


@dataclass(frozen=True)
class M2Result:
    sentences: list[SentenceResult]
    score: Score


def evaluate(gold: Sequence[GoldSentence], hypotheses: Sequence[str],
             settings: M2Settings = M2Settings(), jobs: int = 1) -> M2Result:
    """Score a system against the gold standard."""
    if len(gold) != len(hypotheses):
        raise ValueError("gold and system have different numbers of sentences")
    results = score_all(gold, hypotheses, settings, jobs)
    chosen, total = choose(results, settings.beta)
    return M2Result(chosen, corpus_score(total, settings))


Slow = Callable[[SentenceResult, float], None]
Started = Callable[[int, int], None]  # (sentence index, its gold line)


def score_all(gold: Sequence[GoldSentence], hypotheses: Sequence[str], settings: M2Settings,
              jobs: int = 1, slow: Slow | None = None, time_limit: float = 5.0,
              started: Started | None = None) -> list[SentenceResult]:
    """Every sentence's attempts, in order; `jobs` > 1 splits the work over processes.

    `slow(result, seconds)` is called for a sentence that took longer than `time_limit`: a
    note for the user, never a change of result (every path here is exact).  `started`
    is told of each sentence as its scoring starts (with processes: as each batch ends)."""
    if jobs > 1 and len(gold) > 2 * jobs:
        return _score_in_processes(gold, hypotheses, settings, jobs, slow, time_limit,
                                   started)
    return _score_range(gold, hypotheses, settings, 0, slow, time_limit, started)


def _score_range(gold: Sequence[GoldSentence], hypotheses: Sequence[str],
                 settings: M2Settings, first: int, slow: Slow | None,
                 time_limit: float, started: Started | None = None) -> list[SentenceResult]:
    out = []
    for offset, (g, h) in enumerate(zip(gold, hypotheses, strict=True)):
        if started is not None:
            started(first + offset, g.line)
        started_at = time.perf_counter()
        result = score_sentence(first + offset, g, h, settings)
        spent = time.perf_counter() - started_at
        if slow is not None and spent > time_limit:
            slow(result, spent)
        out.append(result)
    return out


def _score_chunk(args: tuple) -> tuple[list[SentenceResult], list[tuple[int, float]]]:
    gold, hypotheses, settings, first, time_limit = args
    notes: list[tuple[int, float]] = []
    results = _score_range(gold, hypotheses, settings, first,
                           lambda r, s: notes.append((r.index, s)), time_limit)
    return results, notes


def _score_in_processes(gold: Sequence[GoldSentence], hypotheses: Sequence[str],
                        settings: M2Settings, jobs: int, slow: Slow | None,
                        time_limit: float, started: Started | None) -> list[SentenceResult]:
    from concurrent.futures import ProcessPoolExecutor

    size = -(-len(gold) // (jobs * 4))  # a few chunks per process evens out slow sentences
    chunks = [(list(gold[i:i + size]), list(hypotheses[i:i + size]), settings, i, time_limit)
              for i in range(0, len(gold), size)]
    out: list[SentenceResult] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for results, notes in pool.map(_score_chunk, chunks):
            out.extend(results)
            if started is not None and len(out) < len(gold):
                started(len(out), gold[len(out)].line)
            for index, spent in notes:
                if slow is not None:
                    slow(results[index - results[0].index], spent)
    return out




def score_sources(gold: SourceText, system: SourceText, settings: M2Settings = M2Settings(),
                  gold_name: str = "gold") -> M2Result:
    """Score decoded system text against decoded gold text (no files involved)."""
    from m2lsp.parsing.m2 import parse_m2
    from m2lsp.scoring.m2.inputs import read_gold, read_system

    sentences = read_gold(parse_m2(gold), gold, gold_name)
    return evaluate(sentences, read_system(system), settings)


def score_texts(gold: str, system: str, settings: M2Settings = M2Settings()) -> M2Result:
    """Score system text against gold M2 text."""
    return score_sources(SourceText(gold), SourceText(system), settings)
