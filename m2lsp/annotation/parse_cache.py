"""Parses kept on disk, so a sentence is parsed once: the sources of eight system outputs,
the same output scored again, a line the editor re-annotates.

One SQLite file beside the built grammars (`parsing.grammar.cache_dir()`; $M2LSP_CACHE_DIR
empty keeps nothing).  A row is one parse in spaCy's own format (a DocBin, not a pickle),
keyed by a hash of the pipeline's name and version, spaCy's version, the tokenisation and
the text, so a parse made by another pipeline is never read back.  Anything that goes wrong
with the file (locked, corrupt, not writable) makes the cache keep nothing: parsing is then
slower, never different.  The file holds at most MAX_ROWS parses (about 1.2 KB each); past
that the oldest are dropped.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path

MAX_ROWS = 300_000
FILE_NAME = "parses.sqlite3"


class ParseCache:
    """`get(keys)` -> {key: bytes} for the keys it holds; `put({key: bytes})`."""

    def __init__(self, path: Path | None) -> None:
        self._db: sqlite3.Connection | None = None
        if path is not None:
            self._db = _open(path)

    @staticmethod
    def key(namespace: str, text: str) -> str:
        return hashlib.blake2b(f"{namespace}\0{text}".encode("utf-8", "surrogatepass"),
                               digest_size=20).hexdigest()

    def get(self, keys: Sequence[str]) -> dict[str, bytes]:
        if self._db is None or not keys:
            return {}
        found: dict[str, bytes] = {}
        try:
            for start in range(0, len(keys), 500):
                chunk = keys[start:start + 500]
                marks = ",".join("?" * len(chunk))
                found.update(self._db.execute(
                    f"SELECT key, doc FROM parses WHERE key IN ({marks})", chunk))
        except sqlite3.Error:
            self._give_up()
            return {}
        return found

    def put(self, rows: Iterable[tuple[str, bytes]]) -> None:
        if self._db is None:
            return
        try:
            with self._db:
                self._db.executemany("INSERT OR IGNORE INTO parses(key, doc) VALUES (?, ?)",
                                     rows)
                self._db.execute("DELETE FROM parses WHERE rowid <= "
                                 "(SELECT MAX(rowid) FROM parses) - ?", (MAX_ROWS,))
        except sqlite3.Error:
            self._give_up()

    def close(self) -> None:
        self._give_up()

    def _give_up(self) -> None:
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
        self._db = None


def _open(path: Path) -> sqlite3.Connection | None:
    try:
        db = sqlite3.connect(path, timeout=30)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE IF NOT EXISTS parses (key TEXT PRIMARY KEY, doc BLOB)")
        return db
    except sqlite3.Error:
        return None


def default_cache() -> ParseCache:
    """The cache in m2lsp's cache folder, or one that keeps nothing."""
    from m2lsp.parsing.grammar import cache_dir

    where = cache_dir()
    return ParseCache(None if where is None else where / FILE_NAME)
