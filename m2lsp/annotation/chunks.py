"""Rows in chunks, and chunks' results in order: what the ways of running annotation
(in this process, forked workers, a Dask cluster) share."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

Row = tuple[str, tuple[str, ...]]
Chunk = tuple[int, int, list[Row]]  # (which text, the index of its first row, its rows)
Blocks = list[str | None]
CHUNK_ROWS = 256  # rows a worker annotates at a time
AHEAD = 2  # chunks in flight per worker


MIN_ROWS = 16  # the smallest chunk the last rows are cut into (see `chunked`)


def chunked(rows: Iterable[Row], which: int = 0, first: int = 0, total: int | None = None,
            workers: int = 1) -> Iterator[Chunk]:
    """Rows in chunks of CHUNK_ROWS, numbered from `first`.  Given the rows' `total` and
    more than one worker, the chunks shrink towards the end (each at most a 2*workers-th
    of the rows left, at least MIN_ROWS), so that the workers finish together instead of
    one annotating the last full chunk alone.  A chunk never crosses a multiple of
    CHUNK_ROWS (the shards of `annotation.shards` are made of whole chunks)."""
    batch: list[Row] = []
    size = _size(first, total, workers)
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield which, first, batch
            first, batch = first + size, []
            size = _size(first, total, workers)
    if batch:
        yield which, first, batch


def _size(first: int, total: int | None, workers: int) -> int:
    """The rows of the chunk that starts at row `first` (see `chunked`)."""
    to_boundary = CHUNK_ROWS - first % CHUNK_ROWS
    if total is None or workers < 2:
        return to_boundary
    size = max(MIN_ROWS, -(-(total - first) // (2 * workers)))
    return to_boundary if to_boundary - size < MIN_ROWS else size  # no sliver before it


def in_order(submit: Callable[[Chunk], Any], chunks: Iterator[Chunk], window: int
             ) -> Iterator[Blocks]:
    """The results of `submit(chunk)` in order, with at most `window` submitted and not
    yet yielded."""
    flight: deque[Any] = deque()
    for chunk in chunks:
        flight.append(submit(chunk))
        if len(flight) >= window:
            yield flight.popleft().result()
    while flight:
        yield flight.popleft().result()


class Silent:
    """Progress that reports nothing (`with Silent() as tick: tick.at(i)`)."""

    def __enter__(self) -> Silent:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def at(self, index: int, line: int | None = None) -> None:
        return None
