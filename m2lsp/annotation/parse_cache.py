"""Parses and annotated blocks kept on disk, so a sentence is parsed once: the sources of
eight system outputs, the same output scored again, a line the editor re-annotates.

One SQLite file beside the built grammars (`parsing.grammar.cache_dir()`; $M2LSP_CACHE_DIR
empty keeps nothing).  A row is one parse or one block, keyed by a hash of everything that
makes it (the pipeline's name and version, spaCy's version, the options, the text), so a row
made another way is never read back.

The cache is slower, never different:
- every row carries a checksum of its key and value; a row that does not match it (a bit
  flipped on disk, a NULL, a value of the wrong type) is a miss, and is dropped;
- anything else that goes wrong with the file (locked, corrupt, not writable) makes the
  cache keep nothing for the rest of the run.
It is bounded: past `max_bytes()` of values ($M2LSP_CACHE_MAX_MB, default 512 MB) the rows
used least recently are dropped.  `m2lsp cache info` and `m2lsp cache clear` show and empty it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

FILE_NAME = "parses.sqlite3"
DEFAULT_MAX_MB = 512
MAX_ENV = "M2LSP_CACHE_MAX_MB"
_SCHEMA = ("CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, value BLOB, "
           "checksum BLOB, size INTEGER, used INTEGER)")
_BY_USE = "CREATE INDEX IF NOT EXISTS entries_used ON entries(used)"


def max_bytes() -> int:
    """The bound on the values kept: $M2LSP_CACHE_MAX_MB megabytes, else the default (a
    value that is not a number >= 0 is the default too; 0 keeps nothing)."""
    given = os.environ.get(MAX_ENV, "")
    try:
        megabytes = float(given) if given.strip() else DEFAULT_MAX_MB
    except ValueError:
        megabytes = DEFAULT_MAX_MB
    if not megabytes >= 0 or megabytes == float("inf"):
        megabytes = DEFAULT_MAX_MB
    return int(megabytes * 1_000_000)


def checksum(key: str, value: bytes) -> bytes:
    return hashlib.blake2b(key.encode("ascii", "replace") + b"\0" + value,
                           digest_size=16).digest()


class ParseCache:
    """`get(keys)` -> {key: bytes} for the keys it holds intact; `put({key: bytes})`."""

    def __init__(self, path: Path | None, limit: int | None = None) -> None:
        self._db: sqlite3.Connection | None = None
        self.limit = max_bytes() if limit is None else limit
        self._unchecked = 0  # bytes written since the size was last checked
        self._checked = False
        if path is not None and self.limit > 0:
            self._db = _open(path)

    @staticmethod
    def key(namespace: str, text: str) -> str:
        return hashlib.blake2b(f"{namespace}\0{text}".encode("utf-8", "surrogatepass"),
                               digest_size=20).hexdigest()

    def get(self, keys: Sequence[str]) -> dict[str, bytes]:
        if self._db is None or not keys:
            return {}
        found: dict[str, bytes] = {}
        bad: list[str] = []
        try:
            for start in range(0, len(keys), 500):
                chunk = list(keys[start:start + 500])
                marks = ",".join("?" * len(chunk))
                for key, value, check in self._db.execute(
                        f"SELECT key, value, checksum FROM entries WHERE key IN ({marks})",
                        chunk):
                    if _intact(key, value, check):
                        found[key] = bytes(value)
                    else:
                        bad.append(key)
            self._touch(list(found), bad)
        except sqlite3.Error:
            self._give_up()
            return {}
        return found

    def put(self, rows: Iterable[tuple[str, bytes]]) -> None:
        if self._db is None:
            return
        now = time.time_ns()
        batch = [(key, value, checksum(key, value), len(value), now) for key, value in rows]
        try:
            with self._db:
                self._db.executemany("INSERT OR REPLACE INTO entries(key, value, checksum, "
                                     "size, used) VALUES (?, ?, ?, ?, ?)", batch)
            self._unchecked += sum(row[3] for row in batch)
            if not self._checked or self._unchecked > self.limit // 20:
                self._bound()
        except sqlite3.Error:
            self._give_up()

    def close(self) -> None:
        self._give_up()

    def _touch(self, used: list[str], bad: list[str]) -> None:
        """Mark rows read as just used (least recently used goes first); drop bad ones."""
        assert self._db is not None
        if not used and not bad:
            return
        now = time.time_ns()
        with self._db:
            self._db.executemany("UPDATE entries SET used = ? WHERE key = ?",
                                 [(now, key) for key in used])
            self._db.executemany("DELETE FROM entries WHERE key = ?", [(k,) for k in bad])

    def _bound(self) -> None:
        """Drop the least recently used rows until the values fit in 90% of the limit."""
        assert self._db is not None
        self._checked, self._unchecked = True, 0
        total = self._db.execute("SELECT COALESCE(SUM(size), 0) FROM entries").fetchone()[0]
        if total <= self.limit:
            return
        goal = total - self.limit * 9 // 10
        with self._db:
            cut = self._db.execute(
                "SELECT used FROM (SELECT used, SUM(size) OVER (ORDER BY used) AS freed "
                "FROM entries) WHERE freed >= ? LIMIT 1", (goal,)).fetchone()
            if cut is not None:
                self._db.execute("DELETE FROM entries WHERE used <= ?", (cut[0],))

    def _give_up(self) -> None:
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
        self._db = None


def _intact(key: object, value: object, check: object) -> bool:
    return (isinstance(key, str) and isinstance(value, bytes) and isinstance(check, bytes)
            and checksum(key, value) == check)


def _open(path: Path) -> sqlite3.Connection | None:
    try:
        db = sqlite3.connect(path, timeout=30)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("DROP TABLE IF EXISTS parses")  # the first layout's rows: no checksums
        db.execute(_SCHEMA)
        db.execute(_BY_USE)
        return db
    except sqlite3.Error:
        return None


def default_cache() -> ParseCache:
    """The cache in m2lsp's cache folder, or one that keeps nothing."""
    from m2lsp.parsing.grammar import cache_dir

    where = cache_dir()
    return ParseCache(None if where is None else where / FILE_NAME)


@dataclass(frozen=True)
class CacheInfo:
    """What `m2lsp cache info` prints of the parse and edit cache."""

    path: Path | None
    file_bytes: int
    rows: int
    value_bytes: int
    limit: int
    problem: str | None = None


def info() -> CacheInfo:
    from m2lsp.parsing.grammar import cache_dir

    where = cache_dir()
    path = None if where is None else where / FILE_NAME
    if path is None or not path.exists():
        return CacheInfo(path, 0, 0, 0, max_bytes())
    files = sum(p.stat().st_size for p in path.parent.glob(FILE_NAME + "*"))
    try:
        with contextlib.closing(sqlite3.connect(path, timeout=30)) as db:
            db.execute(_SCHEMA)
            rows, size = db.execute(
                "SELECT COUNT(*), COALESCE(SUM(size), 0) FROM entries").fetchone()
    except sqlite3.Error as exc:
        return CacheInfo(path, files, 0, 0, max_bytes(), f"unreadable: {exc}")
    return CacheInfo(path, files, rows, size, max_bytes())
