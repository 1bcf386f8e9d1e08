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


def chunked(rows: Iterable[Row], which: int = 0, first: int = 0) -> Iterator[Chunk]:
    """Rows in chunks of CHUNK_ROWS, numbered from `first`."""
    batch: list[Row] = []
    for row in rows:
        batch.append(row)
        if len(batch) == CHUNK_ROWS:
            yield which, first, batch
            first, batch = first + CHUNK_ROWS, []
    if batch:
        yield which, first, batch


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
