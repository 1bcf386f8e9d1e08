"""NUS M2 scorer release 3.2, run beside m2lsp on Python 2.7 where both are on the machine.

3.2 is Python 2: the tests look for a Python 2.7 (`M2LSP_PYTHON2`, `python2.7` on PATH, or a
pyenv 2.7) and for the release's `scripts/m2scorer.py` (`M2LSP_M2SCORER`: a checkout of
nusnlp/m2scorer at tag version3.2, or `nusnlp+m2scorer` in ../shared/refs), and skip, naming
what is missing, where either is not there."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import SHARED_REFS


@functools.cache
def _python2() -> str | None:
    for candidate in (os.environ.get("M2LSP_PYTHON2"), shutil.which("python2.7"),
                      *sorted(Path.home().glob(".pyenv/versions/2.7*/bin/python2.7"))):
        if candidate and subprocess.run([str(candidate), "-c", "import sys; assert "
                                         "sys.version_info[:2] == (2, 7)"],
                                        capture_output=True).returncode == 0:
            return str(candidate)
    return None


def _scorer() -> Path | None:
    for folder in (os.environ.get("M2LSP_M2SCORER"), SHARED_REFS / "nusnlp+m2scorer"):
        if folder and (Path(folder) / "scripts" / "m2scorer.py").is_file():
            return Path(folder) / "scripts" / "m2scorer.py"
    return None


def run_nus32(*argv: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """`m2scorer.py ARGV` of release 3.2 under Python 2.7 (bytes out); skips where either is
    missing."""
    python, scorer = _python2(), _scorer()
    if python is None:
        pytest.skip("no Python 2.7 to run NUS M2 scorer 3.2 with (set M2LSP_PYTHON2)")
    if scorer is None:
        pytest.skip("no NUS M2 scorer 3.2 (set M2LSP_M2SCORER to a checkout of "
                    "nusnlp/m2scorer at version3.2, or put it in ../shared/refs)")
    return subprocess.run([python, str(scorer), *map(str, argv)], capture_output=True,
                          cwd=cwd, timeout=600)
