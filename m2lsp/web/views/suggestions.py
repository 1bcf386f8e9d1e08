"""Suggestions: GET /api/suggestions (the sets loaded), POST /api/suggestions (a manager
loads one), GET /api/suggestions/{n} (an annotator's offered suggestions of an assigned
sentence), POST /api/suggestions/{n} (accept or reject one)."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from m2lsp.web.assignments import is_assigned
from m2lsp.web.events import saved, suggested
from m2lsp.web.suggestions import decide, load, offered, set_names
from m2lsp.web.views.common import body, logged, session, site


async def sets(request: Request) -> JSONResponse:
    session(request)
    return JSONResponse({"sets": set_names(site(request).project)})


async def loaded(request: Request) -> JSONResponse:
    found, here = session(request, "manager"), site(request)
    # in a thread: aligning and typing a system's output takes a while
    data = await body(request)

    def work() -> dict[str, Any]:  # aligning and typing, then the event's commit
        made = load(here.project, data)
        here.log(found.user.name, f"suggestions:{made['name']}")
        return made

    made = await run_in_threadpool(work)
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
    result = await logged(here, found.user.name, f"suggestion:{_decision(data)}", number,
                          decide, here.journal or here.db, here.project, found.user.name,
                          number, data)
    if data["decision"] == "accept":
        shown = result["sentence"]
        here.events.publish(saved(found.user.name, number, shown["version"],
                                  bool(shown["edits"])))
    return JSONResponse(result)


def _decision(data: object) -> str:
    """The decision a body names, for its event (`decide` refuses a body without one)."""
    return str(data.get("decision")) if isinstance(data, dict) else ""


ROUTES = [Route("/api/suggestions", sets, methods=["GET"]),
          Route("/api/suggestions", loaded, methods=["POST"]),
          Route("/api/suggestions/{n:int}", listed, methods=["GET"]),
          Route("/api/suggestions/{n:int}", decision, methods=["POST"])]
