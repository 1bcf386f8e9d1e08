"""`m2lsp serve --tcp`: a port anyone on the machine can reach, so it serves the invoking
user only.  The server holds a token (`M2LSP_TOKEN`, else a random one it writes to
`--token-file` with mode 0600, or prints); a connection's first message must be
`initialize` carrying it (`initializationOptions: {"m2lsp": {"token": ...}}`), else it is
answered with an error and closed.  One client at a time; once one is in, commands read
only files inside its workspace or documents it opened (`M2Server.unreadable`)."""

from __future__ import annotations

import asyncio
import copy
import hmac
import json
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

TOKEN_ENV = "M2LSP_TOKEN"
NOT_AUTHORISED = -32600


def server_token(token_file: Path | None) -> tuple[str, bool]:
    """The token clients must pass: $M2LSP_TOKEN, else a new random one (written to
    `token_file`, readable by its owner only, when given); and whether it is new."""
    given = os.environ.get(TOKEN_ENV, "")
    token, made = (given, False) if given else (secrets.token_urlsafe(32), True)
    if token_file is not None:
        descriptor = os.open(token_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as out:
            os.fchmod(out.fileno(), 0o600)  # an existing file keeps its mode otherwise
            out.write(token + "\n")
    return token, made


class Gate:
    """One connection's way in: its first message must be `initialize` with the token."""

    def __init__(self, token: str, writer: asyncio.StreamWriter, busy: Callable[[], bool],
                 bind: Callable[[], None]) -> None:
        self.token, self.writer = token, writer
        self.busy, self.bind = busy, bind
        self.opened = False

    def admit(self, raw: Any) -> dict | None:
        """The message without its token when it opens the connection, else None (the
        client is answered why)."""
        msg_id = raw.get("id") if isinstance(raw, dict) else None
        if not isinstance(raw, dict) or raw.get("method") != "initialize":
            return self._refuse(msg_id, "the first message must be initialize, with the "
                                "token in initializationOptions.m2lsp.token")
        given = _token_of(raw)
        if not isinstance(given, str) or not hmac.compare_digest(
                given.encode("utf-8", "replace"), self.token.encode("utf-8")):
            return self._refuse(msg_id, "initialize carries no token, or not this server's "
                                "(initializationOptions.m2lsp.token)")
        if self.busy():
            return self._refuse(msg_id, "another client is connected")
        self.opened = True
        self.bind()
        return _without_token(raw)

    def _refuse(self, msg_id: Any, why: str) -> dict | None:
        """Tell the client why it is refused; None (the refused message)."""
        if not isinstance(msg_id, int | str) or isinstance(msg_id, bool):
            msg_id = None
        body = json.dumps({"jsonrpc": "2.0", "id": msg_id, "error": {
            "code": NOT_AUTHORISED, "message": f"m2lsp serve --tcp: not authorised: {why}"}})
        data = body.encode("utf-8")
        self.writer.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        return None


def _options(raw: dict) -> dict | None:
    params = raw.get("params")
    options = params.get("initializationOptions") if isinstance(params, dict) else None
    return options if isinstance(options, dict) else None


def _token_of(raw: dict) -> Any:
    options = _options(raw) or {}
    section = options.get("m2lsp")
    return section.get("token") if isinstance(section, dict) else options.get("token")


def _without_token(raw: dict) -> dict:
    """The message with its token taken out (it is no setting, and is logged nowhere)."""
    raw = copy.deepcopy(raw)
    options = _options(raw) or {}
    options.pop("token", None)
    if isinstance(options.get("m2lsp"), dict):
        options["m2lsp"].pop("token", None)
    return raw
