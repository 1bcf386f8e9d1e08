"""The import graph keeps the house rules: the core never imports the language server, and
the adapters (cli/, lsp/) hold no metric logic: they reach the metrics through the registry
(`m2lsp.scoring.metric`), except the drop-in commands, which call their own tool's scorer."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "m2lsp"
# adapters may import these scoring modules
THROUGH_THE_REGISTRY = {"m2lsp.scoring.metric", "m2lsp.scoring.defaults",
                        "m2lsp.scoring.bootstrap", "m2lsp.scoring.review"}
# the drop-ins reproduce one tool's command line, and call that tool's scorer
DROP_INS = {"cli/score.py": "m2lsp.scoring.m2.", "cli/errant_compare.py": "m2lsp.scoring.errant."}


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def modules(folder: str) -> list[Path]:
    return sorted((PACKAGE / folder).rglob("*.py"))


def test_adapters_reach_metrics_only_through_the_registry():
    wrong = []
    for path in modules("cli") + modules("lsp"):
        relative = path.relative_to(PACKAGE).as_posix()
        allowed = DROP_INS.get(relative)
        for name in imports(path):
            if not name.startswith("m2lsp.scoring.") or any(
                    name == m or name.startswith(m + ".") for m in THROUGH_THE_REGISTRY):
                continue
            if not (allowed and name.startswith(allowed)):
                wrong.append(f"{relative}: {name}")
    assert not wrong


def test_the_core_never_imports_the_language_server():
    for folder in ("parsing", "rules", "scoring", "linting", "editor", "output"):
        for path in modules(folder):
            names = imports(path)
            assert not any(n.split(".")[0] in ("pygls", "lsprotocol") or
                           n.startswith("m2lsp.lsp") or n.startswith("m2lsp.cli")
                           for n in names), path


def test_the_server_module_imports_no_feature():
    assert not any(n.startswith("m2lsp.lsp.features")
                   for n in imports(PACKAGE / "lsp" / "server.py"))
