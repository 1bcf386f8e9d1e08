"""Stopping long work that a caller no longer wants (an editor's cancelled request): the
caller runs it inside `cancellable(event)`, and the work calls `checkpoint()` between its
steps (the bootstrap between resamples), which raises `Cancelled` once the event is set.

The scope is a context variable, so work run with `asyncio.to_thread` (which copies the
context) sees its caller's event; outside any scope `checkpoint()` costs a lookup."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from m2lsp.errors import M2lspError

_EVENT: ContextVar[threading.Event | None] = ContextVar("m2lsp_cancellation", default=None)


class Cancelled(M2lspError):
    """The work was cancelled by its caller."""


@contextmanager
def cancellable(event: threading.Event) -> Iterator[None]:
    """Work inside stops at its next checkpoint once `event` is set."""
    token = _EVENT.set(event)
    try:
        yield
    finally:
        _EVENT.reset(token)


def checkpoint() -> None:
    """Raise `Cancelled` if the work's caller cancelled it."""
    event = _EVENT.get()
    if event is not None and event.is_set():
        raise Cancelled("cancelled")
