"""Bootstrap confidence intervals and paired significance tests over sentences, for every
metric with per-sentence statistics (`metric.SentenceStats`).

Sentences are resampled with replacement; each sample sums the per-sentence statistics
(for M2, the counts of the annotator chosen in the full run: edits are not re-aligned and
annotators not re-chosen, which keeps a sample cheap).  Intervals are percentile intervals.
Two systems are compared with a paired bootstrap (Koehn 2004) and with paired approximate
randomisation (Riezler & Maxwell 2005: swap the two systems' statistics of each sentence
with probability 1/2).  Seeded: the same seed gives the same numbers.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

Row = tuple[float, ...]
Aggregate = Callable[[Row], Row]


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


@dataclass(frozen=True)
class Confidence:
    """Percentile intervals of each headline number over `samples` resamples."""

    intervals: tuple[Interval, ...]
    samples: int
    seed: int
    level: float = 0.95


def resamples(n: int, samples: int, seed: int) -> list[list[int]]:
    """`samples` lists of `n` sentence indices drawn with replacement."""
    rng = random.Random(seed)
    population = range(n)
    return [rng.choices(population, k=n) for _ in range(samples)]


class Columns:
    """Per-sentence statistics as one list per statistic, for fast sums over indices."""

    def __init__(self, rows: Sequence[Row]) -> None:
        width = len(rows[0]) if rows else 0
        self.columns = [[row[k] for row in rows] for k in range(width)]
        self.length = len(rows)

    def __len__(self) -> int:
        return self.length

    def sums(self, sample: Sequence[int]) -> Row:
        return tuple(sum(map(column.__getitem__, sample)) for column in self.columns)

    def total(self) -> Row:
        return tuple(sum(column) for column in self.columns)


def _percentile(values: list[float], level: float) -> Interval:
    ordered = sorted(values)
    tail = (1 - level) / 2
    low = ordered[int(tail * len(ordered))]
    high = ordered[min(len(ordered) - 1, int((1 - tail) * len(ordered)))]
    return Interval(low, high)


def confidence(rows: Sequence[Row], aggregate: Aggregate, samples: int = 1000,
               seed: int = 12345, level: float = 0.95) -> Confidence:
    """Intervals of the numbers `aggregate` computes from resampled sums of `rows`."""
    columns = Columns(rows)
    values = [aggregate(columns.sums(s)) for s in resamples(len(columns), samples, seed)]
    width = len(values[0]) if values else 0
    return Confidence(tuple(_percentile([v[k] for v in values], level) for k in range(width)),
                      samples=samples, seed=seed, level=level)


@dataclass(frozen=True)
class Comparison:
    """Paired tests of M(A) - M(B) for one headline number M."""

    a: float
    b: float
    difference: Interval  # 95% paired-bootstrap interval of the difference
    p_value: float  # bootstrap: how often the resampled difference does not keep its sign
    p_randomised: float  # approximate randomisation: how often a random swap does as well
    samples: int
    seed: int


def compare(rows_a: Sequence[Row], rows_b: Sequence[Row], aggregate: Aggregate, main: int,
            samples: int = 1000, seed: int = 12345) -> Comparison:
    """Resample the same sentences for both systems and count how often the observed winner
    does not win; then swap sentences between the systems at random and count how often the
    difference is at least as large as observed."""
    if len(rows_a) != len(rows_b):
        raise ValueError("both systems must score the same sentences")
    a, b = Columns(rows_a), Columns(rows_b)
    score_a, score_b = aggregate(a.total())[main], aggregate(b.total())[main]
    observed = score_a - score_b
    differences, against = [], 0
    for sample in resamples(len(a), samples, seed):
        delta = aggregate(a.sums(sample))[main] - aggregate(b.sums(sample))[main]
        differences.append(delta)
        if (observed > 0 and delta <= 0) or (observed < 0 and delta >= 0) or observed == 0:
            against += 1
    randomised = _randomised(rows_a, rows_b, aggregate, main, abs(observed), samples, seed)
    return Comparison(score_a, score_b, _percentile(differences, 0.95), against / samples,
                      randomised, samples, seed)


def _randomised(rows_a: Sequence[Row], rows_b: Sequence[Row], aggregate: Aggregate,
                main: int, observed: float, samples: int, seed: int) -> float:
    """Paired approximate randomisation, with the usual +1 smoothing: (r + 1) / (n + 1)."""
    rng = random.Random(seed + 1)
    total_a, total_b = Columns(rows_a).total(), Columns(rows_b).total()
    differing = [i for i in range(len(rows_a)) if rows_a[i] != rows_b[i]]
    at_least = 0
    for _ in range(samples):
        sum_a, sum_b = list(total_a), list(total_b)
        for i in differing:
            if rng.random() < 0.5:
                for k, (x, y) in enumerate(zip(rows_a[i], rows_b[i], strict=True)):
                    sum_a[k] += y - x
                    sum_b[k] += x - y
        delta = aggregate(tuple(sum_a))[main] - aggregate(tuple(sum_b))[main]
        if abs(delta) >= observed - 1e-12:
            at_least += 1
    return (at_least + 1) / (samples + 1)
