"""POST /login, POST /logout, GET /api/me."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from m2lsp.web.accounts import SESSION_SECONDS, close_session, open_session, verified
from m2lsp.web.db import log_event
from m2lsp.web.guard import COOKIE
from m2lsp.web.names import is_name
from m2lsp.web.views.common import body, session, site


async def login(request: Request) -> JSONResponse:
    data, here = await body(request), site(request)
    name, password = _credentials(data)
    keys = (f"user:{name}", f"address:{request.client.host if request.client else '-'}")
    if here.logins.blocked(*keys):
        raise HTTPException(429, "too many failed logins: wait a minute")
    # argon2 takes its time and memory on purpose: in a thread, so that the other pages'
    # requests are not held up meanwhile (a read of the database only)
    user = await run_in_threadpool(verified, here.db, name, password)
    if user is None:
        here.logins.failed(*keys)
        raise HTTPException(401, "wrong name or password")
    opened = open_session(here.db, user)
    log_event(here.db, user.name, "login")
    response = JSONResponse({"user": user.name, "role": user.role, "csrf": opened.csrf})
    response.set_cookie(COOKIE, opened.token, max_age=SESSION_SECONDS, httponly=True,
                        samesite="strict", secure=here.secure, path="/")
    return response


def _credentials(data: object) -> tuple[str, str]:
    """The name and password a login body gives (400 for any other body)."""
    name = data.get("name") if isinstance(data, dict) else None
    password = data.get("password") if isinstance(data, dict) else None
    if not isinstance(name, str) or not is_name(name) or not isinstance(password, str):
        raise HTTPException(400, "the body is a JSON object: name, password")
    return name, password


async def logout(request: Request) -> JSONResponse:
    found = session(request)
    close_session(site(request).db, found.token)
    response = JSONResponse({"user": None})
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict",
                           secure=site(request).secure)
    return response


async def me(request: Request) -> JSONResponse:
    found = session(request)
    return JSONResponse({"user": found.user.name, "role": found.user.role,
                         "csrf": found.csrf})


ROUTES = [Route("/login", login, methods=["POST"]), Route("/logout", logout, methods=["POST"]),
          Route("/api/me", me, methods=["GET"])]
