"""The pages and what they ask beyond the JSON API of the other views: GET / (the one
page, `static/index.html`; the bundle routes by role and `#N`), the bundle's two files,
GET /api/types (the taxonomy offered); on an annotator's sentence, an edit for selected
tokens, an edit's type set by hand, a finding's quick fix and notes; the curator's
overview and side-by-side sentence."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from m2lsp.web.annotator import fixed, required, retyped, with_edit
from m2lsp.web.curator import overview, sentence
from m2lsp.web.display import taxonomy_of
from m2lsp.web.notes import noted, notes_of
from m2lsp.web.views.common import body, heard_saved, logged, session, site
from m2lsp.web.views.sentences import _number

STATIC = Path(__file__).resolve().parents[1] / "static"
ASSETS = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8"}
POLICY = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"


async def page(request: Request) -> Response:
    return _file("index.html", "text/html; charset=utf-8")


async def asset(request: Request) -> Response:
    """One of the bundle's files, by a name from a fixed list (no path from the request)."""
    name = request.path_params["name"]
    if name not in ASSETS:
        raise HTTPException(404, "no such file")
    return _file(name, ASSETS[name])


def _file(name: str, kind: str) -> Response:
    return Response((STATIC / name).read_bytes(), media_type=kind, headers={
        "Cache-Control": "no-cache", "Content-Security-Policy": POLICY,
        "X-Content-Type-Options": "nosniff"})


async def types(request: Request) -> JSONResponse:
    session(request)
    found = taxonomy_of(site(request).project.language)
    return JSONResponse({"taxonomy": found.title,
                         "types": [[name, meaning] for name, meaning in found.types.items()
                                   if name != "noop"]})


async def retype(request: Request) -> JSONResponse:
    return await _changed(request, retyped, "retype")


async def required_set(request: Request) -> JSONResponse:
    return await _changed(request, required, "required")


async def edit(request: Request) -> JSONResponse:
    return await _changed(request, with_edit, "edit")


async def fix(request: Request) -> JSONResponse:
    return await _changed(request, fixed, "fix")


async def _changed(request: Request, work: Callable[..., Any], event: str) -> JSONResponse:
    """An annotator's change of their sentence by `work(project, user, number, body)`, in
    a thread as a save of the corrected text is (the write waits for the disk), logged as
    `event`."""
    found, here = session(request, "annotator"), site(request)
    number = _number(request, found.user.name)
    result = await logged(here, found.user.name, event, number, work, here.project,
                          found.user.name, number, await body(request))
    # a save as any other: the curator's page, the manager's and the annotator's other tabs
    heard_saved(here, found.user.name, number, result)
    return JSONResponse(result)


async def notes(request: Request) -> JSONResponse:
    found, here = session(request, "annotator"), site(request)
    number = _number(request, found.user.name)
    if request.method == "GET":
        return JSONResponse({"notes": notes_of(here.project, found.user.name, number)})
    result = await logged(here, found.user.name, "note", number, noted, here.project,
                          found.user.name, number, await body(request))
    return JSONResponse({"notes": result})


async def curating(request: Request) -> JSONResponse:
    session(request, "curator")
    return JSONResponse(await run_in_threadpool(overview, site(request).project))


async def curating_one(request: Request) -> JSONResponse:
    session(request, "curator")
    return JSONResponse(await run_in_threadpool(sentence, site(request).project,
                                                request.path_params["n"]))


ROUTES = [Route("/", page, methods=["GET"]),
          Route("/static/{name}", asset, methods=["GET"]),
          Route("/api/types", types, methods=["GET"]),
          Route("/api/sentences/{n:int}/type", retype, methods=["POST"]),
          Route("/api/sentences/{n:int}/required", required_set, methods=["POST"]),
          Route("/api/sentences/{n:int}/edits", edit, methods=["POST"]),
          Route("/api/sentences/{n:int}/fix", fix, methods=["POST"]),
          Route("/api/sentences/{n:int}/notes", notes, methods=["GET", "POST"]),
          Route("/api/curating", curating, methods=["GET"]),
          Route("/api/curating/{n:int}", curating_one, methods=["GET"])]
