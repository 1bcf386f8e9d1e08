"""The README starts with the two commands, CI runs exactly the second one, and the script
it names installs and runs pytest."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```sh\n(.*?)\n```", text, flags=re.S)[:2]


def test_readme_starts_with_run_and_test_commands() -> None:
    run, test = readme_commands()
    assert "pip install" in run and "m2lsp " in run and "examples/" in run
    assert test == "bash scripts/test"
    script = (ROOT / "scripts" / "test").read_text(encoding="utf-8")
    assert "pip install -q -e '.[test]'" in script and "pytest" in script


def test_ci_runs_the_readme_test_command() -> None:
    _, test = readme_commands()
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert script[-1] == test
