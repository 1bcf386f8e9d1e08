"""What was read from a file, kept for the next run in this process: a report scores many
systems against one gold, the editor scores again (a `Scorer` holds its gold, with what
each metric read of it, as a `Held` text: those readings live with it).  Keyed by what
identifies the file's content (path, device, inode, size, modification and change times:
any write moves the change time; a text given in memory: its content) and by what was made
of it; a few entries at most (a CoNLL-2014 gold read is ~10 MB in memory)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import TypeVar

from m2lsp.parsing.source import Held, Text

T = TypeVar("T")
MOST = 6
_KEPT: dict[tuple, object] = {}
_LOCK = threading.Lock()


def kept(path: Path | Text, what: Hashable, make: Callable[[], T]) -> T:
    """`make()`'s value for the file at `path` (`what`: the reading, with what decides it,
    e.g. the encoding), from an earlier run where the file has not changed since; for a
    text held for many uses (`Held`, a Scorer's gold), from the text itself."""
    if isinstance(path, Held):
        return _held(path, what, make)
    key = _key(path, what)
    if key is not None:
        with _LOCK:
            found = _KEPT.get(key)
        if found is not None:
            return found  # type: ignore[return-value]
    value = make()
    if key is not None:
        with _LOCK:
            while len(_KEPT) >= MOST:
                _KEPT.pop(next(iter(_KEPT)), None)
            _KEPT[key] = value
    return value


def _held(text: Held, what: Hashable, make: Callable[[], T]) -> T:
    with _LOCK:
        found = text.readings.get(what)
    if found is None:
        found = make()
        with _LOCK:
            found = text.readings.setdefault(what, found)
    return found


def _key(path: Path | Text, what: Hashable) -> tuple | None:
    if isinstance(path, Text):  # given in memory: keyed by its content
        return ("text", path.text, what)
    found = identity(path)
    return None if found is None else (*found, what)


def identity(path: Path) -> tuple | None:
    """What tells the content of the file at `path` from any other (its place, device,
    inode, size, modification and change times), or None where it is no regular file."""
    try:
        stat = path.stat()
        if not path.is_file():
            return None
        where = str(path.resolve())
    except (OSError, ValueError):
        return None  # the reading says why
    return (where, stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns,
            stat.st_ctime_ns)
