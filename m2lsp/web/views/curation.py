"""The curator's: GET /api/layers/{n} (every annotator's edits of a sentence), POST
/api/curation/{n} (a decision on it) and POST /api/curation (accept-agreed)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from m2lsp.web.curating import decided, layers_of
from m2lsp.web.events import decided as decided_event
from m2lsp.web.views.common import body, logged, named, session, site


async def layers(request: Request) -> JSONResponse:
    session(request, "curator")
    return JSONResponse(layers_of(site(request).project, request.path_params["n"]))


async def decision(request: Request) -> JSONResponse:
    found, here = session(request, "curator"), site(request)
    number = request.path_params.get("n")
    data = await body(request)
    # in a thread: a decision may open the whole curation, and waits for the disk
    result = await logged(here, found.user.name, f"curate:{named(data, 'action')}", number, decided,
                          here.project, number, data, found.user.name)
    here.events.publish(decided_event(found.user.name, data["action"], number))
    return JSONResponse(result)


ROUTES = [Route("/api/layers/{n:int}", layers, methods=["GET"]),
          Route("/api/curation/{n:int}", decision, methods=["POST"]),
          Route("/api/curation", decision, methods=["POST"])]
