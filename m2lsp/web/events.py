"""Live updates: what one page did (a save, a curation decision, an assignment, the
sentences or suggestions loaded) reaches the other pages without a reload, as server-sent
events.

Each event says who may see it (blind annotation: an annotator hears only of their own
layer and their own assignments, never of another annotator's work).  Each listener has a
queue of at most `CAP` events; a listener that falls that far behind (a stalled tab, a
slow link) is dropped with a last `dropped` event telling the page to reload, so a slow
listener never makes the server hold more.  Pure of HTTP: `views/events.py` streams it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import count
from typing import Any

CAP = 256  # events a listener may fall behind before it is dropped
KEEPALIVE = 15.0  # seconds between comments on an idle stream (proxies close silent ones)
ALL_BUT_ANNOTATORS = frozenset({"curator", "manager"})


@dataclass(frozen=True)
class Event:
    """One update: its kind (the SSE event name), its data, and who sees it: the users
    named, and everyone of the roles named."""

    kind: str
    data: dict[str, Any]
    users: frozenset[str] = frozenset()
    roles: frozenset[str] = frozenset()

    def seen_by(self, user: str, role: str) -> bool:
        return user in self.users or role in self.roles


def saved(user: str, number: int, version: str, done: bool) -> Event:
    """An annotator saved a sentence: their other tabs (the version moved on), the
    curators and managers (progress) hear of it; no other annotator does."""
    return Event("saved", {"user": user, "sentence": number, "version": version,
                           "done": done}, frozenset({user}), ALL_BUT_ANNOTATORS)


def retokenised(user: str, number: int, version: str, done: bool) -> Event:
    """Sentence `number`'s source tokens were split or joined: every layer's version of it
    moved on, so each annotator's tabs hear of their own (as of a save, with `retokenised`
    set: the page reloads it), never who did it nor another's edits."""
    return Event("saved", {"user": user, "sentence": number, "version": version,
                           "done": done, "retokenised": True},
                 frozenset({user}), ALL_BUT_ANNOTATORS)


def decided(who: str, action: str, number: int | None) -> Event:
    """A curation decision (on one sentence, or accept-agreed on all)."""
    return Event("decided", {"user": who, "action": action, "sentence": number},
                 roles=ALL_BUT_ANNOTATORS)


def assigned(user: str, first: int, last: int, removed: bool = False) -> Event:
    """Sentences given to an annotator, or taken back (`removed`): their list changes."""
    return Event("assigned", {"user": user, "first": first, "last": last, "removed": removed},
                 frozenset({user}), frozenset({"manager"}))


def sourced(sentences: int) -> Event:
    """A manager loaded the project's sentences: every page has sentences to show now."""
    return Event("source", {"sentences": sentences},
                 roles=frozenset({"annotator", "curator", "manager"}))


def suggested(name: str, sentences: int) -> Event:
    """A set of suggestions was loaded: every annotator may have new ones."""
    return Event("suggestions", {"name": name, "sentences": sentences},
                 roles=frozenset({"annotator", "curator", "manager"}))


def wire(event: Event, number: int) -> str:
    """The event as the text/event-stream format sends it."""
    data = json.dumps(event.data, ensure_ascii=False, separators=(",", ":"))
    return f"id: {number}\nevent: {event.kind}\ndata: {data}\n\n"


DROPPED = Event("dropped", {"reason": "this page fell too far behind: reload it"})


@dataclass(eq=False)
class Listener:
    """One open stream: a user, their role, and the events waiting for them."""

    user: str
    role: str
    queue: asyncio.Queue[Event] = field(default_factory=lambda: asyncio.Queue(CAP + 1))
    dropped: bool = False

    def offer(self, event: Event) -> bool:
        """Queue the event (False, and the listener dropped, when it is full)."""
        if self.queue.qsize() >= CAP:
            while not self.queue.empty():  # what it missed is gone; it reloads instead
                self.queue.get_nowait()
            self.queue.put_nowait(DROPPED)
            self.dropped = True
            return False
        self.queue.put_nowait(event)
        return True

    async def next(self, timeout: float = KEEPALIVE) -> Event | None:
        """The next event, or None after `timeout` seconds without one."""
        try:
            return await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None


@dataclass
class Hub:
    """Every open stream of a site.  Called from the event loop only (the views are
    async), so no lock."""

    listeners: set[Listener] = field(default_factory=set)
    numbers: Iterator[int] = field(default_factory=lambda: count(1))

    @contextmanager
    def listening(self, user: str, role: str) -> Iterator[Listener]:
        listener = Listener(user, role)
        self.listeners.add(listener)
        try:
            yield listener
        finally:
            self.listeners.discard(listener)

    def publish(self, event: Event) -> None:
        for listener in list(self.listeners):
            if event.seen_by(listener.user, listener.role) and not listener.offer(event):
                self.listeners.discard(listener)


async def stream(listener: Listener, numbers: Iterator[int],
                 keepalive: float = KEEPALIVE) -> Any:
    """The text of the stream: a first comment (the page knows it is connected), then
    each event as it comes, a comment when idle; it ends after `dropped`."""
    yield ": connected\n\n"
    while True:
        event = await listener.next(keepalive)
        if event is None:
            yield ": keepalive\n\n"
            continue
        yield wire(event, next(numbers))
        if event is DROPPED:
            return
