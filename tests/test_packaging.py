"""The wheel ships the grammars and the report's template as package data, the compiled
cores, and the console scripts."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_wheel_contains_grammars_and_packages(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q",
                    "-w", str(tmp_path)], check=True, capture_output=True)
    wheel = next(tmp_path.glob("m2lsp-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for grammar in ("m2.lark", "cged.lark", "cged_truth.lark"):
        assert f"m2lsp/grammar/{grammar}" in names
    assert "m2lsp/rules/m2_edits.py" in names and "m2lsp/scoring/__init__.py" in names
    # every package data file: the report's page template too
    data = {p.relative_to(ROOT).as_posix() for p in (ROOT / "m2lsp").rglob("*.j2")}
    assert data and data <= names, data - names
    # every package of the source tree is in the wheel (the package list is written out)
    packages = {p.relative_to(ROOT).as_posix() for p in (ROOT / "m2lsp").rglob("__init__.py")}
    assert packages <= names, packages - names
    # every C source is listed as an extension and compiled into the wheel (this machine
    # has a compiler; each stays optional where none is)
    sources = {p.relative_to(ROOT).with_suffix("").as_posix()
               for p in (ROOT / "m2lsp").rglob("_*.c")}
    built = {n.split(".", 1)[0] for n in names if n.endswith(".so")}
    assert sources and sources <= built, sources - built
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "m2lsp = m2lsp.cli:entry" in text
