"""The one way m2lsp writes a file: whole or not at all, never over one of its inputs, never
over a change it did not see.

The content goes to a temporary file in the target's folder, is flushed to disk, and then
replaces the target in one `os.replace`: a run killed at any moment leaves the old file or
the new one, byte for byte (at worst a stray `.NAME.*.m2lsp-tmp` beside it).  The target's
mode is kept, and a symbolic link is written through (its target replaced, the link kept).

Refused, with the file untouched:
- an output that is one of the command's inputs (the same file by any name or link);
- a file written back in place (`check --fix`) whose content changed since it was read
  (size, modification time or hash): another program's edit is not silently lost.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from m2lsp.errors import UsageError

TEMP_SUFFIX = ".m2lsp-tmp"


class WriteRefused(UsageError):
    """A write m2lsp will not do (exit code 2); the target is untouched."""


@dataclass(frozen=True)
class Snapshot:
    """What a file was when it was read: a later write checks it has not changed since."""

    size: int
    mtime_ns: int
    sha256: str

    @classmethod
    def of(cls, path: Path | str, data: bytes) -> Snapshot:
        """The snapshot of `path`, whose content `data` was just read."""
        info = os.stat(path)
        return cls(len(data), info.st_mtime_ns, hashlib.sha256(data).hexdigest())

    def still(self, path: Path | str) -> bool:
        """Whether `path` is unchanged (a file that is gone has changed)."""
        try:
            info = os.stat(path)
            if info.st_size != self.size or info.st_mtime_ns != self.mtime_ns:
                return False
            with open(path, "rb") as handle:
                return hashlib.sha256(handle.read()).hexdigest() == self.sha256
        except OSError:
            return False


def same_file(a: Path | str, b: Path | str) -> bool:
    """Whether two paths name one file (hard and symbolic links included)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def refuse_inputs(output: Path | str, inputs: Iterable[Path | str | None]) -> None:
    """WriteRefused when `output` is one of `inputs`."""
    for given in inputs:
        if given is not None and same_file(output, given):
            raise WriteRefused(f"{output} is also an input ({given}); m2lsp does not write "
                               "over its inputs: name another output")


@contextmanager
def atomic_open(path: Path | str, *, binary: bool = False,
                inputs: Iterable[Path | str | None] = (), expect: Snapshot | None = None,
                ) -> Iterator[IO]:
    """A handle to write `path`'s new content; it replaces `path` when the block ends
    without an exception, and is thrown away otherwise (the old file stays)."""
    target = Path(os.path.realpath(path))
    refuse_inputs(path, inputs)
    temp, handle = _temporary(target, binary)
    try:
        with handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        _keep_mode(target, temp)
        if expect is not None and not expect.still(target):
            raise WriteRefused(f"{path} changed since m2lsp read it; not written (run "
                               "again on the new content)")
        os.replace(temp, target)
    except BaseException:
        _remove(temp)
        raise


def write_atomic(path: Path | str, data: bytes | str, *,
                 inputs: Iterable[Path | str | None] = (), expect: Snapshot | None = None,
                 ) -> None:
    """Write all of `data` (text as UTF-8) to `path`, or nothing (see `atomic_open`)."""
    binary = isinstance(data, bytes)
    with atomic_open(path, binary=binary, inputs=inputs, expect=expect) as out:
        out.write(data)


def _temporary(target: Path, binary: bool) -> tuple[Path, IO]:
    """A new file beside `target`, created with the mode a new file gets (umask applied)."""
    temp = target.with_name(f".{target.name}.{secrets.token_hex(4)}{TEMP_SUFFIX}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    if binary:
        return temp, os.fdopen(fd, "wb")
    return temp, os.fdopen(fd, "w", encoding="utf-8", newline="\n")


def _keep_mode(target: Path, temp: Path) -> None:
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        return
    os.chmod(temp, mode)


def _remove(temp: Path) -> None:
    with suppress(OSError):
        os.unlink(temp)
