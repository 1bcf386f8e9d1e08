"""GET /api/events: the live updates a page hears (server-sent events), filtered by who
is logged in (see `m2lsp.web.events`)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import StreamingResponse
from starlette.routing import Route

from m2lsp.web.events import stream
from m2lsp.web.views.common import session, site


async def events(request: Request) -> StreamingResponse:
    found, hub = session(request), site(request).events

    async def body():  # type: ignore[no-untyped-def]
        with hub.listening(found.user.name, found.user.role) as listener:
            async for chunk in stream(listener, hub.numbers):
                yield chunk

    return StreamingResponse(body(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


ROUTES = [Route("/api/events", events, methods=["GET"])]
