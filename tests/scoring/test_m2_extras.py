"""What m2lsp adds to the NUS scorer: per-type and per-sentence tables, bootstrap intervals,
the paired comparison, processes.  None of it changes the default output."""

from __future__ import annotations

from pathlib import Path

import pytest

from m2lsp.cli import main
from m2lsp.parsing.m2 import parse_m2
from m2lsp.parsing.source import SourceText
from m2lsp.scoring.bootstrap import Interval, compare, confidence
from m2lsp.scoring.m2.breakdown import TypeCounts, per_type
from m2lsp.scoring.m2.inputs import read_gold, read_system
from m2lsp.scoring.m2.maxmatch import M2Settings, corpus_score, evaluate, score_texts
from tests.conftest import shared
from tests.scoring.test_m2_tables import README_GOLD, README_SYSTEM


def test_per_type_counts_on_the_readme_example() -> None:
    rows = {r.type: r for r in per_type(score_texts(README_GOLD, README_SYSTEM).sentences)}
    # the false positive `The cat sat -> A cat sat` (0-3) touches the Prep edit at 3-4
    assert rows["Prep"] == TypeCounts("Prep", 1, 1, 0)
    assert rows["ArtOrDet"] == TypeCounts("ArtOrDet", 2, 0, 0)
    assert rows["NN"] == TypeCounts("NN", 0, 0, 1)  # the missed `predators`
    assert rows["SVA"] == TypeCounts("SVA", 1, 0, 0)
    totals = [sum(getattr(r, f) for r in rows.values())
              for f in ("true_positives", "false_positives", "false_negatives")]
    assert totals == [4, 1, 1]


def test_bootstrap_is_seeded_and_brackets_the_score() -> None:
    counts = [(1, 2, 2), (0, 1, 1), (2, 2, 3), (1, 1, 1), (0, 0, 2)] * 20
    settings = M2Settings()

    def stats(sums):
        c, e, g = sums
        s = corpus_score(type("C", (), {"correct": c, "proposed": e, "gold": g})(), settings)
        return s.precision, s.recall, s.f

    first = confidence(counts, stats, samples=300, seed=7)
    assert first == confidence(counts, stats, samples=300, seed=7)
    assert first != confidence(counts, stats, samples=300, seed=8)
    full = stats([sum(c[k] for c in counts) for k in range(3)])
    assert first.intervals[2].low <= full[2] <= first.intervals[2].high
    same = compare(counts, counts, stats, 2, samples=200, seed=1)
    assert same.p_value == 1.0 and same.difference == Interval(0.0, 0.0)
    assert same.p_randomised == 1.0  # nothing to swap: every shuffle is as far apart


def test_paired_tests_tell_a_better_system_from_a_worse_one() -> None:
    better = [(2, 2, 2), (1, 1, 1), (2, 2, 3), (1, 1, 1)] * 30
    worse = [(0, 2, 2), (0, 1, 1), (1, 2, 3), (0, 1, 1)] * 30

    def f(sums):
        c, e, g = sums
        s = corpus_score(type("C", (), {"correct": c, "proposed": e, "gold": g})(),
                         M2Settings())
        return s.precision, s.recall, s.f

    found = compare(better, worse, f, 2, samples=200, seed=3)
    assert found.a > found.b and found.difference.low > 0
    assert found.p_value < 0.01 and found.p_randomised < 0.01
    assert compare(better, better, f, 2, samples=200, seed=3).p_randomised == 1.0


def test_processes_give_the_same_results() -> None:
    gold_source = SourceText(shared("conll2014/gold/official-2014.combined.m2").read_text())
    gold = read_gold(parse_m2(gold_source), gold_source)
    system = read_system(SourceText(shared("conll2014/systems/UFC").read_text()))
    one = evaluate(gold, system)
    two = evaluate(gold, system, jobs=2)
    assert one.sentences == two.sentences and one.score == two.score


def test_score_extras_keep_the_summary_first(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("g.m2").write_text(README_GOLD)
    Path("s.txt").write_text(README_SYSTEM)
    assert main(["score", "s.txt", "g.m2", "--per-type", "--sentence-level",
                 "--bootstrap", "50"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Precision   : 0.8000\nRecall      : 0.8000\nF_0.5       : 0.8000\n")
    assert "ArtOrDet" in out and "95% bootstrap intervals (50 resamples" in out
    assert "|scorer:nus-m2-3.2|refs-hash:" in out.rstrip().splitlines()[-1]
    assert main(["compare", "s.txt", "s.txt", "g.m2", "--samples", "20"]) == 0
    assert "p = 1.0 " in capsys.readouterr().out


def test_very_verbose_lists_the_lattice(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("g.m2").write_text(README_GOLD)
    Path("s.txt").write_text(README_SYSTEM)
    assert main(["score", "--very-verbose", "s.txt", "g.m2"]) == 0
    out = capsys.readouterr().out
    assert "LATTICE       :" in out and "weights=" in out
    assert "LATTICE       : (hypothesis equals source)" in out


@pytest.mark.parametrize("flag", ["--max-unchanged-words", "--beta"])
def test_bad_numbers_are_usage_errors(tmp_path: Path, capsys, monkeypatch, flag) -> None:
    monkeypatch.chdir(tmp_path)
    Path("g.m2").write_text(README_GOLD)
    Path("s.txt").write_text(README_SYSTEM)
    with pytest.raises(SystemExit) as stop:  # refused where the option is declared
        main(["score", "s.txt", "g.m2", flag, "-1"])
    assert stop.value.code == 2 and f"argument {flag}: expected" in capsys.readouterr().err
