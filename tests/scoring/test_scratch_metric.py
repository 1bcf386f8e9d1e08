"""A metric is its folder and one registry line: registered inside this
test, it shows up in the command line, the configuration, the report and the Python API
with no other edit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import m2lsp
from m2lsp.cli import main
from m2lsp.config import config_from_mapping
from m2lsp.scoring import metric as registry

GOLD = "S The cat sat .\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n\nS A dog .\n"


@pytest.fixture
def scratch(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setitem(registry.REGISTRY, "scratch", "tests.scoring.scratch")
    monkeypatch.chdir(tmp_path)
    Path("gold.m2").write_text(GOLD, encoding="utf-8")
    Path("sys.txt").write_text("The dog sat .\nA dog .\n", encoding="utf-8")
    return tmp_path


def test_the_command_line_takes_it(scratch, capsys) -> None:
    assert main(["score", "--metric", "scratch", "sys.txt", "gold.m2"]) == 0
    assert capsys.readouterr().out.startswith("Same : 0.5000\nSCRATCH|scorer:scratch|")
    assert main(["score", "--metric", "scratch", "--scratch-strip", "--format", "json",
                 "sys.txt", "gold.m2"]) == 0
    assert json.loads(capsys.readouterr().out)["same"] == 0.5


def test_the_configuration_takes_it(scratch) -> None:
    config = config_from_mapping({"metric": "scratch"}, strict=True, metrics=registry.names())
    assert config.score.metric == "scratch"
    Path("pyproject.toml").write_text('[tool.m2lsp]\nmetric = "scratch"\n', encoding="utf-8")
    assert main(["score", "--format", "json", "sys.txt", "gold.m2"]) == 0


def test_the_report_takes_it(scratch, capsys) -> None:
    assert main(["report", "gold.m2", "sys.txt", "--metric", "scratch", "--format",
                 "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["metric"] == "scratch" and data["systems"][0]["scores"] == {"same": 0.5}


def test_the_api_takes_it(scratch) -> None:
    assert "scratch" in [m.name for m in m2lsp.metrics()]
    found = m2lsp.score("sys.txt", gold="gold.m2", metric="scratch", scratch_strip=True)
    assert found.to_dict()["same"] == 0.5 and found.headline == {"same": 0.5}
