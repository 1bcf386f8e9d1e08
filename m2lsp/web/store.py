"""The project's M2 files as the server reads them: each file cut into its blocks' texts,
kept while the file is unchanged, so that a request parses the one sentence it needs and
never the whole file (a parsed 50,000-sentence layer takes seconds and about 100 MB; its
text a few MB), and a save replaces one block's text and writes the file from the pieces,
with no reading back.

The blocks are kept in chunks of `CHUNK`, each with its bytes once written: a save makes
one chunk again (its lists copied, its bytes encoded) and shares the others with the index
it replaces, which stays as it was for a request still reading it.  Joining and encoding a
50,000-sentence layer's texts took 12 ms a save, and copying its lists of 50,000 left them
for the garbage collector to walk (tens of ms at a time): both hold the interpreter's lock,
which the event loop needs to answer anyone.

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
CHUNK = 256  # blocks a chunk holds (a save copies one chunk)
Key = tuple[int, int, int]


def _stat_key(info: os.stat_result) -> Key:
    return info.st_size, info.st_mtime_ns, info.st_ino


@dataclass
class _Chunk:
    """`CHUNK` blocks of a file (the last chunk may hold fewer): each one's text with the
    blank lines after it, how many lines it has, its version once asked for; the chunk's
    bytes and its rows (each block's sentence and whether it is done) once asked for."""

    pieces: list[str]
    sizes: list[int]
    versions: list[str | None]
    data: bytes | None = None
    rows: list[tuple[str, bool]] | None = None

    def encoded(self) -> bytes:
        if self.data is None:
            self.data = "".join(self.pieces).encode("utf-8")
        return self.data

    def warm(self, nl: str) -> None:
        """Everything asked for later made now: bytes, rows, versions."""
        self.encoded()
        self.summaries(nl)
        for at, (piece, size) in enumerate(zip(self.pieces, self.sizes, strict=True)):
            if self.versions[at] is None:
                self.versions[at] = _version(piece.split(nl, size)[:size])

    def summaries(self, nl: str) -> list[tuple[str, bool]]:
        if self.rows is None:
            # a block's lines are never blank (a blank line ends it): done is a second line
            self.rows = [(head[2:] if head.startswith("S ") else "", size > 1)
                         for head, size in zip((p.partition(nl)[0] for p in self.pieces),
                                               self.sizes, strict=True)]
        return self.rows


def _chunked(pieces: list[str], sizes: list[int]) -> list[_Chunk]:
    return [_Chunk(pieces[k:k + CHUNK], sizes[k:k + CHUNK], [None] * len(pieces[k:k + CHUNK]))
            for k in range(0, len(pieces), CHUNK)]


@dataclass
class Indexed:
    """One file: what stands before its first block (`head`), then its blocks in chunks
    (the file is the head and each block's text, in order)."""

    key: Key
    head: str
    chunks: list[_Chunk]
    count: int
    newline: str = "\n"

    @classmethod
    def of(cls, key: Key, head: str, pieces: list[str], sizes: list[int],
           newline: str = "\n") -> Indexed:
        return cls(key, head, _chunked(pieces, sizes), len(pieces), newline)

    @property
    def pieces(self) -> list[str]:
        """Every block's text with the blank lines after it."""
        return [piece for chunk in self.chunks for piece in chunk.pieces]

    @property
    def sizes(self) -> list[int]:
        return [size for chunk in self.chunks for size in chunk.sizes]

    def summaries(self) -> list[tuple[str, bool]]:
        """Each block's sentence text and whether it is done."""
        return [row for chunk in self.chunks for row in chunk.summaries(self.newline)]

    def at(self, number: int) -> tuple[_Chunk, int]:
        """Sentence `number`'s chunk and its place there; LookupError when there is none."""
        if not 1 <= number <= self.count:
            raise LookupError(number)
        return self.chunks[(number - 1) // CHUNK], (number - 1) % CHUNK

    def encoded(self) -> list[bytes]:
        """The file's bytes: the head's, then each chunk's."""
        return [self.head.encode("utf-8"), *(chunk.encoded() for chunk in self.chunks)]

    def row(self, number: int) -> tuple[str, bool]:
        """Sentence `number`'s text and whether it is done."""
        chunk, at = self.at(number)
        return chunk.summaries(self.newline)[at]

    def block_lines(self, number: int) -> list[str]:
        """Sentence `number`'s lines (from 1); LookupError when there is none."""
        chunk, at = self.at(number)
        size = chunk.sizes[at]
        return chunk.pieces[at].split(self.newline, size)[:size]

    def block(self, number: int) -> Block:
        from m2lsp.parsing.m2 import parse_m2

        return parse_m2("\n".join(self.block_lines(number)) + "\n").blocks[0]

    def version(self, number: int) -> str:
        """As `project.version` gives it of the parsed block."""
        chunk, at = self.at(number)
        found = chunk.versions[at]
        if found is None:
            found = _version(self.block_lines(number))
            chunk.versions[at] = found
        return found

    def text_of(self, number: int) -> str:
        return self.row(number)[0]

    def done(self, number: int) -> bool:
        """Whether the sentence has a line after its S line (`layers.is_done`): a block's
        lines are never blank."""
        chunk, at = self.at(number)
        return chunk.sizes[at] > 1


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
                    self.ready(path)
                except (OSError, UnicodeDecodeError):
                    continue

        thread = threading.Thread(target=index, name="m2lsp-web-warm", daemon=True)
        thread.start()
        return thread

    def ready(self, path: Path) -> Indexed:
        """`get`, with everything a request asks of the index made now (`_Chunk.warm`)."""
        index = self.get(path)
        for chunk in index.chunks:
            chunk.warm(index.newline)
        return index

    def rows(self, path: Path, numbers: list[int]) -> list[dict[str, object]]:
        """Sentences `numbers` (those the file has) with their text, state (done or new)
        and version, as an annotator's list shows them: one pass, no block parsed."""
        index = self.get(path)
        rows = []
        for n in numbers:
            if n > index.count:
                continue
            text, done = index.row(n)
            rows.append({"number": n, "text": text, "state": "done" if done else "new",
                         "version": index.version(n)})
        return rows

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
        with self._writing(path):
            return self._replace(path, old, changes, heads or {})

    def replace_at(self, path: Path, number: int, based_on: str, lines: list[str]
                   ) -> Indexed | None:
        """`replace` on the file as it is now, if sentence `number` is still at version
        `based_on` (None otherwise, nothing written).  The check and the write are one
        step for the file, so saves of other sentences of it at the same moment (two
        tabs) all land, one after the other, and a save based on a version another save
        just replaced is refused."""
        with self._writing(path):
            index = self.get(path)
            if not 1 <= number <= index.count:
                raise LookupError(number)
            if index.version(number) != based_on:
                return None
            return self._replace(path, index, {number: lines}, {})

    def _writing(self, path: Path) -> threading.Lock:
        """The lock that makes the writes of `path` one at a time."""
        with self.lock:
            return self.writing.setdefault(path, threading.Lock())

    def _replace(self, path: Path, old: Indexed, changes: dict[int, list[str]],
                 heads: dict[int, str]) -> Indexed:
        from m2lsp.files.writing import atomic_open

        nl = old.newline
        chunks = list(old.chunks)
        made: dict[int, _Chunk] = {}  # the chunks changed, each copied once
        for number, lines in changes.items():
            chunk, at = old.at(number)
            which = (number - 1) // CHUNK
            if which not in made:
                made[which] = _Chunk(list(chunk.pieces), list(chunk.sizes),
                                     list(chunk.versions))
                chunks[which] = made[which]
            size = chunk.sizes[at]
            parts = chunk.pieces[at].split(nl, size)
            block = [heads.get(number, parts[0]), *(line.rstrip("\r\n") for line in lines)]
            gap = parts[size] if len(parts) > size else ""
            made[which].pieces[at] = nl.join(block) + (nl + gap if len(parts) > size else "")
            made[which].sizes[at], made[which].versions[at] = len(block), _version(block)
        new = Indexed(old.key, old.head, chunks, old.count, nl)
        with atomic_open(path, binary=True, expect=_Unchanged.at(old.key)) as out:
            out.write_parts(new.encoded())  # as they are: no copy of the whole file
        new.key = _stat_key(os.stat(path))
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
    return Indexed.of(key, "", [part + "\n\n" for part in parts],
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
    return Indexed.of(key, head, pieces, [e - s for s, e in zip(starts, ends, strict=True)],
                      nl)
