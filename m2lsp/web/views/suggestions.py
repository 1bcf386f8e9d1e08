"""Suggestions: GET /api/suggestions (the sets loaded), POST /api/suggestions (a manager
loads one), GET /api/suggestions/{n} (an annotator's offered suggestions of an assigned
sentence), POST /api/suggestions/{n} (accept or reject one)."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from m2lsp.web.assignments import is_assigned
from m2lsp.web.events import suggested
from m2lsp.web.suggestions import decide, load, offered, set_names
from m2lsp.web.views.common import body, heard_saved, logged, named, session, site


async def sets(request: Request) -> JSONResponse:
    session(request)
    return JSONResponse({"sets": set_names(site(request).project)})


async def loaded(request: Request) -> JSONResponse:
    found, here = session(request, "manager"), site(request)
    # in a thread: aligning and typing a system's output takes a while
    made = await logged(here, found.user.name, lambda made: f"suggestions:{made['name']}",
                        None, load, here.project, await body(request))
    here.events.publish(suggested(made["name"], made["sentences"]))
    return JSONResponse(made, status_code=201)


def _number(request: Request, user: str) -> int:
    number: int = request.path_params["n"]
    if not is_assigned(site(request).db, user, number):
        raise HTTPException(403, f"sentence {number} is not assigned to you")
    return number


async def listed(request: Request) -> JSONResponse:
    found, here = session(request, "annotator"), site(request)
    number = _number(request, found.user.name)
    return JSONResponse({"suggestions": [s.to_dict() for s in offered(
        here.db, here.project, found.user.name, number)]})


async def decision(request: Request) -> JSONResponse:
    found, here = session(request, "annotator"), site(request)
    number = _number(request, found.user.name)
    data = await body(request)
    # in a thread: an acceptance is a save, and the decision's commit waits for the disk
    result = await logged(here, found.user.name, f"suggestion:{named(data, 'decision')}",
                          number, decide, here.writer, here.project, found.user.name, number,
                          data)
    if data["decision"] == "accept":
        heard_saved(here, found.user.name, number, result["sentence"])
    return JSONResponse(result)


ROUTES = [Route("/api/suggestions", sets, methods=["GET"]),
          Route("/api/suggestions", loaded, methods=["POST"]),
          Route("/api/suggestions/{n:int}", listed, methods=["GET"]),
          Route("/api/suggestions/{n:int}", decision, methods=["POST"])]
