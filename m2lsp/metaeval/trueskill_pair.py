"""The `trueskill` package's `rate` for two players, one against the other, written out:
the same messages of its factor graph (prior, likelihood, team sums, the difference and its
truncation, iterated until a change <= 0.0001, at most 10 times), each a (pi, tau) pair
computed with the package's operations in its order, so the new ratings are its own to the
last bit (tests compare them with the package's on random ratings) -- in a tenth of the
time: TS.py rates 15,000 to 110,000 pairs a run."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

INF = float("inf")
DELTA = 0.0001
G = tuple[float, float]  # (pi, tau)
ZERO: G = (0, 0)


def _mu(g: G) -> float:
    return g[0] and g[1] / g[0]


def _div(a: G, b: G) -> G:
    return a[0] - b[0], a[1] - b[1]


def _mul(a: G, b: G) -> G:
    return a[0] + b[0], a[1] + b[1]


class _Var:
    """A variable of the graph: its value and its message from each factor."""

    __slots__ = ("messages", "value")

    def __init__(self) -> None:
        self.value: G = ZERO
        self.messages: dict[str, G] = {}

    def set(self, new: G) -> float:
        pi_delta = abs(self.value[0] - new[0])
        delta = 0. if pi_delta == INF else max(abs(self.value[1] - new[1]),
                                               math.sqrt(pi_delta))
        self.value = new
        return delta

    def update_message(self, factor: str, message: G) -> float:
        old, self.messages[factor] = self.messages[factor], message
        return self.set(_mul(_div(self.value, old), message))

    def update_value(self, factor: str, value: G) -> float:
        old = self.messages[factor]
        self.messages[factor] = _div(_mul(value, old), self.value)
        return self.set(value)


def _sum(target: _Var, factor: str, terms: Sequence[tuple[_Var, float]]) -> float:
    """SumFactor.update: the message to `target` from the other variables of `factor`."""
    pi_inv: float = 0
    mu: float = 0
    for var, coeff in terms:
        div = _div(var.value, var.messages[factor])
        mu += coeff * _mu(div)
        if pi_inv == INF:
            continue
        try:
            pi_inv += coeff ** 2 / float(div[0])
        except ZeroDivisionError:
            pi_inv = INF
    pi = 1. / pi_inv
    return target.update_message(factor, (pi, pi * mu))


def rate_pair(env: Any, skill: Any, first: Any, second: Any, ranks: Sequence[Any]
              ) -> tuple[Any, Any]:
    """`env.rate([[first], [second]], ranks=ranks)`'s two new ratings."""
    order = [0, 1] if not ranks[1] < ranks[0] else [1, 0]  # sorted() by rank, stable
    players = [(first, second)[k] for k in order]
    tie = ranks[order[0]] == ranks[order[1]]
    new = _graph(env, players, tie, skill.calc_draw_margin(env.draw_probability, 2, env))
    result = [None, None]
    for k, rating in zip(order, new, strict=True):
        result[k] = skill.Rating(rating[0], rating[1])
    return result[0], result[1]


def _graph(env: Any, players: Sequence[Any], tie: bool, margin: float
           ) -> list[tuple[float, float]]:
    skill_vars = [_Var(), _Var()]
    perf_vars = [_Var(), _Var()]
    team_vars = [_Var(), _Var()]
    diff = _Var()
    for k in range(2):
        skill_vars[k].messages.update({f"prior{k}": ZERO, f"like{k}": ZERO})
        perf_vars[k].messages.update({f"like{k}": ZERO, f"team{k}": ZERO})
        team_vars[k].messages.update({f"team{k}": ZERO})
    variance = env.beta ** 2
    for k, rating in enumerate(players):  # the prior factors, down
        sigma = math.sqrt(rating.sigma ** 2 + env.tau ** 2)
        pi = sigma ** -2
        skill_vars[k].update_value(f"prior{k}", (pi, pi * rating.mu))
    for k in range(2):  # the likelihood factors, down
        msg = _div(skill_vars[k].value, skill_vars[k].messages[f"like{k}"])
        a = 1. / (1. + variance * msg[0])
        perf_vars[k].update_message(f"like{k}", (a * msg[0], a * msg[1]))
    for k in range(2):  # the team sums, down
        _sum(team_vars[k], f"team{k}", [(perf_vars[k], 1)])
    for var in (team_vars[0], team_vars[1]):
        var.messages["diff"] = ZERO
    diff.messages.update({"diff": ZERO, "trunc": ZERO})
    v_func, w_func = (env.v_draw, env.w_draw) if tie else (env.v_win, env.w_win)
    for _ in range(10):
        _sum(diff, "diff", [(team_vars[0], +1), (team_vars[1], -1)])
        if _truncate(diff, v_func, w_func, margin) <= DELTA:
            break
    _sum(team_vars[0], "diff", [(diff, 1.0), (team_vars[1], 1.0)])
    _sum(team_vars[1], "diff", [(team_vars[0], 1.0), (diff, -1.0)])
    for k in range(2):  # the team sums, up
        _sum(perf_vars[k], f"team{k}", [(team_vars[k], 1.0)])
    out = []
    for k in range(2):  # the likelihood factors, up
        msg = _div(perf_vars[k].value, perf_vars[k].messages[f"like{k}"])
        a = 1. / (1. + variance * msg[0])
        skill_vars[k].update_message(f"like{k}", (a * msg[0], a * msg[1]))
        value = skill_vars[k].value
        out.append((float(_mu(value)), float(math.sqrt(1 / value[0]) if value[0] else INF)))
    return out


def _truncate(var: _Var, v_func: Any, w_func: Any, margin: float) -> float:
    div = _div(var.value, var.messages["trunc"])
    sqrt_pi = math.sqrt(div[0])
    v = v_func(div[1] / sqrt_pi, margin * sqrt_pi)
    w = w_func(div[1] / sqrt_pi, margin * sqrt_pi)
    denom = (1. - w)
    return var.update_value("trunc", (div[0] / denom, (div[1] + sqrt_pi * v) / denom))
