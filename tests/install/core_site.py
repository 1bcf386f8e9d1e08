"""A site folder holding only what `pip install m2lsp` installs (m2lsp and the closure of
its core requirements, none of its extras), built from this environment's distributions by
symbolic links, so that a test can run m2lsp as a core install runs it without a network."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirements(dist: metadata.Distribution) -> list[str]:
    """The names a distribution requires with no extra asked for."""
    from packaging.requirements import Requirement

    names = []
    for line in dist.requires or []:
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
            names.append(requirement.name)
    return names


def core_closure(root: str = "m2lsp") -> list[metadata.Distribution]:
    """m2lsp's distribution and every one its core requirements need, transitively."""
    found: dict[str, metadata.Distribution] = {}
    todo = [root]
    while todo:
        name = _canonical(todo.pop())
        if name in found:
            continue
        dist = metadata.distribution(name)
        found[name] = dist
        todo.extend(_requirements(dist))
    return list(found.values())


def build(folder: Path) -> Path:
    """`folder` filled with links to m2lsp's package (its grammar package inside it, as a
    wheel lays it out, wherever an editable install keeps it) and to the top-level modules
    and packages of the rest of the closure; put it first on `sys.path` of an interpreter
    started without its site-packages (`python -S`)."""
    import importlib

    import m2lsp

    # the module itself, not the attribute: a test that reloads m2lsp leaves the package
    # without it while sys.modules keeps the submodule
    grammar_package = importlib.import_module("m2lsp.grammar")

    folder.mkdir(parents=True, exist_ok=True)
    package = folder / "m2lsp"
    package.mkdir(exist_ok=True)
    own = Path(m2lsp.__file__).parent
    for entry in own.iterdir():
        if entry.name != "__pycache__":
            (package / entry.name).symlink_to(entry)
    grammar = Path(next(iter(grammar_package.__path__)))
    if not (package / "grammar").exists():
        (package / "grammar").symlink_to(grammar)
    for dist in core_closure()[1:]:
        for file in dist.files or []:
            top = file.parts[0]
            if top.endswith((".dist-info", ".data", ".pth")) or top in ("..", "__pycache__"):
                continue
            source = Path(str(dist.locate_file(top)))
            target = folder / top
            if source.exists() and not target.is_symlink():
                target.symlink_to(source)
    return folder
