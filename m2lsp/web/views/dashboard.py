"""The curator's and manager's numbers: GET /api/agreement (the agreement dashboard) and
POST /api/score (a system's output against the gold)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from m2lsp.web.dashboard import agreement_of, options_of, score_of
from m2lsp.web.views.common import body, session, site


async def agreement(request: Request) -> JSONResponse:
    session(request, "curator", "manager")
    from m2lsp.scoring.metric import agreeing

    metric, beta = options_of(request.query_params, agreeing())
    return JSONResponse(agreement_of(site(request).project, metric, beta))


async def scored(request: Request) -> JSONResponse:
    session(request, "curator", "manager")
    return JSONResponse(score_of(site(request).project, await body(request)))


ROUTES = [Route("/api/agreement", agreement, methods=["GET"]),
          Route("/api/score", scored, methods=["POST"])]
