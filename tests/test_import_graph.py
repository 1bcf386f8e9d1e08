"""The import graph keeps the house rules: the core never imports the language server, and
the adapters (cli/, lsp/) hold no metric logic: they reach the metrics through the registry
(`m2lsp.scoring.metric`), except the drop-in commands, which call their own tool's scorer."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "m2lsp"
# adapters may import these scoring modules
THROUGH_THE_REGISTRY = {"m2lsp.scoring.metric", "m2lsp.scoring.bootstrap",
                        "m2lsp.scoring.review"}
# the drop-ins reproduce one tool's command line, and call that tool's scorer
DROP_INS = {"cli/score.py": "m2lsp.scoring.m2.", "cli/errant_compare.py": "m2lsp.scoring.errant."}


def _runtime_nodes(tree: ast.AST):
    """Every node but those under `if TYPE_CHECKING:` (imports for the type checker only,
    which make no import at run time)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            yield from (n for child in node.orelse for n in [child, *_runtime_nodes(child)])
            continue
        yield node
        yield from _runtime_nodes(node)


def imports(path: Path) -> set[str]:
    found = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
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
    for folder in ("parsing", "formats", "rules", "scoring", "linting", "editor", "output",
                   "annotation"):
        for path in modules(folder):
            names = imports(path)
            assert not any(n.split(".")[0] in ("pygls", "lsprotocol") or
                           n.startswith("m2lsp.lsp") or n.startswith("m2lsp.cli")
                           for n in names), path


def test_the_server_module_imports_no_feature():
    assert not any(n.startswith("m2lsp.lsp.features")
                   for n in imports(PACKAGE / "lsp" / "server.py"))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def edges() -> dict[str, set[str]]:
    """Module -> the m2lsp modules it imports (type-only imports too: every import
    statement, wherever it stands), a package's submodules named through it."""
    def resolve(name: str) -> str | None:
        while name and name not in MODULES:
            name = name.rpartition(".")[0]
        return name or None

    graph = {}
    for name, path in MODULES.items():
        graph[name] = {found for imported in imports(path)
                       if (found := resolve(imported)) is not None and found != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle_between_any_two_modules():
    assert cycles(edges()) == []


def test_the_cycle_finder_finds_one():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


# (importer prefix, imported prefix): directions the house forbids
FORBIDDEN = [
    ("m2lsp.config", "m2lsp.scoring"),  # settings sit at the bottom
    ("m2lsp.defaults", "m2lsp."),
    ("m2lsp.scoring", "m2lsp.editor"),  # editor code sits at the edges
    ("m2lsp.scoring", "m2lsp.linting"),
    ("m2lsp.rules", "m2lsp.scoring"),  # the linter does not depend on the scorers
    ("m2lsp.linting", "m2lsp.scoring"),
    ("m2lsp.parsing", "m2lsp.scoring"),
    ("m2lsp.formats", "m2lsp.scoring"),  # formats are read, written and converted beneath
    ("m2lsp.formats", "m2lsp.linting"),  # the linter and the scorers that read them
    ("m2lsp.annotation", "m2lsp.scoring"),  # annotation is beneath the metrics that use it
    ("m2lsp.annotation", "m2lsp.editor"),
    ("m2lsp.annotation", "m2lsp.linting"),
]


def test_no_import_goes_the_wrong_way():
    wrong = [f"{name} -> {other}" for name, others in edges().items() for other in others
             for low, high in FORBIDDEN if name.startswith(low) and other.startswith(high)]
    assert wrong == []


def test_agreement_reaches_metrics_only_through_the_registry():
    """`m2lsp agree` scores annotators with any metric that declares `agrees`."""
    names = imports(PACKAGE / "agreement.py")
    assert not [n for n in names if n.startswith("m2lsp.scoring.")
                and not any(n == m or n.startswith(m + ".") for m in THROUGH_THE_REGISTRY)]


def test_no_room_imports_the_package_face() -> None:
    """The package face (`m2lsp/__init__.py`: the API's promise) stands above every room:
    rooms import their neighbours (`m2lsp.defaults`, `m2lsp.version`), never `from m2lsp
    import ...`, which runs back up the house."""
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "__init__.py":
            continue
        for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "m2lsp" and node.level == 0:
                wrong.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert wrong == []
