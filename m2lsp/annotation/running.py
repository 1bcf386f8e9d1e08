"""Chunks of rows annotated in order: in this process, in forked worker processes, or on a
Dask cluster; at most a few chunks ahead of the one being written, so memory stays the
same however long the corpus is.

While every row of a chunk is in the annotation cache, chunks are answered here without
loading the pipeline; the first chunk that is not starts the workers (a warm command never
loads spaCy).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from m2lsp.annotation.chunks import AHEAD, Blocks, Chunk, in_order


def run_chunks(chunks: Iterable[Chunk], settings: Any, jobs: int = 1,
               scheduler: Any = None, annotator: Any = None) -> Iterator[Blocks]:
    """Each chunk's blocks, in the chunks' order (`scheduler`: a `distributed.Scheduler`
    to annotate on; `annotator`: one made for `settings` with the cache, which this
    closes)."""
    from m2lsp.annotation.annotators import make_annotator

    pending = iter(chunks)
    annotator = annotator or make_annotator(settings, True)
    try:
        for chunk in pending:
            stored = annotator.stored(chunk[2])
            if stored is None:
                pending = _prepend(chunk, pending)
                break
            yield stored
        else:
            return
        if scheduler is not None:
            from m2lsp.annotation.distributed import on_cluster

            yield from on_cluster(pending, settings, scheduler)
        elif jobs > 1 and "fork" in multiprocessing.get_all_start_methods():
            annotator.close()  # each worker opens the cache: a connection does not fork
            annotator = make_annotator(settings, False)
            annotator.load()  # the workers share the loaded pipeline
            yield from _in_workers(annotator, pending, jobs)
        else:
            yield from (annotator.blocks(rows, first) for _, first, rows in pending)
    finally:
        annotator.close()


def _prepend(first: Chunk, rest: Iterator[Chunk]) -> Iterator[Chunk]:
    yield first
    yield from rest


_WORKER: Any = None


def _work(chunk: Chunk) -> Blocks:
    assert _WORKER is not None
    return _WORKER.blocks(chunk[2], chunk[1])


def _start_worker(parent: int) -> None:
    """In a new worker: its own cache connection, and a watch that ends it when the
    command that forked it is gone (killed: a worker waiting for work would wait forever,
    holding a pipeline's memory)."""
    from m2lsp.annotation.parse_cache import default_cache

    assert _WORKER is not None
    _WORKER.cache = default_cache()
    threading.Thread(target=_watch, args=(parent,), name="m2lsp-orphan-watch",
                     daemon=True).start()


def _watch(parent: int, every: float = 1.0) -> None:
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(1)


def _in_workers(annotator: Any, chunks: Iterator[Chunk], jobs: int) -> Iterator[Blocks]:
    """The chunks' blocks in order, from `jobs` forked processes that inherit the loaded
    pipeline."""
    global _WORKER
    _WORKER = annotator
    context = multiprocessing.get_context("fork")
    try:
        with ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker,
                                 initargs=(os.getpid(),)) as pool:
            yield from in_order(lambda chunk: pool.submit(_work, chunk), chunks,
                                jobs * AHEAD)
    finally:
        _WORKER = None
