"""What the app serves and how: the project, its database, the limits and the cookie's
flags, and the live updates' hub, held by the app for its views."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from m2lsp.web.accounts import RateLimit, Session, session_of
from m2lsp.web.events import Hub
from m2lsp.web.project import Project

MAX_BODY = 1024 * 1024


@dataclass
class Site:
    """One served project.  `secure`: the cookie is sent only over HTTPS (behind a TLS
    proxy)."""

    project: Project
    db: sqlite3.Connection
    secure: bool = False
    max_body: int = MAX_BODY
    logins: RateLimit = field(default_factory=RateLimit)
    events: Hub = field(default_factory=Hub)
    # the database again, for what worker threads write (a save's event): a statement's
    # commit waits for the disk holding its connection, and the event loop reads every
    # request's session through `db`, which must not wait for it
    journal: sqlite3.Connection | None = None

    def session(self, token: str | None) -> Session | None:
        return session_of(self.db, token)

    @property
    def writer(self) -> sqlite3.Connection:
        """The connection worker threads write through: `journal`, else `db`."""
        return self.journal or self.db

    def log(self, user: str, action: str, sentence: int | None = None) -> None:
        """An event, written through `writer` (from a worker thread: it waits for the
        disk)."""
        from m2lsp.web.db import log_event

        log_event(self.writer, user, action, sentence)
