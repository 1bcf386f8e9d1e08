"""The core install stays light: no command but `m2lsp web` imports the web stack, and
without the `web` extra `m2lsp web` says how to install it.  (No importorskip: these hold
whether the extra is installed or not.)"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

WEB_STACK = ("starlette", "uvicorn", "argon2", "m2lsp.web.app")

# Each command run in a fresh interpreter; the modules it imported are then listed.
RUN = """
import sys
from m2lsp.cli import main
try:
    main({argv!r})
except SystemExit:  # --help
    pass
print("IMPORTED", *[m for m in {stack!r} if m in sys.modules])
"""


def _run(argv: list[str], prelude: str = "", cwd=None) -> subprocess.CompletedProcess:
    script = prelude + RUN.format(argv=argv, stack=WEB_STACK)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=cwd, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)


@pytest.mark.parametrize("argv", [["check", "gold.m2"], ["--help"], ["rule", "M001"],
                                  ["curate", "gold.m2", "--status"]])
def test_other_commands_never_import_the_web_stack(tmp_path, argv):
    (tmp_path / "gold.m2").write_text("S A b .\nA 0 1|||R:OTHER|||a|||REQUIRED|||-NONE-|||0\n\n")
    done = _run(argv, cwd=tmp_path)
    assert done.stdout.rpartition("IMPORTED")[2].split() == [], done.stderr


def test_importing_m2lsp_never_imports_the_web_stack():
    done = subprocess.run([sys.executable, "-c", "import sys, m2lsp, m2lsp.cli, m2lsp.web; "
                           f"print([m for m in {WEB_STACK!r} if m in sys.modules])"],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.stdout.strip() == "[]", done.stderr


def test_without_the_extra_m2lsp_web_says_how_to_install_it(tmp_path):
    hidden = "import sys\nsys.modules['starlette'] = None\n"
    done = _run(["web", str(tmp_path)], prelude=hidden)
    assert "m2lsp: error: m2lsp web needs starlette: pip install 'm2lsp[web]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_only_the_web_room_imports_the_web_stack_and_only_its_views_starlette():
    from tests.test_import_graph import PACKAGE, imports

    def stack(path):
        return {n for n in imports(path) if n.split(".")[0] in ("starlette", "uvicorn",
                                                                    "argon2")}

    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        found = stack(path)
        if relative == "cli/web.py":
            found -= {"uvicorn"}  # serving, inside the command
        elif relative.startswith("web/"):
            web_side = relative in ("web/app.py", "web/accounts.py") or \
                relative.startswith("web/views/")
            found = set() if web_side else found
        if found:
            wrong.append(f"{relative}: {sorted(found)}")
    assert not wrong
