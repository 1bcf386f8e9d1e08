"""Reading a file whole, within a bound: a regular file is as long as its size says; a pipe
(FIFO) or a socket is read up to `STREAM_LIMIT` bytes; a device (`/dev/zero`, a terminal) is
refused, since it may never end.  Memory then grows with the input, never without bound.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

# A pipe has no size to trust: read at most this much of it (GEC corpora fed through a pipe
# are far smaller; the error names the limit and the way around it, a regular file).
STREAM_LIMIT = 1 << 30
_CHUNK = 1 << 20
# A pipe gives its content once: what was read of one (by device and inode) is kept for the
# process, so a command that needs a file twice (the gold, once per system) reads it again
# from here instead of waiting for ever on an empty pipe.
_pipes: dict[tuple[int, int], bytes] = {}


class NotReadable(OSError):
    """A path whose kind m2lsp will not read, or a stream over the limit."""


def kind(path: Path | str) -> str:
    """'file', 'folder', 'pipe', 'socket', 'device' or 'other' (symbolic links followed).
    Raises OSError when the path cannot be looked at."""
    try:
        mode = os.stat(path).st_mode
    except (UnicodeEncodeError, ValueError) as exc:  # a lone surrogate, a NUL in the name
        raise NotReadable(f"not a usable file name ({exc})") from None
    for test, name in ((stat.S_ISREG, "file"), (stat.S_ISDIR, "folder"),
                       (stat.S_ISFIFO, "pipe"), (stat.S_ISSOCK, "socket"),
                       (stat.S_ISCHR, "device"), (stat.S_ISBLK, "device")):
        if test(mode):
            return name
    return "other"


def is_regular(path: Path | str) -> bool:
    """A regular file (links followed); False for anything that cannot be looked at."""
    try:
        return kind(path) == "file"
    except OSError:
        return False


def read_bytes(path: Path | str, limit: int = STREAM_LIMIT, pipes: bool = True) -> bytes:
    """The whole content of a regular file or (with `pipes`) a pipe, or NotReadable saying
    why not.  Other OSErrors (missing, permission) pass through.  The language server
    reads no pipe: opening one waits for a writer, and every request would wait too."""
    what = kind(path)
    if what in ("folder", "device", "other") or (what in ("pipe", "socket") and not pipes):
        allowed = "files and pipes" if pipes else "regular files"
        raise NotReadable(f"not a regular file (a {what}); m2lsp reads {allowed} here")
    if what == "file":
        with open(path, "rb") as handle:
            return handle.read()
    info = os.stat(path)
    key = (info.st_dev, info.st_ino)
    if key not in _pipes:
        with open(path, "rb") as handle:
            _pipes[key] = _read_stream(handle, limit)
    return _pipes[key]


def _read_stream(handle: BinaryIO, limit: int) -> bytes:
    data = bytearray()
    while chunk := handle.read(min(_CHUNK, limit + 1 - len(data))):
        data += chunk
        if len(data) > limit:
            raise NotReadable(f"a pipe longer than {limit >> 20} MiB; write it to a file "
                              "and name the file")
    return bytes(data)
