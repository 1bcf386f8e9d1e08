"""Every rule documents itself in ruff's shape, and `m2lsp rule` prints it."""

from __future__ import annotations

import re

import pytest

from m2lsp.cli import main
from m2lsp.rules.base import Scope
from m2lsp.rules.registry import all_rules

SECTIONS = ["## What it does", "## Why is this bad?", "## Example", "## Use instead",
            "## Fix safety"]
RULES = all_rules()


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_rule_shape(rule) -> None:
    assert re.fullmatch(r"[CGIJMNTUX][0-9]{3}", rule.code)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name)
    assert rule.message and rule.summary()
    doc = rule.doc()
    positions = [doc.find(section) for section in SECTIONS]
    assert all(p > 0 for p in positions), f"{rule.code} doc lacks a section: {positions}"
    assert positions == sorted(positions)
    safety = doc.split("## Fix safety", 1)[1]
    if rule.fix_title:
        assert "Safe" in safety or "Unsafe" in safety
    assert isinstance(rule.scope, Scope)


def test_names_and_codes_are_unique() -> None:
    assert len({r.name for r in RULES}) == len(RULES)
    assert len({r.code for r in RULES}) == len(RULES)


def test_rule_command_prints_the_doc(capsys) -> None:
    assert main(["rule", "m304"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# unsorted-edits (M304)")
    assert "## Why is this bad?" in out and "Fix: Sort annotator <annotator>'s edits" in out


def test_rule_all_lists_every_rule(capsys) -> None:
    assert main(["rule", "--all"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out] == [r.code for r in RULES]


def test_unknown_rule_is_a_usage_error(capsys) -> None:
    assert main(["rule", "Z999"]) == 2
    assert "unknown rule" in capsys.readouterr().err


def test_docs_rules_md_is_current() -> None:
    from pathlib import Path

    from m2lsp.cli.rule import rules_markdown
    from tests.conftest import assert_snapshot

    assert_snapshot(Path(__file__).parents[2] / "docs" / "rules.md", rules_markdown())


def test_m402_says_what_the_scorer_does(tmp_path, capsys) -> None:
    """The duplicate rule's doc states the numbers its own example scores (not the 'recall
    too low' it once said)."""
    from m2lsp.rules.registry import rule_by_code

    doc = rule_by_code("M402").doc()
    example = doc.split("## Example", 1)[1].split("```")[1].strip("\n") + "\n\n"
    (tmp_path / "gold.m2").write_text(example, encoding="utf-8")
    (tmp_path / "system.txt").write_text("The dog sat .\n", encoding="utf-8")
    assert main(["score", str(tmp_path / "system.txt"), str(tmp_path / "gold.m2")]) == 0
    out = capsys.readouterr().out
    assert "Precision   : 2.0000\nRecall      : 1.0000\nF_0.5       : 1.6667" in out
    assert "precision 2.0" in doc and "recall 1.0" in doc and "F0.5 1.6667" in doc
    assert "recall is too low" not in doc
