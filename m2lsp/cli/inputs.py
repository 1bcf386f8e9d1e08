"""Reading the files a command needs whole (a clear InputError instead of a traceback), and
naming them all, so that no output is ever written over one."""

from __future__ import annotations

import argparse
from pathlib import Path

from m2lsp.parsing.source import Text
from m2lsp.parsing.source import read_source as read_text

__all__ = ["input_paths", "read_in", "read_text"]


def read_in(path: Path, role: str, encoding: str | None = None) -> Text:
    """The file at `path` read once, here at the edge, as the core takes it: its text,
    named by the path as the user gave it (a message says "gold file gold.m2:12"), or an
    InputError saying why it cannot be read (`role`: "system", "gold")."""
    return Text(str(path), read_text(path, role, encoding))


def input_paths(args: argparse.Namespace, *outputs: str) -> list[Path]:
    """Every path among the parsed arguments but the `outputs` (argument names): the files
    the command reads."""
    found: list[Path] = []
    for name, value in vars(args).items():
        if name in outputs:
            continue
        values = value if isinstance(value, list | tuple) else [value]
        found.extend(Path(v) for v in values if isinstance(v, Path))
    return found
