"""NumPy's sums and means of float64 vectors, reproduced in pure Python: NumPy adds with
pairwise summation (blocks of 8 lanes up to 128 values, halves above), so a mean a
reference tool takes with `np.mean` has these bits, not `sum(v) / len(v)`'s.  Checked
against NumPy itself in the tests."""

from __future__ import annotations

import math
from collections.abc import Sequence


def numpy_sum(values: Sequence[float]) -> float:
    return _pairwise(values, 0, len(values))


def numpy_mean(values: Sequence[float]) -> float:
    """The mean as `np.mean` computes it (NaN for no values)."""
    return _pairwise(values, 0, len(values)) / len(values) if values else math.nan


def numpy_std(values: Sequence[float]) -> float:
    """`np.std` (population): the square root of the mean squared distance from the mean."""
    mean = numpy_mean(values)
    return math.sqrt(numpy_mean([abs(v - mean) ** 2 for v in values]))


def _pairwise(a: Sequence[float], start: int, n: int) -> float:
    if n < 8:
        total = 0.0
        for i in range(start, start + n):
            total += a[i]
        return total
    if n <= 128:
        r = [a[start + k] for k in range(8)]
        i = 8
        while i < n - (n % 8):
            for k in range(8):
                r[k] += a[start + i + k]
            i += 8
        total = (r[0] + r[1]) + (r[2] + r[3]) + ((r[4] + r[5]) + (r[6] + r[7]))
        for j in range(i, n):
            total += a[start + j]
        return total
    half = n // 2
    half -= half % 8
    return _pairwise(a, start, half) + _pairwise(a, start + half, n - half)
