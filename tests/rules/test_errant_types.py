"""M412 (an edit's type against ERRANT's classification of its span and correction): off
by default, on by its code in `--select` or the editor's `select` setting; without ERRANT
it says so once and checks nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from m2lsp.cli import main
from m2lsp.config import LintSettings
from m2lsp.errors import UsageError
from m2lsp.rules.registry import rule_by_code
from tests.annotation.conftest import spacy_model

FILE = ("S Yes need to go .\nA 1 1|||M:PUNCT|||, we|||REQUIRED|||-NONE-|||0\n\n"
        "S He go to school .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n")


@pytest.fixture
def m2(tmp_path: Path) -> Path:
    path = tmp_path / "gold.m2"
    path.write_text(FILE, encoding="utf-8")
    return path


@pytest.mark.parametrize(("select", "runs"), [
    (("ALL",), False), (("M",), False), (("M4",), True), (("ALL", "M412"), True),
])
def test_m412_is_off_unless_selected(select, runs):
    rule = rule_by_code("M412")
    assert rule is not None
    assert rule.opt_in and LintSettings(select=select).selects("M412", rule.opt_in) is runs


def test_the_editor_setting_selects_it():
    from m2lsp.config import config_from_mapping

    config = config_from_mapping({"select": ["ALL", "M412"]})  # as the server reads it
    assert config.lint.selects("M412", True)


@pytest.mark.slow
def test_m412_flags_a_type_errant_would_not_give(m2: Path, capsys):
    spacy_model()
    assert main(["check", str(m2)]) == 0
    assert "M412" not in capsys.readouterr().out
    assert main(["check", str(m2), "--select", "ALL,M412"]) == 1
    out = capsys.readouterr().out
    assert "M412 ERRANT types this edit M:OTHER, not M:PUNCT" in out
    assert out.count("M412") == 1  # R:VERB:SVA for go -> goes is ERRANT's own


def test_without_errant_it_says_so_once_and_checks_nothing(m2: Path, tmp_path: Path,
                                                           monkeypatch, caplog):
    import m2lsp.annotation.classify as classify
    import m2lsp.rules.m2_authoring as rules

    def missing(model):
        raise UsageError("ERRANT is not installed (pip install 'm2lsp[errant]')")

    monkeypatch.setattr(classify, "_annotator", missing)
    monkeypatch.setattr(rules, "_SAID", set())
    other = tmp_path / "other.m2"
    other.write_text(FILE, encoding="utf-8")
    assert main(["check", str(m2), str(other), "--select", "M412"]) == 0
    said = [r.getMessage() for r in caplog.records if "M412" in r.getMessage()]
    assert said == ["m2lsp: M412 is not checked: ERRANT is not installed (pip install "
                    "'m2lsp[errant]')"]
