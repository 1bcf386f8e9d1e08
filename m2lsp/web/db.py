"""The project's database (`m2lsp-web.sqlite3`): embedded SQLite, nothing to install.

    users        name, role, argon2 hash
    sessions     a digest of the random token, user, expiry, CSRF token
    assignments  user, first and last sentence (from 1, inclusive)
    events       time, user, action, sentence
    suggestion_decisions   user, sentence, suggestion id, accept or reject, time

It holds no annotation: the files do."""

from __future__ import annotations

import sqlite3
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    name TEXT PRIMARY KEY, role TEXT NOT NULL, hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
    token TEXT PRIMARY KEY, user TEXT NOT NULL REFERENCES users(name),
    expires REAL NOT NULL, csrf TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS assignments (
    user TEXT NOT NULL REFERENCES users(name), first INTEGER NOT NULL, last INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    time TEXT NOT NULL, user TEXT NOT NULL, action TEXT NOT NULL, sentence INTEGER);
CREATE TABLE IF NOT EXISTS suggestion_decisions (
    user TEXT NOT NULL REFERENCES users(name), sentence INTEGER NOT NULL, id TEXT NOT NULL,
    decision TEXT NOT NULL, time TEXT NOT NULL, PRIMARY KEY (user, sentence, id));
"""


def connect(path: Path) -> sqlite3.Connection:
    """The database at `path`, its tables made where missing.  Each statement commits by
    itself (autocommit), in WAL mode with full sync: an acknowledged change is on disk."""
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("PRAGMA foreign_keys=ON")
    connection.executescript(SCHEMA)
    return connection


def log_event(connection: sqlite3.Connection, user: str, action: str,
              sentence: int | None = None) -> None:
    from m2lsp.curation.record import now

    connection.execute("INSERT INTO events VALUES (?, ?, ?, ?)", (now(), user, action, sentence))
