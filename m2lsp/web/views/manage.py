"""The manager's: POST /api/source (the sentences of a project made without them), POST
/api/assignments (sentences to an annotator), GET /api/progress."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from m2lsp.web.assignments import assign, counted, given
from m2lsp.web.events import assigned, sourced
from m2lsp.web.project import sentence_count
from m2lsp.web.source import load
from m2lsp.web.views.common import body, session, site


async def source(request: Request) -> JSONResponse:
    found, here = session(request, "manager"), site(request)
    # in a thread: tokenising loads the language's pipeline, and the write waits for the disk
    data = await body(request)

    def work() -> dict[str, Any]:  # then the event's commit, which waits for the disk too
        made = load(here.project, data)
        here.log(found.user.name, f"source:{made['sentences']}")
        return made

    made = await run_in_threadpool(work)
    here.events.publish(sourced(made["sentences"]))
    return JSONResponse(made, status_code=201)


async def assignment(request: Request) -> JSONResponse:
    found, here = session(request, "manager"), site(request)
    data = await body(request)

    def work() -> dict[str, Any]:  # a layer made, and two commits: off the event loop
        made = assign(here.journal or here.db, here.project, data)
        here.log(found.user.name, f"assign:{made['user']}:{made['first']}-{made['last']}")
        return made

    made = await run_in_threadpool(work)
    here.events.publish(assigned(made["user"], made["first"], made["last"]))
    return JSONResponse(made, status_code=201)


async def watched(request: Request) -> JSONResponse:
    session(request, "manager")
    here = site(request)
    # the layers are read in a thread: cold, every layer of a large project takes seconds
    rows = await run_in_threadpool(counted, here.project, given(here.db))
    return JSONResponse({"sentences": sentence_count(here.project), "annotators": rows})


ROUTES = [Route("/api/source", source, methods=["POST"]),
          Route("/api/assignments", assignment, methods=["POST"]),
          Route("/api/progress", watched, methods=["GET"])]
