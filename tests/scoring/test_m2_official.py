"""`m2lsp score` and `m2scorer` print exactly what NUS M2 scorer 3.2 printed on the real
CoNLL-2014 submissions (../shared/data/conll2014/expected)."""

from __future__ import annotations

import json

import pytest

from m2lsp.cli import main
from m2lsp.cli.score import m2scorer_main
from tests.conftest import shared

SYSTEMS = ["AMU", "CAMB", "CUUI", "IITB", "INPUT", "NTHU", "POST", "UFC"]
GOLD = "conll2014/gold/official-2014.combined.m2"


@pytest.mark.parametrize("system", SYSTEMS)
def test_default_output_is_identical(system, capsys) -> None:
    expected = shared(f"conll2014/expected/m2scorer-3.2/{system}.txt").read_text()
    args = [str(shared(f"conll2014/systems/{system}")), str(shared(GOLD))]
    assert main(["score", *args]) == 0
    assert capsys.readouterr().out == expected
    assert m2scorer_main(args) == 0
    assert capsys.readouterr().out == expected


@pytest.mark.parametrize("system", ["CAMB", "UFC"])
def test_verbose_output_is_identical(system, capsys) -> None:
    expected = shared(f"conll2014/expected/m2scorer-3.2-verbose/{system}.txt").read_text()
    args = [str(shared(f"conll2014/systems/{system}")), str(shared(GOLD))]
    assert main(["score", "-v", *args]) == 0
    assert capsys.readouterr().out == expected
    assert m2scorer_main(["-v", *args]) == 0
    assert capsys.readouterr().out == expected


def test_json_output(capsys) -> None:
    args = [str(shared("conll2014/systems/CAMB")), str(shared(GOLD))]
    assert main(["score", "--format", "json", *args]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["signature"].startswith("M2|beta:0.5|max-unchanged:2|")
    assert round(data["precision"], 4) == 0.3971 and data["counts"]["correct"] == 772
    assert len(data["sentences"]) == 1312
    fourth = data["sentences"][3]
    assert fourth["true_positives"] == [{"start": 3, "end": 4, "original": "disease",
                                         "correction": "diseases"}]
    assert sum(s["counts"]["correct"] for s in data["sentences"]) == 772
