"""Live updates (GET /api/events): server-sent events driven in process on one event loop
(the stream through the raw ASGI app, the writes through httpx's ASGI transport), blind
to other annotators' work, and bounded: a slow listener is dropped, never grows memory."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("starlette")

import httpx2 as httpx  # the test extra's HTTP client, as Starlette's test client takes it

from m2lsp.web.events import CAP, DROPPED, Event, Hub, stream
from tests.web.project import password, team

EDIT = "A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0"


async def _login(app, name: str) -> httpx.AsyncClient:
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t")
    answer = await client.post("/login", json={"name": name, "password": password(name)})
    assert answer.status_code == 200, answer.text
    client.headers["X-CSRF-Token"] = answer.json()["csrf"]
    return client


class Stream:
    """GET /api/events through the raw ASGI app: what it sends, until `leave()`."""

    def __init__(self, app, cookie: str) -> None:
        self.app, self.cookie = app, cookie
        self.left = asyncio.Event()
        self.status: int | None = None
        self.text = ""
        self.task: asyncio.Task | None = None

    async def start(self) -> None:
        scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"},
                 "http_version": "1.1", "method": "GET", "scheme": "http", "path": "/api/events",
                 "raw_path": b"/api/events", "query_string": b"", "root_path": "",
                 "headers": [(b"host", b"t"), (b"cookie", self.cookie.encode())],
                 "client": ("127.0.0.1", 1), "server": ("t", 80)}
        self.task = asyncio.create_task(self.app(scope, self._receive, self._send))
        await self.until(": connected")

    async def _receive(self):
        await self.left.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
        else:
            self.text += message.get("body", b"").decode()

    async def until(self, needle: str) -> None:
        for _ in range(200):
            if needle in self.text or (self.task and self.task.done()):
                return
            await asyncio.sleep(0.005)

    def events(self) -> list[tuple[str, dict]]:
        found = []
        for chunk in self.text.split("\n\n"):
            fields = dict(line.split(": ", 1) for line in chunk.splitlines()
                          if not line.startswith(":") and ": " in line)
            if "event" in fields:
                found.append((fields["event"], json.loads(fields["data"])))
        return found

    async def leave(self) -> None:
        self.left.set()
        assert self.task is not None
        await asyncio.wait_for(self.task, 5)


def _cookie(client: httpx.AsyncClient) -> str:
    return "; ".join(f"{k}={v}" for k, v in client.cookies.items())


async def _save(client: httpx.AsyncClient, number: int, lines: list[str]) -> None:
    version = (await client.get(f"/api/sentences/{number}")).json()["version"]
    answer = await client.put(f"/api/sentences/{number}",
                              json={"version": version, "edits": lines})
    assert answer.status_code == 200, answer.text


def test_saves_decisions_and_assignments_reach_the_pages_that_may_see_them(tmp_path):
    site = team(tmp_path)

    async def run():
        clients = {n: await _login(site.app, n) for n in ("ann", "bob", "cur", "boss")}
        other_tab = await _login(site.app, "ann")
        streams = {n: Stream(site.app, _cookie(c)) for n, c in clients.items()}
        for s in streams.values():
            await s.start()
        await _save(other_tab, 1, [EDIT])
        took = await clients["cur"].post("/api/curation", json={"action": "accept-agreed"})
        assert took.status_code == 200, took.text
        made = await clients["boss"].post("/api/assignments",
                                          json={"user": "bob", "first": 2, "last": 2})
        assert made.status_code == 201
        for s in streams.values():
            await s.until("event: assigned")
            await asyncio.sleep(0.02)
            await s.leave()
        return {n: [(k, d.get("user"), d.get("sentence")) for k, d in s.events()]
                for n, s in streams.items()}, streams["ann"].status

    heard, status = asyncio.run(run())
    assert status == 200
    assert heard["ann"] == [("saved", "ann", 1)]  # her other tab's save
    assert heard["bob"] == [("assigned", "bob", None)]  # never ann's work
    assert heard["cur"] == [("saved", "ann", 1), ("decided", "cur", None)]
    assert heard["boss"] == [("saved", "ann", 1), ("decided", "cur", None),
                             ("assigned", "bob", None)]
    assert site.app.state.site.events.listeners == set()  # each left: none kept


def test_a_stream_needs_a_session(tmp_path):
    assert team(tmp_path).client().get("/api/events").status_code == 401


def test_a_slow_listener_is_dropped_and_never_holds_more_than_the_cap():
    hub = Hub()

    async def run():
        with hub.listening("ann", "annotator") as slow, hub.listening("cur", "curator") as fast:
            for number in range(CAP * 3):
                hub.publish(Event("saved", {"sentence": number}, roles=frozenset({"annotator",
                                                                                  "curator"})))
                assert slow.queue.qsize() <= CAP + 1
                await fast.next(0.1)  # the fast one keeps up
            assert slow.dropped and slow not in hub.listeners and fast in hub.listeners
            sent = [chunk async for chunk in stream(slow, hub.numbers, keepalive=0.01)]
            return sent

    sent = asyncio.run(run())
    assert sent[0] == ": connected\n\n" and len(sent) == 2  # connected, then dropped: no more
    assert "event: dropped" in sent[-1] and DROPPED.kind == "dropped"


def test_an_idle_stream_sends_a_keepalive_comment():
    hub = Hub()

    async def run():
        with hub.listening("ann", "annotator") as listener:
            chunks = stream(listener, hub.numbers, keepalive=0.01)
            return [await anext(chunks), await anext(chunks)]

    assert asyncio.run(run()) == [": connected\n\n", ": keepalive\n\n"]


@pytest.mark.parametrize(("path", "body", "before"), [
    ("type", {"edit": 0, "type": "R:VERB"}, EDIT),
    ("required", {"edit": 0, "required": False}, EDIT),
    ("edits", {"start": 3, "end": 4, "correction": "exam"}, EDIT),
    ("fix", {"finding": 0}, EDIT.replace("|||is|||", "|||is |||")),  # M404's fix
])
def test_a_change_made_by_a_click_is_heard_as_a_save(tmp_path, path, body, before):
    """A type chosen, REQUIRED unticked, an edit added from the tokens or a finding's
    quick fix is a save: the curator and the manager hear of it, as of a typed
    correction."""
    site = team(tmp_path)

    async def run():
        ann = await _login(site.app, "ann")
        await _save(ann, 1, [before])
        streams = {n: Stream(site.app, _cookie(await _login(site.app, n)))
                   for n in ("cur", "boss")}
        for s in streams.values():
            await s.start()
        version = (await ann.get("/api/sentences/1")).json()["version"]
        answer = await ann.post(f"/api/sentences/1/{path}", json={"version": version, **body})
        assert answer.status_code == 200, answer.text
        for s in streams.values():
            await s.until("event: saved")
            await s.leave()
        return {n: s.events() for n, s in streams.items()}, answer.json()["version"]

    heard, version = asyncio.run(run())
    for events in heard.values():
        assert events == [("saved", {"user": "ann", "sentence": 1, "version": version,
                                     "done": True})]
