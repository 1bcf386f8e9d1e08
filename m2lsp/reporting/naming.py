"""What a report calls systems given as files, the same for `m2lsp report` and
`m2lsp.report()`: the file name without its extension (`CAMB.txt`: CAMB); where two are
the same, the file names; where those are too, the shortest end of each path that no other
path ends in (`a/CAMB`, `b/CAMB`); the whole path last.  Names are never equal, so no
system replaces another."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path


def system_names(paths: Sequence[str | Path]) -> list[str]:
    """Each path's name in a report (see the module docstring)."""
    parts = [Path(os.path.abspath(p)).parts[1:] for p in paths]  # without the root
    for stem in (True, False):
        names = [_suffix(p, 1, stem) for p in parts]
        if len(set(names)) == len(names):
            return names
    for stem in (True, False):
        found = [_shortest(k, parts, stem) for k in range(len(parts))]
        if all(n is not None for n in found):
            return [str(n) for n in found]
    return _numbered([str(p) for p in paths])


def _stem(name: str) -> str:
    """The file name without an extension: a last suffix of letters and digits with a
    letter in it (`.txt`, `.m2`, `.out`), not a version or a number (`run.1`)."""
    path = Path(name)
    suffix = path.suffix[1:]
    if suffix.isalnum() and not suffix.isdigit() and path.stem and len(suffix) <= 5:
        return path.stem
    return path.name


def _suffix(parts: tuple[str, ...], count: int, stem: bool) -> str:
    last = _stem(parts[-1]) if stem else parts[-1]
    return "/".join([*parts[-count:-1], last]) if count > 1 else last


def _shortest(index: int, every: Sequence[tuple[str, ...]], stem: bool) -> str | None:
    """The fewest last parts of path `index` that end no other path (None: every number
    of them does)."""
    parts = every[index]
    others = [p for k, p in enumerate(every) if k != index]
    for count in range(1, len(parts) + 1):
        mine = _suffix(parts, count, stem)
        if all(len(o) < count or _suffix(o, count, stem) != mine for o in others):
            return mine
    return None


def _numbered(names: list[str]) -> list[str]:
    """The same path given twice: its second a " (2)", and so on."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    return out
