"""Bootstrap confidence intervals and paired significance tests over sentences, for every
metric with per-sentence statistics (`metric.SentenceStats`).

Sentences are resampled with replacement; each sample sums the per-sentence statistics
(for M2, the counts of the annotator chosen in the full run: edits are not re-aligned and
annotators not re-chosen, which keeps a sample cheap).  Intervals are percentile intervals.
Two systems are compared with a paired bootstrap (Koehn 2004) and with paired approximate
randomisation (Riezler & Maxwell 2005: swap the two systems' statistics of each sentence
with probability 1/2).  Both p-values are two-sided unless a one-sided alternative is
asked for, so that they agree with the interval.  Seeded: the same seed gives the same numbers.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import m2lsp.defaults as defaults
from m2lsp.cancellation import checkpoint

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
    """`samples` lists of `n` sentence indices drawn with replacement (a cancelled caller
    stops between them: `m2lsp.cancellation`)."""
    rng = random.Random(seed)
    population = range(n)
    return [_checked(rng.choices(population, k=n)) for _ in range(samples)]


def _checked(sample: list[int]) -> list[int]:
    checkpoint()
    return sample


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


ALTERNATIVES = defaults.ALTERNATIVES


@dataclass(frozen=True)
class Comparison:
    """Paired tests of M(A) - M(B) for one headline number M, both against `alternative`."""

    a: float
    b: float
    difference: Interval  # 95% paired-bootstrap percentile interval of the difference
    p_value: float  # paired bootstrap (see `bootstrap_p`)
    p_randomised: float  # paired approximate randomisation (see `randomisation_p`)
    samples: int
    seed: int
    alternative: str = "two-sided"


def compare(rows_a: Sequence[Row], rows_b: Sequence[Row], aggregate: Aggregate, main: int,
            samples: int = 1000, seed: int = 12345,
            alternative: str = "two-sided") -> Comparison:
    """Resample the same sentences for both systems (paired bootstrap), and swap sentences
    between the systems at random (approximate randomisation); both p-values test the same
    `alternative`, so a two-sided p below 0.05 goes with a 95% interval that excludes 0."""
    if len(rows_a) != len(rows_b):
        raise ValueError("both systems must score the same sentences")
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative must be one of {', '.join(ALTERNATIVES)}")
    a, b = Columns(rows_a), Columns(rows_b)
    score_a, score_b = aggregate(a.total())[main], aggregate(b.total())[main]
    differences = [aggregate(a.sums(sample))[main] - aggregate(b.sums(sample))[main]
                   for sample in resamples(len(a), samples, seed)]
    shuffled = _randomised(rows_a, rows_b, aggregate, main, samples, seed)
    return Comparison(score_a, score_b, _percentile(differences, 0.95),
                      bootstrap_p(differences, alternative),
                      randomisation_p(shuffled, score_a - score_b, alternative),
                      samples, seed, alternative)


def p_digits(samples: int) -> int:
    """The decimals a p-value from `samples` resamples (or shuffles) can resolve: its
    smallest step is 1/samples, so 1,000 give three decimals, 200 two, never more."""
    return max(1, len(str(max(samples, 1))) - 1)  # floor(log10(samples))


def p_text(p: float, samples: int) -> str:
    """`0.031` for 1,000 resamples, `< 0.001` where p rounds to 0 at their resolution."""
    digits = p_digits(samples)
    step = 10.0 ** -digits
    return f"< {step:.{digits}f}" if p < step / 2 else f"{p:.{digits}f}"


def bootstrap_p(differences: Sequence[float], alternative: str = "two-sided") -> float:
    """The paired bootstrap's p from the resampled differences M(A) - M(B): for `greater` the
    share of resamples in which A does not beat B (difference <= 0), for `less` the share in
    which B does not beat A, and two-sided twice the smaller of the two (at most 1) -- the
    test that agrees with the percentile interval."""
    n = len(differences)
    not_above = sum(1 for d in differences if d <= 0) / n
    not_below = sum(1 for d in differences if d >= 0) / n
    if alternative == "greater":
        return not_above
    if alternative == "less":
        return not_below
    return min(1.0, 2 * min(not_above, not_below))


def randomisation_p(shuffled: Sequence[float], observed: float,
                    alternative: str = "two-sided") -> float:
    """Approximate randomisation's p with the usual +1 smoothing, (r + 1) / (n + 1): r counts
    the shuffled differences at least as extreme as the observed one, in the direction of
    `alternative` (two-sided: in size)."""
    tolerance = 1e-12
    if alternative == "greater":
        extreme = sum(1 for d in shuffled if d >= observed - tolerance)
    elif alternative == "less":
        extreme = sum(1 for d in shuffled if d <= observed + tolerance)
    else:
        extreme = sum(1 for d in shuffled if abs(d) >= abs(observed) - tolerance)
    return (extreme + 1) / (len(shuffled) + 1)


def _randomised(rows_a: Sequence[Row], rows_b: Sequence[Row], aggregate: Aggregate,
                main: int, samples: int, seed: int) -> list[float]:
    """The differences M(A) - M(B) after `samples` random swaps of each sentence's
    statistics between A and B (each with probability 1/2).  The draws are the same with
    or without numpy (one `random()` per differing sentence and sample, in that order), and
    so are the sums where the statistics are whole numbers (counts); numpy only adds them
    faster."""
    checkpoint()
    rng = random.Random(seed + 1)
    total_a, total_b = Columns(rows_a).total(), Columns(rows_b).total()
    differing = [i for i in range(len(rows_a)) if rows_a[i] != rows_b[i]]
    numpy = _numpy()
    if numpy is not None and differing and _whole(rows_a, rows_b, differing):
        return _randomised_numpy(numpy, rows_a, rows_b, differing, total_a, total_b,
                                 aggregate, main, samples, rng)
    shuffled = []
    for _ in range(samples):
        checkpoint()
        sum_a, sum_b = list(total_a), list(total_b)
        for i in differing:
            if rng.random() < 0.5:
                for k, (x, y) in enumerate(zip(rows_a[i], rows_b[i], strict=True)):
                    sum_a[k] += y - x
                    sum_b[k] += x - y
        shuffled.append(aggregate(tuple(sum_a))[main] - aggregate(tuple(sum_b))[main])
    return shuffled


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def _whole(rows_a: Sequence[Row], rows_b: Sequence[Row], differing: list[int]) -> bool:
    """Whether the statistics are whole numbers small enough to add exactly in any order."""
    return all(float(x).is_integer() and abs(x) < 2 ** 40 for i in differing
               for x in (*rows_a[i], *rows_b[i]))


def _randomised_numpy(numpy: Any, rows_a: Sequence[Row], rows_b: Sequence[Row],
                      differing: list[int], total_a: Any, total_b: Any, aggregate: Aggregate,
                      main: int, samples: int, rng: Any) -> list[float]:
    # the same Mersenne Twister in the same state gives the same doubles as random()
    state = rng.getstate()[1]
    twister = numpy.random.RandomState()
    twister.set_state(("MT19937", numpy.array(state[:-1], dtype=numpy.uint32), state[-1]))
    draws = twister.random_sample(samples * len(differing))
    swapped = (draws < 0.5).reshape(samples, len(differing)).astype(numpy.float64)
    delta = numpy.array([[y - x for x, y in zip(rows_a[i], rows_b[i], strict=True)]
                         for i in differing], dtype=numpy.float64)
    moved = swapped @ delta
    sums_a = numpy.array(total_a, dtype=numpy.float64) + moved
    sums_b = numpy.array(total_b, dtype=numpy.float64) - moved
    return [aggregate(tuple(a))[main] - aggregate(tuple(b))[main]
            for a, b in zip(sums_a.tolist(), sums_b.tolist(), strict=True)]


@dataclass(frozen=True)
class Systems:
    """Several systems' per-sentence statistics compared at once (`m2lsp report`): each
    system's resampled headline numbers are computed once and shared by its pairs, so every
    interval and p-value equals what `confidence` and `compare` give for it, at a fraction
    of the cost of comparing each pair from scratch."""

    rows: Sequence[Sequence[Row]]
    aggregate: Aggregate
    main: int
    samples: int = 1000
    seed: int = 12345

    @cached_property
    def totals(self) -> list[Row]:
        """Each system's corpus sums (computed once for all its pairs)."""
        return [Columns(rows).total() for rows in self.rows]

    def resampled(self) -> list[list[Row]]:
        """Each system's headline numbers on each resample (the same resamples for all)."""
        samples = resamples(len(self.rows[0]), self.samples, self.seed) if self.rows else []
        out = []
        for rows in self.rows:
            columns = Columns(rows)
            out.append([self.aggregate(columns.sums(_checked(s))) for s in samples])
        return out

    def intervals(self, resampled: Sequence[Sequence[Row]]) -> list[Confidence]:
        """Each system's 95% intervals (as `confidence`)."""
        out = []
        for values in resampled:
            width = len(values[0]) if values else 0
            out.append(Confidence(tuple(_percentile([v[k] for v in values], 0.95)
                                        for k in range(width)), self.samples, self.seed))
        return out

    def compare(self, a: int, b: int, resampled: Sequence[Sequence[Row]],
                alternative: str = "two-sided") -> Comparison:
        """System a against system b (as `compare(rows[a], rows[b], ...)`)."""
        main, aggregate = self.main, self.aggregate
        rows_a, rows_b = self.rows[a], self.rows[b]
        score_a, score_b = aggregate(self.totals[a])[main], aggregate(self.totals[b])[main]
        differences = [x[main] - y[main] for x, y in zip(resampled[a], resampled[b],
                                                         strict=True)]
        shuffled = _randomised(rows_a, rows_b, aggregate, main, self.samples, self.seed)
        return Comparison(score_a, score_b, _percentile(differences, 0.95),
                          bootstrap_p(differences, alternative),
                          randomisation_p(shuffled, score_a - score_b, alternative),
                          self.samples, self.seed, alternative)
