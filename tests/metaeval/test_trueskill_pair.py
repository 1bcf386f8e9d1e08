"""The two-player TrueSkill update written out (metaeval.trueskill_pair) against the
`trueskill` package's own `rate`, to the last bit, for random ratings, every outcome and
the betas TS.py uses (sigma * steps / 40)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

skill = pytest.importorskip("trueskill")

from m2lsp.metaeval.trueskill_pair import rate_pair  # noqa: E402

MU = st.floats(-3, 3, allow_nan=False)
SIGMA = st.floats(0.005, 0.6, allow_nan=False)
RANKS = st.sampled_from([("1", "2"), ("2", "1"), ("1", "1"), ("3", "2"), ("2", "4")])
BETA = st.sampled_from([0.5 * 15001 / 40, 0.5 * 109099 / 40, 0.5 * 41 / 40, 0.25])


@settings(max_examples=1500, deadline=None)
@given(MU, SIGMA, MU, SIGMA, RANKS, BETA)
def test_the_same_bits_as_the_package(mu_a, sigma_a, mu_b, sigma_b, ranks, beta) -> None:
    env = skill.TrueSkill(mu=0.0, sigma=0.5, beta=beta, tau=0.0, draw_probability=0.25)
    a, b = skill.Rating(mu_a, sigma_a), skill.Rating(mu_b, sigma_b)
    (x,), (y,) = env.rate([[a], [b]], ranks=ranks)
    p, q = rate_pair(env, skill, a, b, ranks)
    assert (p.mu, p.sigma, q.mu, q.sigma) == (x.mu, x.sigma, y.mu, y.sigma)
