"""`check` lists at most so many findings of a rule in a file and counts the rest: a file
of a million findings took 2.1 GB (4.0 GB as JSON), about 2 KB a finding."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest

from m2lsp.cli import main
from m2lsp.linting.files import CheckOptions, check_file

LINES = 2500  # S lines without a blank line between: 2,499 M005 findings


@pytest.fixture
def many(tmp_path: Path) -> Path:
    path = tmp_path / "many.m2"
    path.write_text("S abc\n" * LINES, encoding="utf-8")
    return path


NOTE = "and 2,489 more M005 missing-blank-line (not listed"
CASES = [  # (output format, what stands for the rest)
    ("text", f": {NOTE}"),
    ("github", f"::notice file=%s,line=1,col=1,title=max-findings::{NOTE}"),
    ("json", NOTE),
    ("sarif", NOTE),
]


@pytest.mark.parametrize(("output", "note"), CASES)
def test_findings_beyond_the_cap_are_one_honest_line(many: Path, capsys, output: str,
                                                     note: str) -> None:
    assert main(["check", str(many), "--max-findings-per-rule", "10", "--output-format",
                 output]) == 1  # the exit code counts every finding
    out = capsys.readouterr().out
    assert note.replace("%s", str(many)) in out
    if output == "text":
        assert out.count(": M005 ") == 10
        assert out.endswith("Found 2499 problems in 1 file (2499 fixable with `--fix`).\n")
    if output == "json":
        found = json.loads(out)
        assert [f["code"] for f in found] == ["M005"] * 10 + ["max-findings"]
        assert found[-1]["unlisted"] == {"code": "M005", "count": 2489}
    if output == "sarif":
        run = json.loads(out)["runs"][0]
        assert len(run["results"]) == 10
        notes = run["invocations"][0]["toolExecutionNotifications"]
        assert [n["properties"] for n in notes] == [{"ruleId": "M005", "count": 2489}]


def test_the_default_cap_and_none(many: Path, capsys) -> None:
    assert main(["check", str(many)]) == 1
    out = capsys.readouterr().out
    assert out.count(": M005 ") == 1000 and "and 1,499 more M005" in out
    assert main(["check", str(many), "--max-findings-per-rule", "0"]) == 1
    out = capsys.readouterr().out
    assert out.count(": M005 ") == 2499 and "more M005" not in out


@pytest.mark.parametrize("value", ["-1", "x"])
def test_a_bad_cap_is_a_usage_error(many: Path, capsys, value: str) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["check", str(many), "--max-findings-per-rule", value])
    assert exit_.value.code == 2
    assert "is not a count" in capsys.readouterr().err


def test_memory_held_does_not_grow_with_the_findings(many: Path) -> None:
    """What is kept of a checked file with the cap is a small share of it without: the
    findings beyond the cap are counted and let go as they come."""
    held = []
    for most in (None, 10):
        tracemalloc.start()
        result = check_file(many, CheckOptions(most_per_rule=most))
        held.append(tracemalloc.get_traced_memory()[0])
        tracemalloc.stop()
        del result
    assert held[1] < held[0] / 2, held
