"""The Starlette app of one project: the views' routes behind the guard (body limit,
session, CSRF), and the room's errors as JSON statuses."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse

from m2lsp.errors import M2lspError
from m2lsp.web import curating
from m2lsp.web.db import connect
from m2lsp.web.engines import loaded
from m2lsp.web.guard import Guard
from m2lsp.web.layers import Stale, warm
from m2lsp.web.project import open_project
from m2lsp.web.site import MAX_BODY, Site
from m2lsp.web.views import (
    auth,
    curation,
    dashboard,
    events,
    exports,
    manage,
    pages,
    sentences,
    suggestions,
    tokens,
)


def build_app(root: Path, *, secure: bool = False, max_body: int = MAX_BODY,
              types: bool = True) -> Starlette:
    """The app serving the project in `root` (`secure`: cookies only over HTTPS; `types`:
    realigned edits typed by ERRANT or ChERRANT where installed, else by the plain
    alignment's default type)."""
    project = open_project(root)
    if types:
        project = replace(project, engines=loaded(project.root, project.language))
    site = Site(project, connect(project.database), secure, max_body,
                journal=connect(project.database))
    app = Starlette(routes=[*auth.ROUTES, *sentences.ROUTES, *curation.ROUTES,
                            *manage.ROUTES, *events.ROUTES,
                            *dashboard.ROUTES,
                            *exports.ROUTES,
                            *suggestions.ROUTES,
                            *tokens.ROUTES,
                            *pages.ROUTES],
                    middleware=[Middleware(Guard, site=site)],
                    exception_handlers={HTTPException: _http, M2lspError: _refused,
                                        LookupError: _missing, Stale: _stale})
    app.state.site = site
    warm(project.engines)
    project.store.warm([project.source, *map(project.layer, project.layer_names())])
    app.state.curation_warm = curating.warm(project)  # joined by tests
    return app


async def _http(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code)


async def _refused(request: Request, exc: Exception) -> JSONResponse:
    """A request the room refuses (bad input, a decision that cannot be made): 400."""
    return JSONResponse({"error": str(exc)}, status_code=400)


async def _missing(request: Request, exc: Exception) -> JSONResponse:
    return JSONResponse({"error": "no such sentence"}, status_code=404)


async def _stale(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, Stale)
    return JSONResponse({"error": "stale", "current": exc.current}, status_code=409)
