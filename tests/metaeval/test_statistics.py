"""The statistics of meta-evaluation against SciPy's (run beside): Pearson, Spearman with
ties, and the t distribution behind Williams' test; and the test itself on a worked case."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from m2lsp.metaeval.statistics import (
    agreement,
    pearson,
    ranks,
    spearman,
    student_t_above,
    williams,
)

scipy_stats = pytest.importorskip("scipy.stats")

values = st.lists(st.integers(-5, 5).map(float) | st.floats(-1e3, 1e3), min_size=3,
                  max_size=15)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_pearson_and_spearman_equal_scipy(data) -> None:
    x = data.draw(values)
    y = data.draw(st.lists(st.floats(-1e3, 1e3) | st.integers(-3, 3).map(float),
                           min_size=len(x), max_size=len(x)))
    for ours, theirs in ((pearson, scipy_stats.pearsonr), (spearman, scipy_stats.spearmanr)):
        found = ours(x, y)
        if math.isnan(found):
            continue  # a constant side: scipy warns and gives nan too
        assert found == pytest.approx(float(theirs(x, y)[0]), rel=1e-9, abs=1e-9)


def test_ties_take_their_average_rank() -> None:
    assert ranks([3.0, 1.0, 3.0, 2.0]) == [3.5, 1.0, 3.5, 2.0]


@pytest.mark.parametrize("df", [1, 3, 9, 30])
@pytest.mark.parametrize("t", [-3.2, -0.4, 0.0, 0.7, 2.5, 8.0])
def test_the_t_tail_equals_scipy(t, df) -> None:
    assert student_t_above(t, df) == pytest.approx(float(scipy_stats.t.sf(t, df)), rel=1e-10,
                                                   abs=1e-14)


def test_williams_on_a_worked_case() -> None:
    """r(a, h) = .9, r(b, h) = .8, r(a, b) = .85 over 12 systems: t from Graham & Baldwin's
    formula by hand, its p from the t distribution with 9 degrees of freedom."""
    det = 1 - 0.81 - 0.64 - 0.7225 + 2 * 0.9 * 0.8 * 0.85
    t = 0.1 * math.sqrt(11 * 1.85) / math.sqrt(2 * 11 / 9 * det + (1.7 ** 2) / 4 * 0.15 ** 3)
    found = williams(0.9, 0.8, 0.85, 12)
    assert found.t == pytest.approx(t, rel=1e-12)
    assert found.p == pytest.approx(float(scipy_stats.t.sf(t, 9)), rel=1e-10)


def test_sentence_agreement_counts_ties_as_the_reference_does() -> None:
    """Three systems ranked 1, 2, 2 (the last two tied: not a pair); the metric ties the
    first two, which counts as preferring the second when higher is better (a
    disagreement) and the first when lower is."""
    human = [[-1, -2, -2]]
    metric = [[0.5, 0.5, 0.1]]
    assert agreement(human, metric, higher=True).agree == 1  # (0, 2) agrees
    assert agreement(human, metric, higher=True).disagree == 1  # (0, 1): metric tie
    assert agreement(human, metric, higher=False).agree == 1  # (0, 1): tie -> first
    assert agreement(human, metric, higher=False).disagree == 1  # (0, 2): 0.5 is worse
