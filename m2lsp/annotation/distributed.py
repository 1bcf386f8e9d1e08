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
    except (OSError, TimeoutError, ValueError) as exc:
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
