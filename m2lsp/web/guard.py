"""The ASGI middleware every request passes: a body size limit (413), the session from its
cookie, and the CSRF check on every write (a per-session token in a header, as the page
sends it; a cross-site form can send neither the header nor a JSON body)."""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from m2lsp.web.site import Site

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
COOKIE = "m2lsp_session"
CSRF_HEADER = "x-csrf-token"
NO_SESSION_NEEDED = frozenset({"/login"})


class Guard:
    def __init__(self, app: ASGIApp, site: Site) -> None:
        self.app, self.site = app, site

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        body = await _body(scope, receive, self.site.max_body)
        if body is None:
            await _refuse(send, 413, f"the body is larger than {self.site.max_body} bytes")
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope["headers"]}
        session = self.site.session(_cookie(headers.get("cookie", ""), COOKIE))
        scope.setdefault("state", {})["session"] = session
        refused = _refusal(scope["method"], scope["path"], headers, session, body)
        if refused:
            await _refuse(send, *refused)
            return
        # a read passes the client's own receive on: a stream (GET /api/events) hears the
        # client leave through it
        await self.app(scope, receive if scope["method"] in SAFE else _replay(body), send)


def _refusal(method: str, path: str, headers: dict[str, str], session: Any,
             body: bytes) -> tuple[int, str] | None:
    """Why a request is refused before any view sees it, if it is."""
    if method in SAFE:
        return None
    if body and headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return 415, "a write's body is JSON (Content-Type: application/json)"
    if path in NO_SESSION_NEEDED:
        return None
    if session is None:
        return 401, "log in first"
    if not secrets.compare_digest(headers.get(CSRF_HEADER, ""), session.csrf):
        return 403, "the CSRF token is missing or wrong (send it in X-CSRF-Token)"
    return None


async def _body(scope: Scope, receive: Receive, most: int) -> bytes | None:
    """The whole request body, or None past `most` bytes (the rest left unread)."""
    if scope["method"] in SAFE:
        return b""
    declared = dict(scope["headers"]).get(b"content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > most):
        return None
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > most:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes) -> Receive:
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive


def _cookie(header: str, name: str) -> str | None:
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


async def _refuse(send: Send, status: int, message: str) -> None:
    data = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})
