"""Rating-based system rankings (Goto et al. 2025, "Rethinking Evaluation Metrics for
Grammatical Error Correction: Why Use a Different Evaluation Process than Human?"): a
metric's sentence scores turned into a win, loss or tie for every pair of systems on every
sentence, and the systems rated from those comparisons as people's judgments are rated --
by TrueSkill or by Expected Wins.  Exactly gec-metrics 0.1.2's `rank_systems(aggregation=
"trueskill" | "expected_wins")`:

- pairs are taken sentence by sentence, each sentence's in `itertools.combinations` order
  of the systems, and rated one after another (so the order of the systems matters to
  TrueSkill, as it does there);
- TrueSkill is the `trueskill` package's with mu 0, sigma 0.5, beta 0.25, tau 0 and a draw
  probability of 0.25, and a system's rating is its final mu;
- Expected Wins is Bojar et al. (2011)'s: the mean over the other systems of
  wins / (wins + losses).

A sentence score of None (a hypothesis an LLM judge was not shown: more than five distinct
hypotheses) makes that system's comparisons on that sentence None: TrueSkill skips them;
Expected Wins counts each as a win for both sides, as gec-metrics does.  Where two systems
never beat each other (only ties), gec-metrics divides zero by zero; here that pair counts
one half -- neither is better."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from m2lsp.errors import UsageError

AGGREGATIONS = ("default", "trueskill", "expected-wins")
Table = list[list[int | None]]  # [system i][system j]: 1 i wins, -1 i loses, 0 a tie
ENVIRONMENT = {"mu": 0.0, "sigma": 0.5, "beta": 0.25, "tau": 0.0, "draw_probability": 0.25}


def aggregation_name(value: str) -> str:
    """The aggregation's name here (`expected_wins`, gec-metrics' spelling, is taken)."""
    name = value.replace("_", "-")
    if name not in AGGREGATIONS:
        raise UsageError(f"aggregation: {', '.join(AGGREGATIONS)}, not {value!r}")
    return name


def pairwise(scores: Sequence[Sequence[float | None]]) -> list[Table]:
    """One table a sentence from `scores[system][sentence]` (higher is better), as
    gec-metrics' `make_pairwise_scores`; None where either side has no score."""
    if not scores:
        return []
    count = len(scores[0])
    if any(len(s) != count for s in scores):
        raise UsageError("pairwise: every system needs a score for every sentence")
    return [_table([s[k] for s in scores]) for k in range(count)]


def _table(values: Sequence[float | None]) -> Table:
    size = len(values)
    table: Table = [[None if values[i] is None or values[j] is None else 0
                     for j in range(size)] for i in range(size)]
    for i, j in itertools.combinations(range(size), 2):
        a, b = values[i], values[j]
        if a is None or b is None:
            continue
        judged = 1 if a > b else -1 if a < b else 0
        table[i][j], table[j][i] = judged, -judged
    return table


def rated(tables: Sequence[Table], aggregation: str) -> list[float]:
    """Each system's rating from the sentence tables."""
    name = aggregation_name(aggregation)
    if name == "trueskill":
        return trueskill(tables)
    if name == "expected-wins":
        return expected_wins(tables)
    raise UsageError("the default aggregation is the metric's own corpus score, not a rating "
                     "of pairwise comparisons")


def trueskill(tables: Sequence[Table]) -> list[float]:
    """Each system's TrueSkill mu after every comparison, rated in turn."""
    from m2lsp.metaeval.trueskill import package
    from m2lsp.metaeval.trueskill_pair import rate_pair

    skill: Any = package()
    env = skill.TrueSkill(**ENVIRONMENT)
    if not tables:
        return []
    players = [env.create_rating() for _ in tables[0]]
    for table in tables:
        for i, j in itertools.combinations(range(len(players)), 2):
            judged = table[i][j]
            if judged is None:
                continue
            ranks = (0, 1) if judged == 1 else (1, 0) if judged == -1 else (0, 0)
            players[i], players[j] = rate_pair(env, skill, players[i], players[j], ranks)
    return [float(p.mu) for p in players]


def expected_wins(tables: Sequence[Table]) -> list[float]:
    """Each system's mean over the others of wins / (wins + losses)."""
    if not tables:
        return []
    size = len(tables[0])
    if size < 2:
        return [0.0] * size
    wins = [[0] * size for _ in range(size)]
    for table in tables:
        for i, j in itertools.product(range(size), range(size)):
            if table[i][j] not in (0, -1):  # a win, or None (gec-metrics counts it a win)
                wins[i][j] += 1
    return [sum(_share(wins[i][j], wins[j][i]) for j in range(size) if j != i) / (size - 1)
            for i in range(size)]


def _share(won: int, lost: int) -> float:
    return won / (won + lost) if won + lost else 0.5


def ratings(scores: Mapping[str, Sequence[float | None]], aggregation: str
            ) -> dict[str, float]:
    """`scores` (system -> sentence scores, higher better, in the systems' order) rated."""
    names = list(scores)
    found = rated(pairwise([scores[n] for n in names]), aggregation)
    return dict(zip(names, found, strict=True))
