"""Holm's correction and the cluster ranks on hand-worked tables; several systems compared
at once give exactly what `compare` gives each pair."""

from __future__ import annotations

import builtins
import random

import pytest

from m2lsp.reporting.significance import cluster_ranks, holm, rank_range
from m2lsp.scoring.bootstrap import Systems, compare, confidence

HOLM = [
    # raw p-values -> adjusted, worked by hand: sorted 0.005 0.01 0.03 0.04 times 4 3 2 1 is
    # 0.02 0.03 0.06 0.04, kept non-decreasing: 0.02 0.03 0.06 0.06
    ([0.01, 0.04, 0.03, 0.005], [0.03, 0.06, 0.06, 0.02]),
    ([0.5, 0.6], [1.0, 1.0]),  # 0.5 x 2 = 1.0 caps, and 0.6 may not fall below it
    ([0.001], [0.001]),
    ([], []),
]


@pytest.mark.parametrize(("raw", "adjusted"), HOLM)
def test_holm(raw: list[float], adjusted: list[float]) -> None:
    assert holm(raw) == pytest.approx(adjusted)


def test_cluster_ranks_and_ranges() -> None:
    scores = [0.50, 0.45, 0.44, 0.30, 0.29]
    beats = {(0, 3), (0, 4), (1, 3), (1, 4), (2, 4)}

    def better(i: int, j: int) -> bool:
        return (i, j) in beats
    # 1 and 2 cannot be told from 0; 3 is beaten by 0 (a new cluster); 4 not by 3
    assert cluster_ranks(scores, better) == [1, 1, 1, 2, 2]
    assert [rank_range(i, 5, better) for i in range(5)] == [(1, 3), (1, 3), (1, 4), (3, 5),
                                                            (4, 5)]


def _rows(rng: random.Random, n: int) -> list[tuple[int, int, int]]:
    return [(rng.randint(0, 2), rng.randint(0, 3), rng.randint(0, 3)) for _ in range(n)]


def _prf(sums: tuple) -> tuple[float, float, float]:
    c, e, g = sums
    p, r = (c / e if e else 1.0), (c / g if g else 1.0)
    return p, r, (1.25 * p * r / (0.25 * p + r) if p + r else 0.0)


def test_systems_equal_compare_and_confidence(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    base = _rows(rng, 300)
    systems = [base, [r if rng.random() < 0.5 else (r[0], r[1] + 1, r[2]) for r in base],
               _rows(rng, 300)]
    together = Systems(systems, _prf, 2, samples=200, seed=5)
    resampled = together.resampled()
    for i, ci in enumerate(together.intervals(resampled)):
        assert ci == confidence(systems[i], _prf, 200, 5)
    for a, b in ((0, 1), (0, 2), (2, 1)):
        assert together.compare(a, b, resampled) == compare(systems[a], systems[b], _prf, 2,
                                                             200, 5)
    # and the same without numpy (approximate randomisation's other path)
    real = builtins.__import__

    def no_numpy(name: str, *args, **kwargs):
        if name == "numpy":
            raise ImportError(name)
        return real(name, *args, **kwargs)
    with_numpy = compare(systems[0], systems[2], _prf, 2, 200, 5)
    monkeypatch.setattr(builtins, "__import__", no_numpy)
    assert compare(systems[0], systems[2], _prf, 2, 200, 5) == with_numpy
