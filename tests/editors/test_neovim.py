"""Neovim (headless) as a second real client: it opens the bundled example and receives the
diagnostics `m2lsp check` reports, and a hover."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from m2lsp.cli import main as m2lsp_main
from tests.conftest import ROOT

NVIM = shutil.which("nvim")
# Set M2LSP_REQUIRE_EDITORS=1 where Neovim is guaranteed: a missing editor then fails.
REQUIRED = os.environ.get("M2LSP_REQUIRE_EDITORS") == "1"


def expected(path: Path, capsys: pytest.CaptureFixture[str]) -> list[tuple]:
    capsys.readouterr()
    m2lsp_main(["check", "--output-format", "json", "--exit-zero", "-q", str(path)])
    return sorted((d["code"], d["location"]["row"] - 1, d["location"]["column"] - 1,
                   d["end_location"]["column"] - 1, d["message"])
                  for d in json.loads(capsys.readouterr().out))


def test_neovim_receives_the_diagnostics_and_a_hover(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]):
    if NVIM is None:
        if REQUIRED:
            pytest.fail("nvim is not installed but M2LSP_REQUIRE_EDITORS=1")
        pytest.skip("nvim is not installed (Debian: apt-get install neovim)")
    example = tmp_path / "annotated.m2"
    shutil.copy(ROOT / "examples" / "annotated.m2", example)
    out = tmp_path / "nvim.json"
    env = dict(os.environ, M2LSP_NVIM_OUT=str(out),
               M2LSP_NVIM_CMD=json.dumps([sys.executable, "-m", "m2lsp", "serve"]),
               XDG_STATE_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path))
    subprocess.run([NVIM, "--headless", "--clean", str(example),
                    "-c", f"luafile {Path(__file__).with_name('neovim.lua')}"],
                   cwd=tmp_path, env=env, timeout=120, check=True,
                   stdin=subprocess.DEVNULL, capture_output=True)
    result = json.loads(out.read_text("utf-8"))
    assert result["arrived"] is True
    got = sorted((d["code"], d["line"], d["col"], d["end_col"], d["message"])
                 for d in result["diagnostics"])
    assert got == expected(example, capsys)
    assert {d["code"] for d in result["diagnostics"]} == {"M102", "M402", "M405"}
    assert "sits" in result["hover"] and "R:VERB:SVA" in result["hover"]
