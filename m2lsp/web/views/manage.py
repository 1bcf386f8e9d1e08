"""The manager's: POST /api/source (the sentences of a project made without them), POST
/api/assignments (sentences to an annotator), POST /api/assignments/remove (taken back),
GET /api/progress."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from m2lsp.web.assignments import assign, counted, given, unassign
from m2lsp.web.events import assigned, sourced
from m2lsp.web.project import sentence_count
from m2lsp.web.source import load
from m2lsp.web.views.common import body, logged, session, site


async def source(request: Request) -> JSONResponse:
    found, here = session(request, "manager"), site(request)
    # in a thread: tokenising loads the language's pipeline, and the write waits for the disk
    made = await logged(here, found.user.name, lambda made: f"source:{made['sentences']}",
                        None, load, here.project, await body(request))
    here.events.publish(sourced(made["sentences"]))
    return JSONResponse(made, status_code=201)


async def assignment(request: Request) -> JSONResponse:
    found, here = session(request, "manager"), site(request)
    # in a thread: a layer made, and two commits
    made = await logged(here, found.user.name,
                        lambda made: f"assign:{made['user']}:{made['first']}-{made['last']}",
                        None, assign, here.writer, here.project, await body(request))
    here.events.publish(assigned(made["user"], made["first"], made["last"]))
    return JSONResponse(made, status_code=201)


async def unassignment(request: Request) -> JSONResponse:
    found, here = session(request, "manager"), site(request)
    made = await logged(here, found.user.name,
                        lambda made: f"unassign:{made['user']}:{made['first']}-{made['last']}",
                        None, unassign, here.writer, here.project, await body(request))
    here.events.publish(assigned(made["user"], made["first"], made["last"], removed=True))
    return JSONResponse(made)


async def watched(request: Request) -> JSONResponse:
    session(request, "manager")
    here = site(request)
    # the layers are read in a thread: cold, every layer of a large project takes seconds
    rows = await run_in_threadpool(counted, here.project, given(here.db))
    return JSONResponse({"sentences": sentence_count(here.project), "annotators": rows})


ROUTES = [Route("/api/source", source, methods=["POST"]),
          Route("/api/assignments", assignment, methods=["POST"]),
          Route("/api/assignments/remove", unassignment, methods=["POST"]),
          Route("/api/progress", watched, methods=["GET"])]
