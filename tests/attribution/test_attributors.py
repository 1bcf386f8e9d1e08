"""The attributors' arithmetic on hand-made score tables, their properties over random
ones, sampled orders drawn as gec-metrics draws them, and edited sentences as gecommon
makes them."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from m2lsp.annotation.edit_lists import Edit
from m2lsp.attribution.applying import applied
from m2lsp.attribution.attributors import Bounds, combine, plan

# two edits: alone they earn 0.2 and 0.3, together 0.8 (they help each other)
TABLE = {(): 0.0, (0,): 0.2, (1,): 0.3, (0, 1): 0.8}


def _attribute(method: str, table: dict, edits: int, bounds: Bounds | None = None,
               seed: int = 0) -> list[float]:
    chosen = plan(method, edits, random.Random(seed), bounds or Bounds())
    deltas = [table[tuple(sorted(s))] for s in chosen.subsets]
    return combine(chosen, deltas, table[tuple(range(edits))])


@pytest.mark.parametrize(("method", "expected"), [
    ("add", [0.2 * 0.8 / 0.5, 0.3 * 0.8 / 0.5]),  # scaled to sum to 0.8
    ("sub", [0.5 * 0.8 / 1.1, 0.6 * 0.8 / 1.1]),  # 0.8 - 0.3, 0.8 - 0.2, scaled
    ("shapley", [(0.2 + 0.5) / 2, (0.3 + 0.6) / 2]),  # both orders' marginal gains
    ("shapley-sampling", [(0.2 + 0.5) / 2, (0.3 + 0.6) / 2]),  # 2! orders: all of them
])
def test_hand_computed(method: str, expected: list[float]) -> None:
    assert _attribute(method, TABLE, 2) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(("method", "subsets"), [
    ("add", [(0,), (1,), (2,)]),
    ("sub", [(1, 2), (0, 2), (0, 1)]),
    ("shapley", [(), (0,), (1,), (0, 1), (2,), (0, 2), (1, 2), (0, 1, 2)]),
])
def test_plans(method: str, subsets: list) -> None:
    assert list(plan(method, 3, random.Random(0)).subsets) == subsets


def test_scaling_to_a_zero_sum_gives_zeros() -> None:
    table = {(): 0.0, (0,): 0.5, (1,): -0.5, (0, 1): 0.3}
    assert _attribute("add", table, 2) == [0.0, 0.0]


def test_exact_shapley_past_its_bound_is_sampled() -> None:
    chosen = plan("shapley", 5, random.Random(1), Bounds(samples=10, max_exact=4))
    assert chosen.method == "shapley-sampling" and chosen.orders == 10
    assert len(chosen.subsets) == 50
    assert plan("shapley", 4, random.Random(1), Bounds(10, 4)).method == "shapley"


def test_orders_are_gec_metrics_draws() -> None:
    """Python's `random` after random.seed(s), shuffling one list again and again and
    keeping each new order, is what the attributor's generator draws."""
    random.seed(99)
    current, kept = list(range(5)), []
    while len(kept) < 30:
        random.shuffle(current)
        if tuple(current) not in kept:
            kept.append(tuple(current))
    chosen = plan("shapley-sampling", 5, random.Random(99), Bounds(samples=30))
    assert [s for s in chosen.subsets if len(s) == 5] == kept


@st.composite
def tables(draw) -> tuple[int, dict]:
    edits = draw(st.integers(1, 5))
    values = st.floats(-1, 1, allow_nan=False, allow_infinity=False)
    table = {s: draw(values) for k in range(edits + 1)
             for s in itertools.combinations(range(edits), k)}
    table[()] = 0.0
    return edits, table


@settings(max_examples=60, deadline=None)
@given(tables())
def test_shapley_properties(found: tuple[int, dict]) -> None:
    edits, table = found
    whole = table[tuple(range(edits))]
    exact = _attribute("shapley", table, edits)
    assert sum(exact) == pytest.approx(whole, abs=1e-9)  # efficiency
    every = Bounds(samples=math.factorial(edits))
    assert _attribute("shapley-sampling", table, edits, every) == pytest.approx(exact,
                                                                                 abs=1e-9)
    for method in ("add", "sub"):
        shares = _attribute(method, table, edits)
        assert sum(shares) == pytest.approx(whole if any(shares) else 0.0, abs=1e-6)


@st.composite
def edited(draw) -> tuple[str, list[Edit]]:
    words = st.sampled_from(["a", "the", "cat", "sat", ".", "on", "mat", "dogs"])
    tokens = draw(st.lists(words, min_size=1, max_size=8))
    edits, position = [], 0
    while position <= len(tokens) and draw(st.booleans()):
        start = draw(st.integers(position, len(tokens)))
        end = draw(st.integers(start, min(start + 2, len(tokens))))
        correction = " ".join(draw(st.lists(words, min_size=0 if end > start else 1,
                                            max_size=2)))
        edits.append(Edit(start, end, correction, "X"))
        position = end + 1
    return " ".join(tokens), edits


@settings(max_examples=300, deadline=None)
@given(edited())
def test_applied_as_gecommon(case: tuple[str, list[Edit]]) -> None:
    gecommon = pytest.importorskip("gecommon")
    source, edits = case
    assert applied(source, edits) == gecommon.apply_edits(source, edits)
