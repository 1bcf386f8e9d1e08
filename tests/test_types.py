"""mypy finds no error in m2lsp/ (the settings are [tool.mypy] in pyproject.toml): run by the
test command, so CI checks the types on every run."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT


@pytest.mark.slow
def test_mypy_is_clean() -> None:
    pytest.importorskip("mypy", reason="mypy is in the test extras")
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_function_is_typed_and_missing_imports_are_named() -> None:
    """`disallow_untyped_defs` for m2lsp/, and `ignore_missing_imports` only per module."""
    import tomllib

    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    mypy = settings["mypy"]
    assert mypy["disallow_untyped_defs"] is True
    assert "ignore_missing_imports" not in mypy
    assert all(o["module"] for o in mypy["overrides"] if o.get("ignore_missing_imports"))
