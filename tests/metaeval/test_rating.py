"""Rating-based system rankings (`meta-eval --aggregation`, `m2lsp.rank_systems`):

- the pairwise tables, TrueSkill and Expected Wins as tables of cases, TrueSkill against
  the `trueskill` package rating the same pairs in turn;
- on SEEDA, gec-metrics 0.1.2's own `rank_systems` and `corr_system` (run beside) for
  GREEN, GLEU and ERRANT with every aggregation: their sentence scores, given to
  `m2lsp meta-eval --sentence-scores --aggregation`, give the same system scores and the
  same correlations.  gec-metrics needs SEEDA's REF0/REF1 (made from the CoNLL-2014 gold by
  its download script); the copy here takes SEEDA's REF-M and REF-F outputs as those two
  references -- what is compared is the rating, not the references.
"""

from __future__ import annotations

import importlib.util
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import m2lsp
from m2lsp.cli import main
from m2lsp.errors import UsageError
from m2lsp.metaeval.rating import expected_wins, pairwise, ratings, trueskill
from tests.conftest import seeda_copy, shared

HUMAN = {"ew_edit": "EW_edit", "ew_sent": "EW_sent", "ts_edit": "TS_edit",
         "ts_sent": "TS_sent"}


@pytest.mark.parametrize(("scores", "tables"), [
    ([[1.0], [2.0]], [[[0, -1], [1, 0]]]),
    ([[0.5], [0.5]], [[[0, 0], [0, 0]]]),
    ([[1.0], [None]], [[[0, None], [None, None]]]),
    ([[3.0, 1.0], [2.0, 1.0], [1.0, 2.0]],
     [[[0, 1, 1], [-1, 0, 1], [-1, -1, 0]], [[0, 0, -1], [0, 0, -1], [1, 1, 0]]]),
])
def test_pairwise_tables(scores, tables) -> None:
    assert pairwise(scores) == tables


@pytest.mark.parametrize(("tables", "expected"), [
    # A beats B twice, loses once: 2/3 and 1/3
    ([[[0, 1], [-1, 0]], [[0, 1], [-1, 0]], [[0, -1], [1, 0]]], [2 / 3, 1 / 3]),
    # only ties: neither is better (gec-metrics divides zero by zero)
    ([[[0, 0], [0, 0]]], [0.5, 0.5]),
    # a None counts as a win for both sides, as gec-metrics counts it
    ([[[None, None], [None, None]], [[0, 1], [-1, 0]]], [2 / 3, 1 / 3]),
])
def test_expected_wins(tables, expected) -> None:
    assert expected_wins(tables) == pytest.approx(expected)


def test_trueskill_is_the_package_rating_each_pair_in_turn() -> None:
    skill = pytest.importorskip("trueskill", reason="trueskill (m2lsp[meta-eval])")
    rng = random.Random(7)
    scores = [[rng.choice([0.1, 0.2, 0.3, None]) for _ in range(40)] for _ in range(6)]
    tables = pairwise(scores)
    env = skill.TrueSkill(mu=0.0, sigma=0.5, beta=0.25, tau=0.0, draw_probability=0.25)
    players = [env.create_rating() for _ in scores]
    for table in tables:
        for i in range(6):
            for j in range(i + 1, 6):
                if table[i][j] is None:
                    continue
                ranks = {1: (0, 1), -1: (1, 0), 0: (0, 0)}[table[i][j]]
                (players[i],), (players[j],) = env.rate([(players[i],), (players[j],)],
                                                        ranks=ranks)
    assert trueskill(tables) == [p.mu for p in players]


def test_ratings_name_the_systems_and_refuse_a_default() -> None:
    found = ratings({"a": [1.0, 2.0], "b": [0.0, 3.0]}, "expected_wins")
    assert found == {"a": 0.5, "b": 0.5}
    with pytest.raises(UsageError, match="default aggregation"):
        ratings({"a": [1.0]}, "default")
    with pytest.raises(UsageError, match="not 'elo'"):
        ratings({"a": [1.0]}, "elo")


def test_rank_systems_from_python(tmp_path) -> None:
    gold = tmp_path / "gold.m2"
    gold.write_text("S a b c\nA 0 1|||R|||x|||REQUIRED|||-NONE-|||0\n\n"
                    "S d e\nA 1 2|||R|||y|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    systems = {"good": ["x b c", "d y"], "half": ["x b c", "d e"], "none": ["a b c", "d e"]}
    default = m2lsp.rank_systems(systems, gold, metric="m2")
    assert list(default) == ["good", "half", "none"]
    assert default["good"] == 1.0 and default["none"] == 0.0
    wins = m2lsp.rank_systems(systems, gold, metric="m2", aggregation="expected-wins")
    assert wins["good"] > wins["half"] > wins["none"]
    with pytest.raises(UsageError, match="aggregation"):
        m2lsp.rank_systems(systems, gold, aggregation="mean")


def test_an_aggregation_needs_sentence_scores(tmp_path, capsys) -> None:
    data = shared("meta-eval/seeda").parent
    scores = tmp_path / "s.tsv"
    scores.write_text("".join(f"{s}\t1\n" for s in m2lsp_systems()), encoding="utf-8")
    assert main(["meta-eval", "--data", str(data), "--scores", f"x={scores}",
                 "--aggregation", "trueskill"]) == 2
    assert "x has no sentence scores" in capsys.readouterr().err


def m2lsp_systems() -> list[str]:
    from m2lsp.metaeval.datasets import SEEDA_SYSTEMS

    return list(SEEDA_SYSTEMS)


# --- gec-metrics 0.1.2 beside -----------------------------------------------------------


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict:
    for name in ("gec_metrics", "errant", "trueskill", "scipy"):
        if importlib.util.find_spec(name) is None:
            pytest.skip(f"{name} is not installed (scripts/test installs it)")
    root = seeda_copy(tmp_path_factory.mktemp("gec-metrics"))
    subset = root / "SEEDA" / "outputs" / "subset"
    shutil.copy(subset / "REF-M.txt", subset / "REF0.txt")
    shutil.copy(subset / "REF-F.txt", subset / "REF1.txt")
    ran = subprocess.run([sys.executable, str(Path(__file__).with_name("rank_reference.py"))],
                         cwd=root, capture_output=True, text=True, timeout=900)
    assert ran.returncode == 0, ran.stderr[-3000:]
    return json.loads(ran.stdout)


@pytest.mark.slow
@pytest.mark.parametrize("metric", ["green", "gleu"])
@pytest.mark.parametrize("aggregation", ["trueskill", "expected_wins"])
def test_seeda_rankings_are_gec_metrics_own(reference, metric, aggregation, tmp_path,
                                            capsys) -> None:
    data = shared("meta-eval/seeda").parent
    found = reference["metrics"][metric]
    folder = tmp_path / metric
    folder.mkdir()
    for system, values in zip(reference["models"], found["sentences"], strict=True):
        (folder / f"{system}.txt").write_text("".join(f"{v!r}\n" for v in values))
    assert main(["meta-eval", "--data", str(data), "--sentence-scores", f"{metric}={folder}",
                 "--format", "json", "--aggregation", aggregation.replace("_", "-")]) == 0
    ours = json.loads(capsys.readouterr().out)["metrics"][0]
    theirs = found[aggregation]
    scores = [ours["scores"][s] for s in reference["models"]]
    assert ours["signature"].endswith(f"|aggregation:{aggregation.replace('_', '-')}")
    assert scores == theirs["scores"]
    for key, (pearson, spearman) in theirs["corr"].items():
        level = ours["system_level"][HUMAN[key]]
        assert level["pearson"] == pytest.approx(pearson, rel=1e-12)
        assert level["spearman"] == pytest.approx(spearman, rel=1e-12)
