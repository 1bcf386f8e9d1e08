"""The one way m2lsp writes a file: whole or not at all, never over one of its inputs, never
over a change it did not see, never through a link or onto a file it should not touch.

What happens depends on what the path names now (links followed as the kernel would):
- nothing, or a regular file: the content goes to a temporary file in the target's folder,
  is flushed to disk, and replaces the target in one `os.replace` (the folder flushed
  after it, so the rename outlives a power loss too); a run killed at any
  moment leaves the old file or the new one, byte for byte (at worst a stray
  `.NAME.*.m2lsp-tmp` beside it).  The target's mode and group are kept (a warning says when
  the group cannot be, or when the file had other hard links, which keep the old content);
- a pipe (FIFO) or a character device (`/dev/null`, a terminal), or a path through
  `/proc/*/fd` (`/dev/stdout`): written through, as the shell's `>` writes, never replaced;
- a folder, a disk (block device) or a socket: refused.

Refused, with the file untouched (`WriteRefused`, exit 2):
- an output that is one of the command's inputs (the same file by any name or link);
- a file written back in place (`check --fix`) whose content changed since it was read
  (size, modification time or hash): another program's edit is not silently lost;
- a symbolic link the kernel's `protected_symlinks` would not follow: one in a sticky,
  world-writable folder (`/tmp`) owned neither by the user nor by the folder's owner, even
  where that setting is off, and even for root;
- a regular file whose owner may not write it (mode 0444), even for root, whom the
  kernel lets write anything;
- a regular file of another user: a user other than root could not give the new file its
  owner (replacing it would take it over); root replaces it keeping its owner and group,
  except in a sticky world-writable folder (`/tmp`), where the kernel's
  `protected_regular` would not let even root open a file another user put there.

Any other failure (no space left, a file-size limit, a folder that cannot be written) is a
`CannotWrite` saying `cannot write PATH: REASON`, the target untouched; the command line
prints it as an error and exits 2.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import stat
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from m2lsp.errors import InputError, UsageError
from m2lsp.logs import logger

TEMP_SUFFIX = ".m2lsp-tmp"
_PARTS_AT_ONCE = 1024  # the iovecs a writev takes (IOV_MAX on Linux)
_LINKS_MOST = 40  # as the kernel's ELOOP
_LOG = logger(__name__)


class WriteRefused(UsageError):
    """A write m2lsp will not do (exit code 2); the target is untouched."""


class CannotWrite(InputError, OSError):
    """A write that failed (`cannot write PATH: REASON`); the target is untouched (a pipe or
    a device may have had part of it).  An OSError too, whose `strerror` is the reason."""

    def __init__(self, path: str, reason: str, errno: int | None = None) -> None:
        OSError.__init__(self, errno, reason)
        self.path = path

    def __str__(self) -> str:
        return f"cannot write {self.path}: {self.strerror}"


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


@dataclass(frozen=True)
class Target:
    """Where a write goes: `path` is the file to create or replace (the given path with
    its last links followed), `info` what is there now (None: nothing), `stream` whether
    it is written through instead (a pipe, a character device, a /proc/*/fd link)."""

    given: str
    path: str
    info: os.stat_result | None
    stream: bool
    magic: bool = False  # a /proc/*/fd link: only the kernel can follow it


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
def reported(path: Path | str) -> Iterator[None]:
    """Any OSError of the block as `CannotWrite` naming `path` (the one place an I/O
    failure of a write becomes the message the user reads)."""
    try:
        yield
    except (CannotWrite, WriteRefused):
        raise
    except OSError as exc:
        raise CannotWrite(str(path), exc.strerror or str(exc), exc.errno) from exc


def target_of(path: Path | str) -> Target:
    """What writing `path` would write (see the module's docstring), or WriteRefused."""
    given = os.fspath(path)
    try:
        with reported(given):
            return _checked(_followed(given))
    except (UnicodeEncodeError, ValueError) as exc:  # a lone surrogate, a NUL in the name
        raise CannotWrite(given, f"not a usable file name ({exc})") from exc


def _followed(given: str) -> Target:
    """The given path with its last component's links followed one by one, each checked as
    protected_symlinks checks it, as are the links among the folders above (which the
    kernel then resolves)."""
    current = given
    for _ in range(_LINKS_MOST):
        folder = os.path.dirname(current) or "."
        _check_folders(given, folder)
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            return Target(given, current, None, stream=False)
        if not stat.S_ISLNK(info.st_mode):
            return Target(given, current, info, stream=False)
        _refuse_foreign_link(given, current, info, folder)
        if os.path.realpath(folder).startswith("/proc/"):
            # /dev/stdout, /dev/fd/N: a link to an open file ("pipe:[N]", a terminal, a
            # file the shell opened): only the kernel can open it, and it is written through
            return Target(given, given, os.stat(given), stream=True, magic=True)
        current = os.path.join(folder, os.readlink(current))
    raise CannotWrite(given, "too many levels of symbolic links")


def _check_folders(given: str, folder: str) -> None:
    """Each link among the components of `folder`, checked as `_refuse_foreign_link` does
    (`/tmp/x/out.m2` where another user made `/tmp/x` a link to the user's folder)."""
    parts = folder.split(os.sep)
    prefix = os.sep if folder.startswith(os.sep) else ""
    for part in parts:
        if part in ("", ".", ".."):
            prefix = os.path.join(prefix, part) if part else prefix
            continue
        path = os.path.join(prefix, part)
        try:
            info = os.lstat(path)
        except OSError:
            return  # the write itself says why
        if stat.S_ISLNK(info.st_mode):
            _refuse_foreign_link(given, path, info, prefix or ".")
        prefix = path


def _refuse_foreign_link(given: str, link: str, info: os.stat_result, folder: str) -> None:
    """WriteRefused for a link in a sticky world-writable folder owned neither by the user
    nor by the folder's owner: whoever can write /tmp could aim it at the user's files."""
    where = os.stat(folder)
    shared = where.st_mode & stat.S_ISVTX and where.st_mode & stat.S_IWOTH
    if shared and info.st_uid not in (os.geteuid(), where.st_uid):
        raise WriteRefused(
            f"{given}: {link} is a symbolic link of another user (uid {info.st_uid}) in a "
            f"shared folder ({folder}, sticky and world-writable); m2lsp does not follow it "
            "(as the kernel's protected_symlinks would not): name the file itself")


def _checked(target: Target) -> Target:
    info = target.info
    if info is None or target.stream:
        return target
    mode = info.st_mode
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return Target(target.given, target.path, info, stream=True)
    if not stat.S_ISREG(mode):
        what = ("a folder" if stat.S_ISDIR(mode) else "a disk (block device)"
                if stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a file")
        raise WriteRefused(f"cannot write {target.given}: it is {what}; m2lsp writes regular "
                           "files, pipes and character devices")
    if info.st_uid != os.geteuid():
        _refuse_foreign_file(target, info)
    if not mode & stat.S_IWUSR:
        raise WriteRefused(
            f"{target.given} is read-only (mode {stat.S_IMODE(mode):04o}); m2lsp does not "
            "replace a protected file (`chmod u+w` it, or write elsewhere)")
    return target


def _refuse_foreign_file(target: Target, info: os.stat_result) -> None:
    """WriteRefused for another user's file, unless root may replace it keeping its owner
    (outside a shared folder, where the file may have been put there to be written)."""
    if os.geteuid() != 0:
        raise WriteRefused(
            f"{target.given} belongs to another user (uid {info.st_uid}); m2lsp replaces "
            "a file whole and could not keep its owner (write elsewhere, or ask its owner)")
    folder = os.path.dirname(target.path) or "."
    where = os.stat(folder)
    if where.st_mode & stat.S_ISVTX and where.st_mode & stat.S_IWOTH and \
            info.st_uid != where.st_uid:
        raise WriteRefused(
            f"{target.given} belongs to another user (uid {info.st_uid}) in a shared folder "
            f"({folder}, sticky and world-writable); m2lsp does not write it (as the "
            "kernel's protected_regular would not): write elsewhere")


class Output:
    """The handle `atomic_open` gives: `write` as a file's, a failure as `CannotWrite`."""

    def __init__(self, handle: IO, given: str) -> None:
        self._handle, self._given = handle, given

    def write(self, data: str | bytes) -> int:
        with reported(self._given):
            return self._handle.write(data)

    def write_parts(self, parts: Sequence[bytes]) -> None:
        """Write `parts` one after the other (a binary handle), with one system call for
        up to `_PARTS_AT_ONCE` of them and no copy joining them (a large file kept in
        pieces, written again whole)."""
        if not hasattr(os, "writev"):  # Windows
            for part in parts:
                self.write(part)
            return
        with reported(self._given):
            self._handle.flush()
            fd = self._handle.fileno()
            left = [memoryview(part) for part in parts if part]
            first = 0
            while first < len(left):
                written = os.writev(fd, left[first:first + _PARTS_AT_ONCE])
                while first < len(left) and written >= len(left[first]):
                    written -= len(left[first])
                    first += 1
                if written:  # a part written in part: its rest next
                    left[first] = left[first][written:]


@contextmanager
def atomic_open(path: Path | str, *, binary: bool = False,
                inputs: Iterable[Path | str | None] = (), expect: Snapshot | None = None,
                ) -> Iterator[Output]:
    """A handle to write `path`'s new content; it replaces `path` when the block ends
    without an exception, and is thrown away otherwise (the old file stays).  A pipe or a
    device is written through as the block writes."""
    target = target_of(path)
    refuse_inputs(path, inputs)
    if target.stream and expect is not None:
        raise WriteRefused(f"{path} is a pipe or a device, not a file: not written back "
                           "(what was read from it is gone from it)")
    if target.stream:
        with _stream(target, binary) as out:
            yield out
        return
    with reported(path):
        temp, handle = _temporary(target.path, binary)
    try:
        try:
            yield Output(handle, target.given)
            with reported(path):
                handle.flush()
                os.fsync(handle.fileno())
                handle.close()
        finally:
            with suppress(OSError):  # what could not be flushed was reported above
                handle.close()
        with reported(path):
            _settle(target, temp, expect)
            os.replace(temp, target.path)
    except BaseException:
        _remove(temp)
        raise
    _sync_folder(target.path)


def _sync_folder(path: str) -> None:
    """Flush `path`'s folder, so that the rename that put `path` there survives a power
    loss, not only a killed process (a folder that cannot be flushed, on a file system
    without it, is left as it is: the file's own content was flushed)."""
    try:
        folder = os.open(os.path.dirname(path) or ".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(folder)
    except OSError:
        pass
    finally:
        os.close(folder)


def write_atomic(path: Path | str, data: bytes | str, *,
                 inputs: Iterable[Path | str | None] = (), expect: Snapshot | None = None,
                 ) -> None:
    """Write all of `data` (text as UTF-8) to `path`, or nothing (see `atomic_open`)."""
    binary = isinstance(data, bytes)
    with atomic_open(path, binary=binary, inputs=inputs, expect=expect) as out:
        out.write(data)


def write_together(files: Sequence[tuple[Path, bytes | str]], *,
                   inputs: Iterable[Path | str | None] = ()) -> None:
    """Write every file or none: each one's content to its temporary file first, flushed;
    only when all are written do they replace their targets (a text and the annotation
    whose offsets point into it; one file per annotator).  Only regular files (or new
    ones): a pipe cannot take back what it was given."""
    inputs = list(inputs)
    targets = [target_of(path) for path, _ in files]
    for target in targets:
        refuse_inputs(target.given, inputs)
        if target.stream:
            raise WriteRefused(f"cannot write {target.given}: it is a pipe or a device; "
                               "m2lsp writes these files together, all or none, so only "
                               "to regular files")
    _refuse_twice(targets)
    temps: list[Path] = []
    try:
        for target, (_, data) in zip(targets, files, strict=True):
            with reported(target.given):
                temp, handle = _temporary(target.path, isinstance(data, bytes))
                temps.append(temp)
                with handle:
                    handle.write(data)
                    handle.flush()
                    os.fsync(handle.fileno())
                _settle(target, temp, None)
        for target, temp in zip(targets, temps, strict=True):
            with reported(target.given):
                os.replace(temp, target.path)
    except BaseException:
        for temp in temps:
            _remove(temp)
        raise
    for path in {os.path.dirname(target.path): target.path for target in targets}.values():
        _sync_folder(path)  # each folder once


def make_folder(path: Path) -> None:
    """`path` and the folders above it, made where missing (a failure as `CannotWrite`)."""
    with reported(path):
        try:
            path.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError) as exc:
            raise CannotWrite(str(path), "a file is in the way of the folder",
                              exc.errno) from exc


def _refuse_twice(targets: Sequence[Target]) -> None:
    seen: dict[str, str] = {}
    for target in targets:
        key = os.path.realpath(target.path)
        if key in seen:
            raise WriteRefused(f"{seen[key]} and {target.given} are one file; m2lsp would "
                               "write one over the other")
        seen[key] = target.given


@contextmanager
def _stream(target: Target, binary: bool) -> Iterator[Output]:
    """A pipe or a device opened as the shell's `>` opens it (appending where it is a file
    a shell opened: `-o /dev/stdout >> log`), written as the block writes."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_NOCTTY
    with reported(target.given):
        # the pipe or device found, not a link put in its place since
        fd = os.open(target.path, flags if target.magic else flags | os.O_NOFOLLOW)
        if not target.magic and stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise WriteRefused(f"{target.given} became a regular file while m2lsp wrote "
                               "it; not written")
    handle = os.fdopen(fd, "wb") if binary else \
        os.fdopen(fd, "w", encoding="utf-8", newline="\n")
    try:
        yield Output(handle, target.given)
        with reported(target.given):
            handle.flush()
    finally:
        with suppress(OSError):
            handle.close()


def _temporary(target: str, binary: bool) -> tuple[Path, IO]:
    """A new file beside `target`, created with the mode a new file gets (umask applied)."""
    folder, name = os.path.split(target)
    temp = Path(folder or ".") / f".{name}.{secrets.token_hex(4)}{TEMP_SUFFIX}"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)
    if binary:
        return temp, os.fdopen(fd, "wb")
    return temp, os.fdopen(fd, "w", encoding="utf-8", newline="\n")


def _settle(target: Target, temp: Path, expect: Snapshot | None) -> None:
    """Before the temporary file replaces the target: the target's owner, group and mode
    on it, a word where what is kept is not all, and the target checked unchanged."""
    info = target.info
    if info is not None:
        made = os.stat(temp)
        if (info.st_uid, info.st_gid) != (made.st_uid, made.st_gid):
            try:  # (another user's owner only where root writes: see _refuse_foreign_file)
                os.chown(temp, info.st_uid, info.st_gid)
            except PermissionError:
                _LOG.warning("%s: its group (gid %d) could not be kept; the new file has "
                             "yours", target.given, info.st_gid)
        os.chmod(temp, stat.S_IMODE(info.st_mode))  # after chown, which may clear set-id bits
        if info.st_nlink > 1:
            _LOG.warning("%s had %d other hard link(s); they keep the old content (the new "
                         "file replaces this name only)", target.given, info.st_nlink - 1)
    if expect is not None and not expect.still(target.path):
        raise WriteRefused(f"{target.given} changed since m2lsp read it; not written (run "
                           "again on the new content)")


def _remove(temp: Path) -> None:
    with suppress(OSError):
        os.unlink(temp)
