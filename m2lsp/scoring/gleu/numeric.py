"""The few numbers of NumPy and SciPy that `gleu.py` prints, computed the way they compute
them, so every printed digit agrees without importing either library.

- `mean` and `stdev` are `numpy.mean` and `numpy.std` (population): NumPy adds float64
  arrays by *pairwise* summation (blocks of at most 128 values, eight running sums each),
  not left to right, and the last digit of a sum depends on that order.
- `normal_interval` is `scipy.stats.norm.interval(0.95, loc=mean, scale=stdev)`:
  `ndtri(q) * scale + loc` at q = (1 - 0.95) / 2 and (1 + 0.95) / 2, and NaN for both ends when
  the scale is not positive (SciPy's "bad value": a standard deviation of 0 prints
  `(nan,nan)`).

The tests hold each function equal, bit for bit, to the library it stands for.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

BLOCK = 128  # NumPy's PW_BLOCKSIZE
UNROLL = 8
# scipy.special.ndtri((1 - 0.95) / 2) and ndtri((1 + 0.95) / 2), as float64
LOW_QUANTILE = -1.959963984540054
HIGH_QUANTILE = 1.959963984540054


def pairwise_sum(values: Sequence[float]) -> float:
    """`numpy.add.reduce` over a contiguous float64 array."""
    n = len(values)
    if n < UNROLL:
        total = 0.0
        for value in values:
            total += value
        return total
    if n <= BLOCK:
        return _block_sum(values)
    half = n // 2
    half -= half % UNROLL
    return pairwise_sum(values[:half]) + pairwise_sum(values[half:])


def _block_sum(values: Sequence[float]) -> float:
    """Eight running sums over whole groups of eight, combined as a tree, then the rest."""
    n = len(values)
    sums = list(values[:UNROLL])
    whole = n - n % UNROLL
    for start in range(UNROLL, whole, UNROLL):
        for lane in range(UNROLL):
            sums[lane] += values[start + lane]
    total = ((sums[0] + sums[1]) + (sums[2] + sums[3])) + \
        ((sums[4] + sums[5]) + (sums[6] + sums[7]))
    for value in values[whole:]:
        total += value
    return total


def mean(values: Sequence[float]) -> float:
    """`numpy.mean`."""
    return pairwise_sum(values) / len(values)


def stdev(values: Sequence[float], centre: float | None = None) -> float:
    """`numpy.std` (ddof 0): the root of the mean squared deviation from `mean` (`centre`:
    the mean, when the caller has it already)."""
    centre = mean(values) if centre is None else centre
    return math.sqrt(pairwise_sum([(v - centre) * (v - centre) for v in values]) / len(values))


def normal_interval(centre: float, scale: float) -> tuple[float, float]:
    """`scipy.stats.norm.interval(0.95, loc=centre, scale=scale)`."""
    if not scale > 0 or centre != centre:
        return math.nan, math.nan
    return LOW_QUANTILE * scale + centre, HIGH_QUANTILE * scale + centre
