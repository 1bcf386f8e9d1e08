"""PT-M2 (Gong et al. 2022) as the authors' scorer (pygongnlp/PT-M2) computes it: MaxMatch's
edits, each weighted by how much it alone moves the source's BERTScore against the
annotator's corrected sentence, |BERTScore(source with the edit) - BERTScore(source)|.

Per sentence and annotator, the weights cover the system's edits on MaxMatch's path for
that annotator and the annotator's gold edits (first correction each).  The annotator
chosen is MaxMatch's (highest F of the running weighted counts; then more correct, then
fewer proposed + beta^2 gold; then the annotator met first in the M2 block, as the
authors' Python 3 dictionaries iterate).  `sentm2` (the authors' recommended setting)
scores every sentence alone, giving its edits equal weights where they all weigh 0, and
averages the sentences' F; `m2` sums the weighted counts over the corpus.

Faster, same arithmetic: every (sentence, reference) pair the corpus needs is scored in
one BERTScore pass (each distinct pair once, kept in the cache) instead of two calls per
edit."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

Edit = tuple[int, int, str, str]  # (start, end, original, correction), MaxMatch's
Weights = dict[Edit, float]
BASES = ("sentm2", "m2")


@dataclass(frozen=True)
class Reading:
    """One annotator's reading of one sentence: MaxMatch's path for it (the scorer's order,
    last edit first), the path's edits that match the gold, and the gold edits (file
    order, each with its first correction) with the sentence they make."""

    system: tuple[Edit, ...]
    correct: tuple[Edit, ...]
    gold: tuple[Edit, ...]
    reference: str


@dataclass(frozen=True)
class Totals:
    """Weighted counts: correct, proposed and gold edits."""

    correct: float = 0.0
    proposed: float = 0.0
    gold: float = 0.0

    def plus(self, other: Totals) -> Totals:
        return Totals(self.correct + other.correct, self.proposed + other.proposed,
                      self.gold + other.gold)

    def scores(self, beta: float) -> tuple[float, float, float]:
        """P, R and F-beta as the authors compute them (1.0 for 0/0 P and R)."""
        p = self.correct / self.proposed if self.proposed else 1.0
        r = self.correct / self.gold if self.gold else 1.0
        square = beta * beta
        f = (1.0 + square) * p * r / (square * p + r) if square * p + r else 0.0
        return p, r, f


def rebuilt(source: str, edits: Iterable[Edit]) -> str:
    """The source with the edits made, in (start, end) order, as the authors' `get_ref`
    makes it (the offsets shift by each edit's change in length)."""
    tokens = source.split()
    shift = 0
    for start, end, original, correction in sorted(edits, key=lambda e: (e[0], e[1])):
        if original == "":
            end = start
        new = correction.split()
        tokens = tokens[:shift + start] + new + tokens[shift + end:]
        shift += len(new) - len(original.split())
    return " ".join(tokens)


def overlapping(edits: Iterable[Edit]) -> bool:
    """Whether two edits cover the same token (in (start, end) order, one starts before
    the one before it ends): the sentence they make is then not defined."""
    ordered = sorted(edits, key=lambda e: (e[0], e[1]))
    return any(b[0] < a[1] for a, b in itertools.pairwise(ordered))


def weighed(reading: Reading) -> list[Edit]:
    """The edits a reading weighs: its path's and its gold's, each once."""
    return list(dict.fromkeys((*reading.system, *reading.gold)))


def pairs(source: str, reading: Reading) -> list[str]:
    """The sentences BERTScore compares with the reading's reference: the source, then the
    source with each weighed edit alone."""
    return [source, *(rebuilt(source, [edit]) for edit in weighed(reading))]


def weights_of(reading: Reading, scores: Sequence[float], sentence_level: bool) -> Weights:
    """Each weighed edit's weight from the BERTScores of `pairs` (in that order); at
    sentence level, equal weights where they all weigh 0."""
    found = {edit: abs(score - scores[0])
             for edit, score in zip(weighed(reading), scores[1:], strict=True)}
    if sentence_level and sum(found.values()) == 0:
        found = {edit: 1 / len(found) for edit in found}
    return found


def totals(reading: Reading, weights: Mapping[Edit, float]) -> Totals:
    return Totals(sum(weights[e] for e in reading.correct),
                  sum(weights[e] for e in reading.system),
                  sum(weights[e] for e in reading.gold))


def chosen(options: Sequence[Totals], running: Totals, beta: float) -> Totals:
    """The counts MaxMatch adds for a sentence: the reading whose counts added to the
    running ones score highest (see the module docstring for ties)."""
    best: tuple[float, float, float] = (-math.inf, -math.inf, math.inf)
    pick = Totals()
    square = beta * beta
    for counts in options:
        local = running.plus(counts)
        f = local.scores(beta)[2]
        weight = local.proposed + square * local.gold
        if (best[0] < f or (best[0] == f and best[1] < local.correct)
                or (best[0] == f and best[1] == local.correct and best[2] > weight)):
            best, pick = (f, local.correct, weight), counts
    return pick


Scorer = Callable[[list[str], list[str]], list[float]]  # (candidates, references) -> F


def sentence_totals(sources: Sequence[str], readings: Sequence[Sequence[Reading]],
                    score: Scorer | None, sentence_level: bool) -> list[list[Totals]]:
    """Every reading's weighted counts, all pairs scored in one call (`score` None: the
    authors' `self` scorer, every edit weighing 1)."""
    if score is None:
        return [[totals(r, dict.fromkeys(weighed(r), 1)) for r in options]
                for options in readings]
    candidates: list[str] = []
    references: list[str] = []
    for source, options in zip(sources, readings, strict=True):
        for reading in options:
            made = pairs(source, reading)
            candidates += made
            references += [reading.reference] * len(made)
    found = iter(score(candidates, references))
    out = []
    for options in readings:
        row = []
        for reading in options:
            scores = [next(found) for _ in range(len(weighed(reading)) + 1)]
            row.append(totals(reading, weights_of(reading, scores, sentence_level)))
        out.append(row)
    return out


@dataclass(frozen=True)
class PtM2Result:
    """Each sentence's chosen counts and own F, and the corpus score of the base."""

    base: str
    chosen: tuple[Totals, ...]
    sentence_f: tuple[float, ...]
    score: float


def evaluate(sources: Sequence[str], readings: Sequence[Sequence[Reading]],
             score: Scorer | None,
             base: str, beta: float) -> PtM2Result:
    """PT-M2 of one system: `sentm2` (mean of the sentences' F) or `m2` (F of the sums)."""
    rows = sentence_totals(sources, readings, score, base == "sentm2")
    running, picks, own = Totals(), [], []
    for options in rows:
        start = Totals() if base == "sentm2" else running
        pick = chosen(options, start, beta)
        picks.append(pick)
        alone = pick if base == "sentm2" else chosen(options, Totals(), beta)
        own.append(alone.scores(beta)[2])
        running = running.plus(pick)
    if base == "sentm2":
        return PtM2Result(base, tuple(picks), tuple(own), mean(own))
    return PtM2Result(base, tuple(picks), tuple(own), running.scores(beta)[2])


def mean(values: Sequence[float]) -> float:
    """Added one by one, as the authors' `sum(np.array(...))` adds (Python 3.12's `sum`
    of floats compensates its rounding, which would change the last digits)."""
    total = 0.0
    for value in values:
        total += value
    return total / len(values) if values else 0.0
