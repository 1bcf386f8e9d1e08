"""The project's M2 files as the server reads them: each file cut into its blocks' texts,
kept while the file is unchanged, so that a request parses the one sentence it needs and
never the whole file (a parsed 50,000-sentence layer takes seconds and about 100 MB; its
text a few MB), and a save replaces one block's text and writes the file from the pieces,
with no reading back.

The file stays the truth: an index is kept only while the file's size, mtime (ns) and
inode are what they were when it was read, and a save writes only if they still are
(`WriteRefused` otherwise), whatever else wrote the file (an editor, git): as git's index
trusts a file's stat, so a save does not read and hash the whole layer twice."""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from m2lsp.files.writing import Snapshot
from m2lsp.model import Block

MOST = 64  # files indexed at once (the layers, the source, the gold, suggestion sets)
Key = tuple[int, int, int]


def _stat_key(info: os.stat_result) -> Key:
    return info.st_size, info.st_mtime_ns, info.st_ino


@dataclass
class Indexed:
    """One file: what stands before its first block, then each block's text with the
    blank lines after it (`pieces`: the file is their concatenation), how many lines each
    block has, and each block's version once asked for."""

    key: Key
    head: str
    pieces: list[str]
    sizes: list[int]
    newline: str = "\n"
    versions: list[str | None] = field(default_factory=list)
    rows: list[tuple[str, bool]] | None = None  # each block's text and whether it is done

    def __post_init__(self) -> None:
        if not self.versions:
            self.versions = [None] * len(self.pieces)

    def summaries(self) -> list[tuple[str, bool]]:
        """Each block's sentence text and whether it is done, made once."""
        if self.rows is None:
            nl = self.newline
            # a block's lines are never blank (a blank line ends it): done is a second line
            self.rows = [(head[2:] if head.startswith("S ") else "", size > 1)
                         for head, size in zip((p.partition(nl)[0] for p in self.pieces),
                                               self.sizes, strict=True)]
        return self.rows

    @property
    def count(self) -> int:
        return len(self.pieces)

    def block_lines(self, number: int) -> list[str]:
        """Sentence `number`'s lines (from 1); LookupError when there is none."""
        if not 1 <= number <= len(self.pieces):
            raise LookupError(number)
        size = self.sizes[number - 1]
        return self.pieces[number - 1].split(self.newline, size)[:size]

    def block(self, number: int) -> Block:
        from m2lsp.parsing.m2 import parse_m2

        return parse_m2("\n".join(self.block_lines(number)) + "\n").blocks[0]

    def version(self, number: int) -> str:
        """As `project.version` gives it of the parsed block."""
        found = self.versions[number - 1]
        if found is None:
            found = _version(self.block_lines(number))
            self.versions[number - 1] = found
        return found

    def text_of(self, number: int) -> str:
        piece = self.pieces[number - 1]
        head = piece[:piece.find(self.newline)] if self.newline in piece else piece
        return head[2:] if head.startswith("S ") else ""

    def done(self, number: int) -> bool:
        """Whether the sentence has a line after its S line (`layers.is_done`): a block's
        lines are never blank."""
        return self.sizes[number - 1] > 1


def _version(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class _Unchanged(Snapshot):
    """The file as its stat was when indexed (see the module's docstring)."""

    key: Key = (0, 0, 0)

    @classmethod
    def at(cls, key: Key) -> _Unchanged:
        return cls(key[0], key[1], "", key)

    def still(self, path: Path | str) -> bool:
        try:
            return _stat_key(os.stat(path)) == self.key
        except OSError:
            return False


@dataclass
class Store:
    """The indexed files, the least recently used dropped past `MOST`.  Safe to use from
    several threads (the server saves in a pool, so that one save's disk waits do not hold
    up the others): a lock guards the table, and one per file makes its writes one at a
    time (the check that the file is unchanged and the rename that replaces it)."""

    files: OrderedDict[Path, Indexed] = field(default_factory=OrderedDict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    writing: dict[Path, threading.Lock] = field(default_factory=dict)

    def get(self, path: Path) -> Indexed:
        """The index of `path` as it is now on disk."""
        key = _stat_key(os.stat(path))
        with self.lock:
            found = self.files.get(path)
        if found is None or found.key != key:
            found = _indexed(path.read_bytes(), key)
        with self.lock:
            self.files[path] = found
            self.files.move_to_end(path)
            while len(self.files) > MOST:
                self.files.popitem(last=False)
        return found

    def warm(self, paths: list[Path]) -> threading.Thread:
        """Index `paths` in a background thread (a server reads its layers while the first
        pages log in: a 50,000-sentence layer takes a moment); a file that cannot be read
        is left to the request that asks for it."""

        def index() -> None:
            for path in paths:
                try:
                    index = self.get(path)
                    index.summaries()
                    for number in range(1, index.count + 1):
                        index.version(number)
                except (OSError, UnicodeDecodeError):
                    continue

        thread = threading.Thread(target=index, name="m2lsp-web-warm", daemon=True)
        thread.start()
        return thread

    def rows(self, path: Path, numbers: list[int]) -> list[dict[str, object]]:
        """Sentences `numbers` (those the file has) with their text, state (done or new)
        and version, as an annotator's list shows them: one pass, no block parsed."""
        index = self.get(path)
        rows, versions, version = index.summaries(), index.versions, index.version
        return [{"number": n, "text": rows[n - 1][0], "state": "done" if rows[n - 1][1]
                 else "new", "version": versions[n - 1] or version(n)}
                for n in numbers if n <= len(rows)]

    def replace(self, path: Path, old: Indexed, number: int, lines: list[str],
                head: str | None = None) -> Indexed:
        """Write `path` with sentence `number`'s lines after its S line replaced by
        `lines` (and its S line by `head`, if given: a retokenisation), atomically and only
        if the file is still what `old` indexed (WriteRefused otherwise); the new index
        (`old` is left as it was)."""
        return self.replace_blocks(path, old, {number: lines},
                                   {} if head is None else {number: head})

    def replace_blocks(self, path: Path, old: Indexed, changes: dict[int, list[str]],
                       heads: dict[int, str] | None = None) -> Indexed:
        """As `replace`, for several sentences at once (each number: its new lines, and
        its new S line in `heads`), in one write."""
        with self.lock:
            one = self.writing.setdefault(path, threading.Lock())
        with one:
            return self._replace(path, old, changes, heads or {})

    def _replace(self, path: Path, old: Indexed, changes: dict[int, list[str]],
                 heads: dict[int, str]) -> Indexed:
        from m2lsp.files.writing import write_atomic

        nl = old.newline
        pieces, sizes, versions = list(old.pieces), list(old.sizes), list(old.versions)
        for number, lines in changes.items():
            at = number - 1
            size = old.sizes[at]
            parts = old.pieces[at].split(nl, size)
            block = [heads.get(number, parts[0]), *(line.rstrip("\r\n") for line in lines)]
            gap = parts[size] if len(parts) > size else ""
            pieces[at] = nl.join(block) + (nl + gap if len(parts) > size else "")
            sizes[at], versions[at] = len(block), _version(block)
        data = (old.head + "".join(pieces)).encode("utf-8")
        write_atomic(path, data, expect=_Unchanged.at(old.key))
        new = Indexed(_stat_key(os.stat(path)), old.head, pieces, sizes, nl, versions)
        if old.rows is not None:
            new.rows = list(old.rows)
            for number in changes:
                new.rows[number - 1] = (new.text_of(number), new.done(number))
        with self.lock:
            self.files[path] = new
        return new


_ODD_BLANK = re.compile(r"\n[ \t\f\v]+\n|\n[ \t\f\v]+$|\n\n\n")


def _indexed(data: bytes, key: Key) -> Indexed:
    text = data.decode("utf-8")
    return _as_written(text, key) or _any(text, key)


def _as_written(text: str, key: Key) -> Indexed | None:
    """The index of a file as the server writes it (LF, each block an S line and its
    edits, one blank line between blocks, a blank line at the end), cut at its blank
    lines in one pass; None for any other file."""
    if not text.startswith("S ") or not text.endswith("\n\n") or "\r" in text or \
            _ODD_BLANK.search(text):
        return None
    parts = text[:-2].split("\n\n")
    heads = text.count("\n\nS ")
    if heads + 1 != len(parts) or text.count("\nS ") != heads:  # a block without an S
        return None  # line first, or without a blank line before it
    return Indexed(key, "", [part + "\n\n" for part in parts],
                   [part.count("\n") + 1 for part in parts])


def _any(text: str, key: Key) -> Indexed:
    """The index of any M2 text, its blocks where the parser finds them."""
    from m2lsp.parsing.m2 import block_bounds
    from m2lsp.parsing.source import SourceText

    nl = "\r\n" if "\r\n" in text else "\n"
    lines = SourceText(text).lines
    starts, ends, _ = block_bounds(lines)
    head = "".join(line + nl for line in lines[:starts[0]]) if starts else text
    pieces = []
    for k, start in enumerate(starts):
        upto = starts[k + 1] if k + 1 < len(starts) else len(lines)
        piece = nl.join(lines[start:upto])
        pieces.append(piece + nl if upto < len(lines) else piece)
    return Indexed(key, head, pieces, [e - s for s, e in zip(starts, ends, strict=True)], nl)
