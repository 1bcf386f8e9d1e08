"""An annotator's own layer: GET /api/sentences, GET and PUT /api/sentences/{n}.  Only
their own layer and only their assigned sentences (blind annotation: no view here takes
another user's name)."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from m2lsp.web.assignments import assigned, is_assigned
from m2lsp.web.layers import Stale, change_of, save, shown
from m2lsp.web.layers import listed as listed_rows
from m2lsp.web.views.common import body, heard_saved, logged, session, site


async def listed(request: Request) -> JSONResponse:
    found, here = session(request, "annotator"), site(request)
    numbers = assigned(here.db, found.user.name)
    # reading a large layer the first time takes a while: in a thread, as saves are
    return JSONResponse(await run_in_threadpool(listed_rows, here.project, found.user.name,
                                                numbers))


def _number(request: Request, user: str) -> int:
    number: int = request.path_params["n"]
    if not is_assigned(site(request).db, user, number):
        raise HTTPException(403, f"sentence {number} is not assigned to you")
    return number


async def one(request: Request) -> JSONResponse:
    found = session(request, "annotator")
    number = _number(request, found.user.name)
    return JSONResponse(await run_in_threadpool(shown, site(request).project, found.user.name,
                                                number))


async def saved(request: Request) -> JSONResponse:
    found, here = session(request, "annotator"), site(request)
    number = _number(request, found.user.name)
    change = change_of(await body(request))
    try:
        # in a thread: a save and its event's commit wait for the disk (fsync), and the
        # other saves and requests need not
        result = await logged(here, found.user.name, "save", number, save, here.project,
                              found.user.name, number, change)
    except Stale as stale:
        return JSONResponse({"error": "the sentence changed since you loaded it (another tab "
                             "or window saved it): your change was not saved; here is the "
                             "current version", "current": stale.current}, status_code=409)
    heard_saved(here, found.user.name, number, result)
    return JSONResponse(result)


ROUTES = [Route("/api/sentences", listed, methods=["GET"]),
          Route("/api/sentences/{n:int}", one, methods=["GET"]),
          Route("/api/sentences/{n:int}", saved, methods=["PUT"])]
