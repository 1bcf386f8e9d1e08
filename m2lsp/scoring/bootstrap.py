"""Bootstrap confidence intervals and paired significance tests over sentences.

Sentences are resampled with replacement; each sample sums the per-sentence counts of the
annotator chosen in the full run (edits are not re-aligned and annotators not re-chosen,
which keeps a sample cheap: three sums).  Intervals are percentile intervals.  Seeded:
the same seed gives the same numbers.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

Stats = tuple[float, float, float]  # precision, recall, F


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


@dataclass(frozen=True)
class Confidence:
    """Percentile intervals of P, R and F over `samples` resamples."""

    precision: Interval
    recall: Interval
    f: Interval
    samples: int
    seed: int
    level: float = 0.95


def resamples(n: int, samples: int, seed: int) -> list[list[int]]:
    """`samples` lists of `n` sentence indices drawn with replacement."""
    rng = random.Random(seed)
    population = range(n)
    return [rng.choices(population, k=n) for _ in range(samples)]


class Columns:
    """Per-sentence counts as three lists, for fast sums over resampled indices."""

    def __init__(self, counts: Sequence[tuple[int, int, int]]) -> None:
        self.correct = [c[0] for c in counts]
        self.proposed = [c[1] for c in counts]
        self.gold = [c[2] for c in counts]

    def __len__(self) -> int:
        return len(self.correct)

    def sums(self, sample: Sequence[int]) -> tuple[int, int, int]:
        return (sum(map(self.correct.__getitem__, sample)),
                sum(map(self.proposed.__getitem__, sample)),
                sum(map(self.gold.__getitem__, sample)))


def _percentile(values: list[float], level: float) -> Interval:
    ordered = sorted(values)
    tail = (1 - level) / 2
    low = ordered[int(tail * len(ordered))]
    high = ordered[min(len(ordered) - 1, int((1 - tail) * len(ordered)))]
    return Interval(low, high)


def confidence(counts: Sequence[tuple[int, int, int]], stats: Callable[[int, int, int], Stats],
               samples: int = 1000, seed: int = 12345, level: float = 0.95) -> Confidence:
    """Intervals of P, R and F computed by `stats` from resampled count sums."""
    columns = Columns(counts)
    values = [stats(*columns.sums(s)) for s in resamples(len(columns), samples, seed)]
    return Confidence(*(_percentile([v[k] for v in values], level) for k in range(3)),
                      samples=samples, seed=seed, level=level)


@dataclass(frozen=True)
class Comparison:
    """A paired bootstrap test of F(A) - F(B) (Koehn 2004)."""

    f_a: float
    f_b: float
    difference: Interval
    p_value: float  # how often the resampled difference does not keep the observed sign
    samples: int
    seed: int


def compare(counts_a: Sequence[tuple[int, int, int]], counts_b: Sequence[tuple[int, int, int]],
            stats: Callable[[int, int, int], Stats], samples: int = 1000,
            seed: int = 12345) -> Comparison:
    """Resample the same sentences for both systems and count how often the observed
    winner does not win."""
    if len(counts_a) != len(counts_b):
        raise ValueError("both systems must score the same sentences")
    a, b = Columns(counts_a), Columns(counts_b)
    everything = range(len(a))
    f_a, f_b = stats(*a.sums(everything))[2], stats(*b.sums(everything))[2]
    observed = f_a - f_b
    differences = []
    against = 0
    for sample in resamples(len(a), samples, seed):
        delta = stats(*a.sums(sample))[2] - stats(*b.sums(sample))[2]
        differences.append(delta)
        if (observed > 0 and delta <= 0) or (observed < 0 and delta >= 0) or observed == 0:
            against += 1
    return Comparison(f_a, f_b, _percentile(differences, 0.95), against / samples, samples,
                      seed)
