"""Annotation on a Dask cluster (`annotate --scheduler tcp://HOST:PORT`, the extra
`m2lsp[dask]`): chunks of rows go to the workers, which each load the pipeline once (and
open their machine's annotation cache), and come back in order, a bounded number in flight.

Workers run the same m2lsp, errant/spaCy (or ChERRANT's tables) and pipeline as the client;
start them with one thread each (`dask worker tcp://HOST:PORT --nthreads 1`): a pipeline is
used by one thread at a time (a lock makes sure of it, so more threads only wait).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from m2lsp.annotation.chunks import AHEAD, Blocks, Chunk, in_order
from m2lsp.errors import UsageError

INSTALL = "pip install 'm2lsp[dask]'"


@dataclass(frozen=True)
class Scheduler:
    """Where the cluster's scheduler is, and how long to try to reach it."""

    address: str
    timeout: float = 30.0

    @property
    def where(self) -> tuple[str, str, int]:
        """(scheme, host, port) of the address, or a UsageError saying what it should be
        (`tcp://HOST:PORT`, `tls://HOST:PORT`, or `HOST:PORT`, which Dask reads as tcp)."""
        scheme, found, rest = self.address.partition("://")
        if not found:
            scheme, rest = "tcp", self.address
        host, colon, port = rest.rpartition(":")
        host = host.strip("[]")
        if scheme not in SCHEMES or not colon or not host or not port.isdigit() or not (
                0 < int(port) < 65536) or "/" in rest:
            raise UsageError(f"--scheduler {self.address!r} is not a scheduler address: "
                             f"give tcp://HOST:PORT (or tls://HOST:PORT)")
        return scheme, host, int(port)


SCHEMES = ("tcp", "tls")
# what a Dask scheduler says first (its handshake): an 8-byte size, then that many bytes;
# a handshake is a few hundred bytes, a size beyond this is another protocol's bytes
HANDSHAKE_MOST = 1 << 24


def check(scheduler: Scheduler) -> None:
    """That the address is one, and (tcp) that a Dask scheduler answers there: its first 8
    bytes, read within the timeout, are the size of a handshake.  Else a UsageError within
    the timeout: an HTTP server or a silent port says nothing (Dask's own handshake then
    waits without end), and a banner (SSH's) would be read as a frame size of exabytes."""
    import socket
    import struct
    import time

    scheme, host, port = scheduler.where
    if scheme != "tcp":
        return  # a TLS handshake first: left to Dask's client (and its timeout)
    deadline = time.monotonic() + scheduler.timeout
    try:
        with socket.create_connection((host, port), timeout=scheduler.timeout) as link:
            head = b""
            while len(head) < 8:
                link.settimeout(max(0.001, deadline - time.monotonic()))
                more = link.recv(8 - len(head))
                if not more:
                    raise UsageError(f"{scheduler.address} closed the connection before any "
                                     "Dask handshake: it is not a Dask scheduler")
                head += more
    except TimeoutError:
        raise UsageError(f"no Dask scheduler answered at {scheduler.address} within "
                         f"{scheduler.timeout:g} s (a scheduler speaks first; "
                         "--scheduler-timeout sets the wait)") from None
    except OSError as exc:
        raise UsageError(f"cannot reach the Dask scheduler at {scheduler.address} within "
                         f"{scheduler.timeout:g} s: {exc.strerror or exc}") from None
    (size,) = struct.unpack("<Q", head)
    if not 0 < size <= HANDSHAKE_MOST:
        raise UsageError(f"{scheduler.address} answered, but not as a Dask scheduler (it "
                         f"began {head!r})")


_ANNOTATORS: dict[Any, Any] = {}
_LOCK = threading.Lock()


def annotate_chunk(settings: Any, chunk: Chunk) -> Blocks:
    """On a worker: the chunk's blocks, from the annotator for `settings` made once."""
    from m2lsp.annotation.annotators import make_annotator

    with _LOCK:
        annotator = _ANNOTATORS.get(settings)
        if annotator is None:
            annotator = _ANNOTATORS[settings] = make_annotator(settings, True)
        return annotator.blocks(chunk[2], chunk[1])


def connect(scheduler: Scheduler) -> Any:
    """A client of the scheduler with a worker to run on, or a UsageError saying why not,
    within the timeout: Dask's own handshake and `Client()` wait without end on a peer
    that sends a frame's size and then nothing, so they run in a thread that is given up
    on at the deadline."""
    import time

    try:
        from distributed import Client
    except ImportError:
        raise UsageError(f"--scheduler needs Dask's distributed scheduler: {INSTALL}") from None
    deadline = time.monotonic() + scheduler.timeout
    client = _within(deadline, scheduler, lambda: Client(
        scheduler.address, timeout=scheduler.timeout, set_as_default=False))
    try:
        _within(deadline, scheduler, lambda: client.wait_for_workers(
            1, timeout=max(0.1, deadline - time.monotonic())))
    except UsageError:
        _close_soon(client)
        raise UsageError(f"the Dask scheduler at {scheduler.address} has no worker (none "
                         f"came within {scheduler.timeout:g} s): start one with `dask worker "
                         f"{scheduler.address} --nthreads 1`") from None
    return client


def _within(deadline: float, scheduler: Scheduler, work: Any) -> Any:
    """`work()`'s result, or a UsageError when it fails or is not done by the deadline
    (its thread is then left to itself: a daemon, which ends with the process)."""
    import time

    done: dict[str, Any] = {}

    def run() -> None:
        try:
            done["value"] = work()
        except BaseException as exc:  # handed back to the caller's thread
            done["error"] = exc

    thread = threading.Thread(target=run, name="m2lsp-dask-connect", daemon=True)
    thread.start()
    thread.join(max(0.0, deadline - time.monotonic()))
    if thread.is_alive():
        raise UsageError(f"no Dask scheduler answered at {scheduler.address} within "
                         f"{scheduler.timeout:g} s (--scheduler-timeout sets the wait)")
    if "error" in done:
        raise UsageError(f"cannot reach the Dask scheduler at {scheduler.address} within "
                         f"{scheduler.timeout:g} s: {_first_line(done['error'])}")
    return done["value"]


def _close_soon(client: Any) -> None:
    threading.Thread(target=client.close, daemon=True).start()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:300] if text else type(exc).__name__


@contextlib.contextmanager
def dask_logs_said() -> Iterator[None]:
    """Dask's loggers (`distributed`, `dask`) without their own stderr handlers for the
    duration: what they report at WARNING and above becomes one line of m2lsp's logger
    (its first line: never a traceback)."""
    import logging

    from m2lsp.logs import logger

    said = logger(__name__)

    class Forward(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            text = record.getMessage().strip().splitlines()
            said.warning("dask: %s", text[0][:300] if text else record.levelname)

    forward = Forward(logging.WARNING)
    saved = []
    for name in ("distributed", "dask"):
        found = logging.getLogger(name)
        saved.append((found, found.handlers[:], found.propagate))
        found.handlers, found.propagate = [forward], False
    try:
        yield
    finally:
        for found, handlers, propagate in saved:
            found.handlers, found.propagate = handlers, propagate


def on_cluster(chunks: Iterator[Chunk], settings: Any, scheduler: Scheduler
               ) -> Iterator[Blocks]:
    """Each chunk's blocks, in order, from the cluster's workers."""
    with dask_logs_said():
        client = connect(scheduler)
        try:
            workers = max(1, len(client.scheduler_info().get("workers", {})))
            yield from in_order(
                lambda chunk: client.submit(annotate_chunk, settings, chunk, pure=False),
                chunks, workers * AHEAD)
        finally:
            client.close()
