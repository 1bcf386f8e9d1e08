"""A sentence made by applying some of a hypothesis's edits to its source, as gecommon's
`apply_edits` makes it (which gec-metrics' attributors use): the source split at single
spaces, the edits applied left to right in the order given (ERRANT's, by position), each at
its offset shifted by the edits before it, and the tokens joined by single spaces."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class TokenEdit(Protocol):
    @property
    def o_start(self) -> int: ...

    @property
    def o_end(self) -> int: ...

    @property
    def c_str(self) -> str: ...


_GONE = None  # a deleted span's place, dropped when the tokens are joined


def applied(source: str, edits: Sequence[TokenEdit]) -> str:
    """`source` with `edits` applied (a deleted span leaves no token, and no double space)."""
    tokens: list[str | None] = list(source.split(" "))
    shift = 0
    for edit in edits:
        if edit.o_start < 0:
            continue  # a noop
        start, end = edit.o_start + shift, edit.o_end + shift
        if edit.c_str == "":
            tokens[start:end] = [_GONE]
            shift -= edit.o_end - edit.o_start - 1
        elif edit.o_start == edit.o_end:
            tokens[start:end] = edit.c_str.split(" ")
            shift += len(edit.c_str.split())
        else:
            tokens[start:end] = edit.c_str.split(" ")
            shift += len(edit.c_str.split(" ")) - (edit.o_end - edit.o_start)
    return " ".join(t for t in tokens if t is not _GONE)
