"""Fixing the source's tokens from an annotator's sentence: POST /api/sentences/{n}/split
and /join (see `m2lsp.web.retokenising`: every file holding the sentence is rewritten,
and each annotator whose layer moved hears of it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from m2lsp.web.db import log_event
from m2lsp.web.events import retokenised
from m2lsp.web.layers import Stale
from m2lsp.web.retokenising import Done, join, split
from m2lsp.web.suggestions import renamed
from m2lsp.web.views.common import body, session, site
from m2lsp.web.views.sentences import _number


async def splitting(request: Request) -> JSONResponse:
    return await _retokenise(request, split, "split")


async def joining(request: Request) -> JSONResponse:
    return await _retokenise(request, join, "join")


async def _retokenise(request: Request, work: Callable[..., Done], action: str
                      ) -> JSONResponse:
    found, here = session(request, "annotator"), site(request)
    number = _number(request, found.user.name)
    data: Any = await body(request)
    # in a thread: it writes every layer, each waiting for the disk
    try:
        done = await run_in_threadpool(work, here.project, found.user.name, number, data)
    except Stale as stale:
        return JSONResponse({"error": "the sentence changed since you loaded it (another tab "
                             "or window saved it): its tokens were not changed; here is the "
                             "current version", "current": stale.current}, status_code=409)
    renamed(here.db, number, done.suggestions)
    await run_in_threadpool(log_event, here.db, found.user.name, action, number)
    for user, (version, is_done) in done.versions.items():
        here.events.publish(retokenised(user, number, version, is_done))
    return JSONResponse({**done.sentence, "straddled": list(done.notes)})


ROUTES = [Route("/api/sentences/{n:int}/split", splitting, methods=["POST"]),
          Route("/api/sentences/{n:int}/join", joining, methods=["POST"])]
