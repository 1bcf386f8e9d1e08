"""--sentence-average (SentM2, SentERRANT): the mean over sentences of each sentence's F-beta
against its own best annotator; hand-worked tables, and the uncorrected input scoring the
share of sentences some annotator leaves as they are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from m2lsp.cli import main
from m2lsp.scoring.sentence_average import averaged, f_beta
from tests.conftest import shared

GOLD = ("S A B C\nA 0 1|||R:NOUN|||X|||REQUIRED|||-NONE-|||0\n"
        "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\n"
        "S D E\nA 1 2|||R:NOUN|||F|||REQUIRED|||-NONE-|||0\n\n"
        "S G H\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n")
# sentence 1: right for annotator 0 (F 1), wrong for 1 (F 0): best 1
# sentence 2: the edit missed: F 0; sentence 3: nothing to do, nothing done: F 1
SYSTEM = "X B C\nD E\nG H\n"
HYPOTHESIS = ("S A B C\nA 0 1|||R:NOUN|||X|||REQUIRED|||-NONE-|||0\n\n"
              "S D E\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
              "S G H\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n")


@pytest.mark.parametrize(("counts", "f"), [
    ((0, 0, 0), 1.0), ((1, 0, 0), 1.0), ((0, 1, 0), 0.0), ((0, 0, 1), 0.0),
    ((1, 1, 1), 0.5), ((1, 0, 1), 1.25 * 1.0 * 0.5 / (0.25 * 1.0 + 0.5)),  # P 1, R 0.5
])
def test_a_sentences_f(counts: tuple[int, int, int], f: float) -> None:
    assert f_beta(*counts, beta=0.5) == pytest.approx(f)


def test_each_sentence_takes_its_best_annotator() -> None:
    found = averaged([[(1, 0, 0), (0, 1, 0)], [(0, 0, 1)], [(0, 0, 0)]], 0.5)
    assert (found.f, found.sentences) == (pytest.approx(2 / 3), 3)


@pytest.mark.parametrize(("metric", "system", "name"), [("m2", SYSTEM, "SentM2"),
                                                        ("errant", HYPOTHESIS, "SentERRANT")])
def test_hand_worked(tmp_path: Path, capsys, metric: str, system: str, name: str) -> None:
    (tmp_path / "gold.m2").write_text(GOLD, encoding="utf-8")
    (tmp_path / "system").write_text(system, encoding="utf-8")
    argv = ["score", "--metric", metric, str(tmp_path / "system"), str(tmp_path / "gold.m2"),
            "--sentence-average"]
    assert main([*argv, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)["sentence_average"]
    assert data == {"f": pytest.approx(2 / 3), "sentences": 3, "beta": 0.5}
    assert main(argv) == 0
    assert f"Sentence-averaged F_0.5 ({name}): 0.6667 over 3 sentences" in (
        capsys.readouterr().out)


def test_the_input_scores_the_share_left_unchanged(capsys) -> None:
    """CoNLL-2014's uncorrected input: 411 of 1,312 sentences have an annotator who wrote a
    noop (counted from the gold by hand in the test below)."""
    gold = shared("conll2014/gold/official-2014.combined.m2")
    unchanged = 0
    blocks = gold.read_text(encoding="utf-8").strip().split("\n\n")
    for block in blocks:
        kinds: dict[str, list[str]] = {}
        for line in block.split("\n")[1:]:
            fields = line.split("|||")
            kinds.setdefault(fields[-1], []).append(fields[1])
        unchanged += not kinds or any(all(k == "noop" for k in v) for v in kinds.values())
    assert main(["score", "--format", "json", "--sentence-average",
                 str(shared("conll2014/systems/INPUT")), str(gold)]) == 0
    found = json.loads(capsys.readouterr().out)["sentence_average"]
    assert (unchanged, len(blocks)) == (411, 1312)
    assert found["f"] == pytest.approx(unchanged / len(blocks))


def test_other_metrics_refuse_it(tmp_path: Path, capsys) -> None:
    (tmp_path / "t.txt").write_text("a, correct\n", encoding="utf-8")
    assert main(["score", "--metric", "cged", str(tmp_path / "t.txt"), str(tmp_path / "t.txt"),
                 "--sentence-average"]) == 2
    assert "--sentence-average" in capsys.readouterr().err
