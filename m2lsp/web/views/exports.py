"""GET /api/export/{which}?format=m2|bea-json|brat: the gold (`gold`: a curator or a
manager) or an annotator's layer (its name: a curator, a manager, or that annotator
alone), as a file to download; GET /api/exports: what there is to export."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from m2lsp.web.dashboard import unfinished_of
from m2lsp.web.exports import FORMATS, GOLD, exported
from m2lsp.web.views.common import session, site


async def export(request: Request) -> Response:
    found = session(request)
    which: str = request.path_params["which"]
    if found.user.role == "annotator" and which != found.user.name:
        raise HTTPException(403, "an annotator exports their own layer only")
    if which == GOLD and found.user.role == "annotator":
        raise HTTPException(403, "the gold is for a curator or manager")
    query = request.query_params
    made = exported(site(request).project, which, query.get("format", "m2"),
                    query.get("skip") == "1")
    return Response(made.content, media_type=made.media_type, headers={
        "Content-Disposition": f'attachment; filename="{made.filename}"',
        "X-M2lsp-Skipped": str(made.skipped)})


async def exportable(request: Request) -> JSONResponse:
    """The gold (when there is one), the layers and the formats, for the page's links."""
    session(request, "curator", "manager")
    project = site(request).project
    gold = project.gold.is_file()
    # in a thread: the gold is read through (seconds at 50,000 sentences)
    unfinished = await run_in_threadpool(unfinished_of, project) if gold else 0
    return JSONResponse({"gold": gold, "layers": project.layer_names(),
                         "formats": list(FORMATS), "unfinished": unfinished})


ROUTES = [Route("/api/export/{which}", export, methods=["GET"]),
          Route("/api/exports", exportable, methods=["GET"])]
