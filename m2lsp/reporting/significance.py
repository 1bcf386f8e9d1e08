"""Corrections for testing many pairs, and ranks that tie what the tests cannot separate."""

from __future__ import annotations

from collections.abc import Callable, Sequence

ALPHA = 0.05


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values, in the given order: the i-th smallest of m is
    multiplied by m - i + 1, kept at least as large as those before it, at most 1.  A pair
    is significant at level a when its adjusted p is below a; the family-wise error rate
    stays below a."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def cluster_ranks(scores: Sequence[float], better: Callable[[int, int], bool]) -> list[int]:
    """Each system's cluster rank: systems sorted by score; a new cluster (the next rank)
    starts at the first system that the top system of the current cluster beats
    significantly (`better(i, j)`: i is significantly better than j).  Systems the tests
    cannot separate from the top of their cluster share its rank, as in WMT's tables."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    ranks = [0] * len(scores)
    rank, head = 0, None
    for index in order:
        if head is None or better(head, index):
            rank, head = rank + 1, index
        ranks[index] = rank
    return ranks


def rank_range(index: int, count: int, better: Callable[[int, int], bool]) -> tuple[int, int]:
    """The ranks `index` could hold: 1 + the systems significantly better than it, to the
    number of systems minus those significantly worse."""
    above = sum(1 for j in range(count) if j != index and better(j, index))
    below = sum(1 for j in range(count) if j != index and better(index, j))
    return 1 + above, count - below
