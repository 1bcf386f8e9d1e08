"""A checkout runs without installing: with only PYTHONPATH pointing at it, the grammars are
found in the top-level `grammar/` folder (they become `m2lsp.grammar` only when installed)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import lark

from tests.conftest import ROOT


def test_a_checkout_runs_with_pythonpath_only(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    shutil.copytree(ROOT / "m2lsp", checkout / "m2lsp")
    shutil.copytree(ROOT / "grammar", checkout / "grammar")
    bad = tmp_path / "bad.m2"
    bad.write_text("S a b\nA x y|||R|||c|||REQUIRED|||-NONE-|||0\n", encoding="utf-8")
    truth = tmp_path / "truth.txt"
    truth.write_text("A2-1, 3, Missing\n", encoding="utf-8")
    libraries = str(Path(lark.__file__).parents[1])  # lark, pygls, lsprotocol
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(checkout), libraries]),
               M2LSP_CACHE_DIR="")
    # -S: no site (so no installed or editable m2lsp); -P is not in Python 3.11
    done = subprocess.run([sys.executable, "-S", "-c",
                           "import sys, m2lsp; from m2lsp.cli import main; "
                           "print(m2lsp.__file__, file=sys.stderr); "
                           f"sys.exit(main(['check', {str(bad)!r}, {str(truth)!r}]))"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.stderr.splitlines()[0] == str(checkout / "m2lsp" / "__init__.py")
    assert done.returncode == 1, done.stderr
    assert "bad.m2:2:3: M004" in done.stdout
    assert "truth.txt:1:1: T001 malformed line at column 10: expected an offset" in done.stdout
