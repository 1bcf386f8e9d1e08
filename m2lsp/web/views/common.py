"""What every view shares: the site, the session and its role, a JSON body."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request

from m2lsp.web.accounts import Session
from m2lsp.web.site import Site


def site(request: Request) -> Site:
    found: Site = request.app.state.site
    return found


def session(request: Request, *roles: str) -> Session:
    """The request's session (401 without one; 403 when its role is not one of `roles`)."""
    found: Session | None = request.scope.get("state", {}).get("session")
    if found is None:
        raise HTTPException(401, "log in first")
    if roles and found.user.role not in roles:
        raise HTTPException(403, f"this is for a {' or '.join(roles)}")
    return found


async def body(request: Request) -> Any:
    """The JSON body (400 when it is not JSON)."""
    try:
        return json.loads(await request.body())
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise HTTPException(400, "the body is not JSON") from None


async def logged(here: Site, user: str, event: str | Callable[[Any], str],
                 number: int | None, work: Callable[..., Any], *args: Any) -> Any:
    """`work(*args)` in a worker thread, then its event (or the one `event` names from
    the result) written there too, through the site's journal: a file's write and a commit
    both wait for the disk, and the event loop, answering everyone else, does not."""
    def both() -> Any:
        result = work(*args)
        here.log(user, event if isinstance(event, str) else event(result), number)
        return result

    return await run_in_threadpool(both)


def named(data: object, field: str) -> str:
    """What a body names in `field`, for an event's name ("" for a body that is not an
    object: the work refuses it before any event is written)."""
    return str(data.get(field)) if isinstance(data, dict) else ""


def heard_saved(here: Site, user: str, number: int, shown: dict[str, Any]) -> None:
    """The other pages hear of a save: `shown` is the sentence as the save left it."""
    from m2lsp.web.events import saved

    here.events.publish(saved(user, number, shown["version"], bool(shown["edits"])))
