"""mypy finds no error in m2lsp/ (the settings are [tool.mypy] in pyproject.toml): run by the
test command, so CI checks the types on every run."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT


def test_mypy_is_clean() -> None:
    pytest.importorskip("mypy", reason="mypy is in the test extras")
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
