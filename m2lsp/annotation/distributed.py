"""Annotation on a Dask cluster (`annotate --scheduler tcp://HOST:PORT`, the extra
`m2lsp[dask]`): chunks of rows go to the workers, which each load the pipeline once (and
open their machine's annotation cache), and come back in order, a bounded number in flight.

Workers run the same m2lsp, errant/spaCy (or ChERRANT's tables) and pipeline as the client;
start them with one thread each (`dask worker tcp://HOST:PORT --nthreads 1`): a pipeline is
used by one thread at a time (a lock makes sure of it, so more threads only wait).
"""

from __future__ import annotations

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
    """A client of the scheduler, or a UsageError saying why not."""
    try:
        from distributed import Client
    except ImportError:
        raise UsageError(f"--scheduler needs Dask's distributed scheduler: {INSTALL}") from None
    try:
        return Client(scheduler.address, timeout=scheduler.timeout, set_as_default=False)
    except Exception as exc:  # Dask's own errors too: said, never a traceback
        raise UsageError(f"cannot reach the Dask scheduler at {scheduler.address} within "
                         f"{scheduler.timeout:g} s: {exc}") from None


def on_cluster(chunks: Iterator[Chunk], settings: Any, scheduler: Scheduler
               ) -> Iterator[Blocks]:
    """Each chunk's blocks, in order, from the cluster's workers."""
    client = connect(scheduler)
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        yield from in_order(
            lambda chunk: client.submit(annotate_chunk, settings, chunk, pure=False),
            chunks, workers * AHEAD)
    finally:
        client.close()
