"""People, their passwords and their sessions.

Passwords are kept only as argon2id hashes (memory-hard); a session is a random token
whose digest the database keeps, with its expiry and its CSRF token; failed logins are
counted per user and per client address, and refused past a limit."""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
import time
from collections import deque
from dataclasses import dataclass, field

from m2lsp.errors import UsageError
from m2lsp.web.names import checked_name, checked_role

SESSION_SECONDS = 12 * 3600


@dataclass(frozen=True)
class User:
    name: str
    role: str


@dataclass(frozen=True)
class Session:
    """A logged-in user: the token goes in the cookie, the CSRF token in each write's
    header."""

    token: str
    user: User
    csrf: str


def _hasher():  # type: ignore[no-untyped-def]
    from argon2 import PasswordHasher

    return PasswordHasher()


def add_user(db: sqlite3.Connection, name: str, role: str, password: str) -> User:
    """A new user (a UsageError when the name is taken or the password too short)."""
    user = User(checked_name(name), checked_role(role))
    if len(password) < 8:
        raise UsageError("a password has at least 8 characters")
    if db.execute("SELECT 1 FROM users WHERE name = ?", (user.name,)).fetchone():
        raise UsageError(f"there is a user {user.name} already")
    db.execute("INSERT INTO users VALUES (?, ?, ?)", (user.name, user.role,
                                                      _hasher().hash(password)))
    return user


def generated_password() -> str:
    return secrets.token_urlsafe(15)


def user_of(db: sqlite3.Connection, name: str) -> User | None:
    row = db.execute("SELECT name, role FROM users WHERE name = ?", (name,)).fetchone()
    return User(*row) if row else None


def users(db: sqlite3.Connection) -> list[User]:
    return [User(*row) for row in db.execute("SELECT name, role FROM users ORDER BY name")]


def verified(db: sqlite3.Connection, name: str, password: str) -> User | None:
    """The user when `password` is theirs, else None (a hash is checked either way, so an
    unknown name takes as long as a wrong password)."""
    from argon2.exceptions import VerificationError

    row = db.execute("SELECT name, role, hash FROM users WHERE name = ?", (name,)).fetchone()
    hasher = _hasher()
    try:
        hasher.verify(row[2] if row else _DUMMY.get(hasher), password)
    except VerificationError:
        return None
    return User(row[0], row[1]) if row else None


class _Dummy:
    """A hash to verify against for unknown names, made once."""

    value: str | None = None

    def get(self, hasher) -> str:  # type: ignore[no-untyped-def]
        if self.value is None:
            self.value = hasher.hash(secrets.token_urlsafe(16))
        return self.value


_DUMMY = _Dummy()


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def open_session(db: sqlite3.Connection, user: User) -> Session:
    session = Session(secrets.token_urlsafe(32), user, secrets.token_urlsafe(32))
    db.execute("INSERT INTO sessions VALUES (?, ?, ?, ?)",
               (_digest(session.token), user.name, time.time() + SESSION_SECONDS,
                session.csrf))
    return session


def session_of(db: sqlite3.Connection, token: str | None) -> Session | None:
    """The live session of a cookie's token, if any."""
    if not token:
        return None
    row = db.execute("SELECT s.csrf, u.name, u.role FROM sessions s JOIN users u "
                     "ON u.name = s.user WHERE s.token = ? AND s.expires > ?",
                     (_digest(token), time.time())).fetchone()
    return Session(token, User(row[1], row[2]), row[0]) if row else None


def close_session(db: sqlite3.Connection, token: str) -> None:
    db.execute("DELETE FROM sessions WHERE token = ?", (_digest(token),))


@dataclass
class RateLimit:
    """At most `most` failed logins in `seconds`, per user name and per client address."""

    most: int = 5
    seconds: float = 60.0
    failures: dict[str, deque[float]] = field(default_factory=dict)

    def blocked(self, *keys: str) -> bool:
        now = time.monotonic()
        return any(len(self._recent(key, now)) >= self.most for key in keys)

    def failed(self, *keys: str) -> None:
        now = time.monotonic()
        for key in keys:
            self._recent(key, now).append(now)

    def _recent(self, key: str, now: float) -> deque[float]:
        found = self.failures.setdefault(key, deque())
        while found and found[0] <= now - self.seconds:
            found.popleft()
        return found
