"""Reading the files a command needs whole: a clear InputError instead of a traceback."""

from __future__ import annotations

from pathlib import Path

from m2lsp.errors import InputError
from m2lsp.parsing.source import SourceText, decode


def read_text(path: Path, what: str, encoding: str | None) -> SourceText:
    """A file's text, or an InputError that says what is wrong with it."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {what} file {path}: {exc.strerror or exc}") from exc
    source = decode(data, encoding)
    if source.problem is not None:
        raise InputError(f"{what} file {path} is {source.problem.describe()}")
    return source
