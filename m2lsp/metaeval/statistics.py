"""The statistics of meta-evaluation, in plain Python: Pearson's r and Spearman's rho as
scipy.stats computes them (Spearman: Pearson's r of the average ranks), the pairwise
agreement of sentence-level rankings (SEEDA's `corr_sentence.py`), and Williams' test for
two correlations with the same human scores (Graham & Baldwin 2014, as WMT uses it).

Sums are exact (`math.fsum`), so a correlation can differ from scipy's, which sums in
floating point, by an ulp or two: the tests compare to 1e-12.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's r; nan when either side is constant, has fewer than 2 values, or holds a
    value that is not finite (NaN compares false, so a NaN once made r 1.0)."""
    n = len(x)
    if n != len(y):
        raise ValueError(f"{n} values against {len(y)}")
    if not all(map(math.isfinite, x)) or not all(map(math.isfinite, y)):
        return math.nan
    if n < 2 or min(x) == max(x) or min(y) == max(y):
        return math.nan  # a constant side has no correlation (SciPy says nan too)
    dx, dy = _centred(x), _centred(y)
    if dx is None or dy is None:
        return math.nan
    sxx, syy = math.fsum(a * a for a in dx), math.fsum(b * b for b in dy)
    r = math.fsum(a * b for a, b in zip(dx, dy, strict=True)) / (math.sqrt(sxx) * math.sqrt(syy))
    return max(-1.0, min(1.0, r))


def _centred(values: Sequence[float]) -> list[float] | None:
    """The values less their mean, scaled by the largest (as SciPy scales them, so that
    tiny or huge values neither underflow nor overflow); None when all are equal."""
    mean = math.fsum(values) / len(values)
    centred = [v - mean for v in values]
    largest = max(abs(v) for v in centred)
    if largest == 0:
        return None
    return [v / largest for v in centred]


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties given their average rank (scipy's rankdata 'average')."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            out[order[k]] = (start + end) / 2 + 1
        start = end + 1
    return out


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rho: Pearson's r of the average ranks (nan where a value is not finite:
    a NaN has no rank)."""
    if not all(map(math.isfinite, x)) or not all(map(math.isfinite, y)):
        return math.nan
    return pearson(ranks(x), ranks(y))


CORRELATIONS = {"pearson": pearson, "spearman": spearman}


@dataclass(frozen=True)
class Agreement:
    """Sentence-level agreement with human pairwise preferences: `agree` and `disagree`
    pairs out of `pairs` (human ties are not pairs); accuracy is agree / pairs, the
    Kendall-like tau (agree - disagree) / pairs."""

    agree: int
    disagree: int

    @property
    def pairs(self) -> int:
        return self.agree + self.disagree

    @property
    def accuracy(self) -> float:
        return self.agree / self.pairs if self.pairs else math.nan

    @property
    def kendall(self) -> float:
        return (self.agree - self.disagree) / self.pairs if self.pairs else math.nan


def agreement(human: Sequence[Sequence[float | None]], metric: Sequence[Sequence[float]],
              higher: bool = True) -> Agreement:
    """Every judgment (one ranking of several systems' outputs of one sentence: `human[k]`,
    each system's human score, higher better, None where it was not ranked) against the
    metric's scores of the same outputs (`metric[k]`).  Each pair of ranked systems the
    judgment does not tie counts once; a metric tie counts as the metric preferring the
    second system of the pair (systems in their dataset order) when higher scores are
    better, the first when lower are, as SEEDA's `corr_sentence.py` counts it (and
    gec-metrics, which has only the first).  A metric score that is not finite leaves
    nothing to count (accuracy and Kendall nan): NaN compares false either way."""
    if not all(math.isfinite(v) for scores in metric for v in scores):
        return Agreement(0, 0)
    agree = disagree = 0
    for judged, scores in zip(human, metric, strict=True):
        ranked = [i for i, h in enumerate(judged) if h is not None]
        for a, i in enumerate(ranked):
            for j in ranked[a + 1:]:
                hi, hj = judged[i], judged[j]
                if hi == hj:
                    continue
                mi, mj = scores[i], scores[j]
                metric_first = mi > mj if higher else mi <= mj
                if metric_first == (hi > hj):  # type: ignore[operator]
                    agree += 1
                else:
                    disagree += 1
    return Agreement(agree, disagree)


@dataclass(frozen=True)
class Williams:
    """Williams' test of r(a, human) > r(b, human) given r(a, b), over n systems: the t
    statistic (n - 3 degrees of freedom) and its one-sided p-value."""

    t: float
    p: float
    n: int


def williams(r_ah: float, r_bh: float, r_ab: float, n: int) -> Williams:
    """Does metric a correlate with the human scores better than metric b (both over the
    same n systems)?  Williams (1959), in the form of Graham & Baldwin (2014)."""
    if n < 4:
        return Williams(math.nan, math.nan, n)
    det = 1 - r_ah ** 2 - r_bh ** 2 - r_ab ** 2 + 2 * r_ah * r_bh * r_ab
    denominator = 2 * (n - 1) / (n - 3) * det + ((r_ah + r_bh) ** 2) / 4 * (1 - r_ab) ** 3
    if denominator <= 0:
        return Williams(math.nan, math.nan, n)
    t = (r_ah - r_bh) * math.sqrt((n - 1) * (1 + r_ab)) / math.sqrt(denominator)
    return Williams(t, student_t_above(t, n - 3), n)


def student_t_above(t: float, df: int) -> float:
    """P(T > t) for Student's t with `df` degrees of freedom."""
    if math.isnan(t):
        return math.nan
    tail = 0.5 * regularized_beta(df / (df + t * t), df / 2, 0.5)
    return tail if t > 0 else 1 - tail


def regularized_beta(x: float, a: float, b: float) -> float:
    """I_x(a, b), by Lentz's continued fraction (exact to about 1e-14 here)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x > (a + 1) / (a + b + 2):
        return 1 - front * _fraction(1 - x, b, a) / b
    return front * _fraction(x, a, b) / a


def _fraction(x: float, a: float, b: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    value = d
    for m in range(1, 300):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            value *= c * d
        if abs(c * d - 1) < 1e-16:
            break
    return value
