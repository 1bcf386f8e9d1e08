"""GOLD and SYSTEM given the wrong way round: every metric with an M2 gold, `compare` and
the `m2scorer` drop-in recognise it by content and say so in one line, with the order of
the command that was run."""

from __future__ import annotations

from pathlib import Path

import pytest

from m2lsp.cli import main
from m2lsp.cli.score import m2scorer_main
from m2lsp.scoring.metric import names

GOLD = ("S The cat sat on mat .\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n\n"
        "S It is fine .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n")
SYSTEM = "The dog sat on the mat .\nIt is fine .\n"
# cged's truth and result files are one format: which is which cannot be told by content
WITH_M2_GOLD = [name for name in names() if name != "cged"]


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    Path("gold.m2").write_text(GOLD, encoding="utf-8")
    Path("sys.txt").write_text(SYSTEM, encoding="utf-8")
    return tmp_path


def _said(command: str) -> str:
    return (f"sys.txt looks like the system output and gold.m2 like the gold: the arguments "
            f"are swapped; the order is `{command}`")


@pytest.mark.parametrize("metric", WITH_M2_GOLD)
def test_score_says_the_order(files, capsys, metric) -> None:
    assert main(["score", "--metric", metric, "gold.m2", "sys.txt"]) == 2
    err = capsys.readouterr().err
    assert err == f"m2lsp: error: {_said(f'm2lsp score --metric {metric} SYSTEM GOLD')}\n"


def test_compare_says_its_own_order(files, capsys) -> None:
    assert main(["compare", "gold.m2", "sys.txt", "sys.txt"]) == 2
    assert _said("m2lsp compare SYSTEM_A SYSTEM_B GOLD") in capsys.readouterr().err


def test_m2scorer_says_its_own_command(files, capsys) -> None:
    assert m2scorer_main(["gold.m2", "sys.txt"]) == 2
    said = _said("m2scorer [OPTIONS] SYSTEM GOLD")
    assert capsys.readouterr().err == f"m2scorer: error: {said}\n"


def test_the_right_order_still_scores(files, capsys) -> None:
    for metric in ("m2", "gleu", "green", "cgec"):
        assert main(["score", "--metric", metric, "sys.txt", "gold.m2"]) == 0, metric
