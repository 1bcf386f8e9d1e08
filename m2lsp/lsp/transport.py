"""Reading JSON-RPC frames from the client, robustly.

pygls's own loop (pygls 2.1) drops a message it cannot parse or structure without an answer,
and one frame with a bad `Content-Length` leaves it reading bodies as headers for ever.  Here:
- a body that is not JSON is answered with a parse error (-32700, id null);
- a request whose params do not fit its method is answered with invalid params (-32602)
  under its id (a notification cannot be answered: it is logged);
- a request after `shutdown` is answered with invalid request (-32600), as LSP asks;
- a bad header is answered with a parse error, and reading resynchronises on the next
  `Content-Length` header, even one glued to the end of the bad frame's body;
- a body is read in chunks, so memory follows what arrives, not what a header announces;
- at `shutdown`, requests still pending are cancelled here, over a copy of pygls's table
  (pygls 2.1 cancels them while iterating over the table their callbacks remove them
  from: "dictionary changed size during iteration", and the server exits with 1);
- a request whose id is neither a string, a number nor null is refused (-32600, id null):
  an id JSON-RPC does not allow is not echoed;
- over stdio, a thread reads ahead (`ReadAhead`), so the server knows when more input is
  already waiting (`ReadAhead.waiting`): a publication of diagnostics then waits, and a
  burst of keystrokes is applied change by change, then linted and published once, for
  its newest version.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
from collections.abc import Awaitable, Callable
from typing import Any, BinaryIO, Protocol

from lsprotocol import types

log = logging.getLogger(__name__)

# at the end of a line: after a bad frame, the next header follows the unread body directly
_LENGTH = re.compile(rb"Content-Length:[ \t]*(\d+)[ \t]*\r?\n?$", re.IGNORECASE)
_CHUNK = 1 << 20
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602


class Reader(Protocol):
    def readline(self) -> Awaitable[bytes]: ...

    def readexactly(self, n: int) -> Awaitable[bytes]: ...


class ReadAhead:
    """Reads a byte stream in a thread of its own, as fast as it arrives (at most `limit`
    bytes ahead of the reader); `readline` and `readexactly` answer from what is read, and
    `waiting` says whether more has arrived than was read."""

    def __init__(self, stream: BinaryIO, limit: int = 64 * _CHUNK) -> None:
        self.stream, self.limit = stream, limit
        self.buffer = bytearray()
        self.ended = False
        self.lock = threading.Condition()
        self.arrived: asyncio.Event | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.arrived = asyncio.Event()
        threading.Thread(target=self._pump, name="m2lsp-stdin", daemon=True).start()

    def _pump(self) -> None:
        read = getattr(self.stream, "read1", self.stream.read)
        while True:
            try:
                data = read(_CHUNK)
            except (OSError, ValueError):  # closed under us
                data = b""
            with self.lock:
                while len(self.buffer) > self.limit and data:
                    self.lock.wait()
                self.buffer += data
                self.ended = not data
            assert self.loop is not None and self.arrived is not None
            try:
                self.loop.call_soon_threadsafe(self.arrived.set)
            except RuntimeError:  # the loop is closed: the server is ending
                return
            if not data:
                return

    async def _wait(self, enough: Callable[[], int | None]) -> bytes:
        """The first `enough()` bytes of the buffer once it says how many (None: not yet),
        or what is left at the end of the stream."""
        assert self.arrived is not None
        while True:
            with self.lock:
                n = enough()
                if n is None and self.ended:
                    n = len(self.buffer)
                if n is not None:
                    out = bytes(self.buffer[:n])
                    del self.buffer[:n]
                    self.lock.notify()
                    return out
                self.arrived.clear()
            await self.arrived.wait()

    def waiting(self) -> bool:
        """Whether input has arrived that was not read yet."""
        return bool(self.buffer)

    async def readline(self) -> bytes:
        def line() -> int | None:
            end = self.buffer.find(b"\n")
            return None if end < 0 else end + 1
        return await self._wait(line)

    async def readexactly(self, n: int) -> bytes:
        return await self._wait(lambda: n if len(self.buffer) >= n else None)


async def serve(reader: Reader, protocol: Any, stop: threading.Event, gate: Any = None
                ) -> None:
    """Read frames until the client closes its end (or `stop` is set, or `gate` refuses
    it: `tcp.Gate`) and hand each body to `dispatch`."""
    length: int | None = None
    while not stop.is_set():
        line = await reader.readline()
        if not line:
            return
        if (found := _LENGTH.search(line)) is not None:
            length = int(found.group(1))
        elif line.lower().startswith(b"content-length"):
            answer_error(protocol, None, PARSE_ERROR, f"bad header {line[:80]!r}")
            length = None
        elif not line.strip() and length is not None:
            body = await _read_body(reader, length)
            if body is None:
                return
            length = None
            if not dispatch(protocol, body, gate):
                return
            await asyncio.sleep(0)  # what the message set going runs before the next


async def _read_body(reader: Reader, length: int) -> bytes | None:
    """`length` bytes, or None when the stream ends first."""
    parts = []
    left = length
    while left:
        chunk = await reader.readexactly(min(left, _CHUNK))
        if not chunk:
            return None
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


def dispatch(protocol: Any, body: bytes, gate: Any = None) -> bool:
    """One message body: structured and handled, or answered with why it cannot be; False
    when `gate` refuses the connection."""
    try:
        raw = json.loads(body)
    except (ValueError, RecursionError) as exc:
        raw = None
        if gate is None or gate.opened:
            answer_error(protocol, None, PARSE_ERROR, f"not JSON: {exc}")
            return True
    if gate is not None and not gate.opened:
        raw = gate.admit(raw)
        if raw is None:
            return False
    _dispatch(protocol, raw)
    return True


def _dispatch(protocol: Any, raw: Any) -> None:
    if not isinstance(raw, dict):
        answer_error(protocol, None, INVALID_REQUEST, "a message is a JSON object")
        return
    msg_id = raw.get("id")
    if msg_id is not None and (not isinstance(msg_id, int | float | str)
                               or isinstance(msg_id, bool)):
        why = f"an id is a string, a number or null, not {json.dumps(msg_id)[:80]}"
        if "method" in raw:
            answer_error(protocol, None, INVALID_REQUEST, why)
        else:  # a response: nothing to answer
            log.warning("message dropped: %s", why)
        return
    if raw.get("jsonrpc") != "2.0":
        answer_error(protocol, msg_id, INVALID_REQUEST, 'not JSON-RPC 2.0 ("jsonrpc": "2.0")')
        return
    if msg_id is not None and "method" in raw and _shut_down(protocol, raw):
        answer_error(protocol, msg_id, INVALID_REQUEST, "the server is shutting down")
        return
    if "method" in raw and "params" not in raw and protocol.get_message_type(
            raw["method"]) is None:
        raw = {**raw, "params": None}  # JSON-RPC lets params out; pygls's generic type not
    if raw.get("method") == types.SHUTDOWN:
        _cancel_pending(protocol)
    try:
        message = protocol.structure_message(raw)
    except Exception as exc:  # cattrs says what does not fit, in its own exception types
        _unstructurable(protocol, raw, msg_id, exc)
        return
    protocol.handle_message(message)


def _cancel_pending(protocol: Any) -> None:
    """Cancel every request not yet answered, either way (see the module's docstring)."""
    pending = getattr(protocol, "_request_futures", None)
    for future in list(pending.values()) if isinstance(pending, dict) else ():
        if not future.done():
            future.cancel()


def _shut_down(protocol: Any, raw: dict) -> bool:
    return bool(getattr(protocol, "_shutdown", False)) and raw.get("method") != types.EXIT


def _unstructurable(protocol: Any, raw: dict, msg_id: Any, exc: Exception) -> None:
    method = raw.get("method")
    why = f"{method!r}: params do not fit the method ({type(exc).__name__}: {exc})"
    known = method in protocol.fm.builtin_features or method in protocol.fm.features
    if msg_id is not None and "method" in raw and not known:
        answer_error(protocol, msg_id, METHOD_NOT_FOUND, f"no method {method!r}"[:500])
    elif msg_id is not None and "method" in raw:
        answer_error(protocol, msg_id, INVALID_PARAMS, why[:500])
    elif "method" not in raw and "result" not in raw and "error" not in raw:
        answer_error(protocol, msg_id, INVALID_REQUEST, why[:500])
    else:  # a notification, or a response to the server: nothing to answer
        log.warning("message dropped: %s", why[:500])


def answer_error(protocol: Any, msg_id: float | str | None, code: int, message: str) -> None:
    """An error response; its id is null when the request's could not be read (JSON-RPC
    wants the member there, which pygls's serializer would leave out)."""
    log.warning("JSON-RPC error %d: %s", code, message)
    protocol._send_data({"jsonrpc": "2.0", "id": msg_id,
                         "error": {"code": code, "message": message}})
