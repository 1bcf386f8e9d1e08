"""Rows cut into chunks: with several workers and the rows' total known, the last chunks
shrink so that the workers finish together (the CoNLL-2014 CAMB run on two cores left one
worker idle for the last full chunk); every row is in one chunk, in order; and no chunk
crosses a multiple of CHUNK_ROWS, which the resumable shards rely on."""

from __future__ import annotations

import pytest

from m2lsp.annotation.chunks import CHUNK_ROWS, MIN_ROWS, chunked
from m2lsp.annotation.shards import SHARD_ROWS, chunks_to_do


def _rows(count: int) -> list[tuple[str, tuple[str, ...]]]:
    return [(f"s{i}", (f"c{i}",)) for i in range(count)]


def _sizes(count: int, workers: int, total: int | None = None) -> list[int]:
    return [len(rows) for _, _, rows in chunked(_rows(count), total=total, workers=workers)]


@pytest.mark.parametrize("count", [0, 1, 15, 255, 256, 257, 1312, 5000, 2 * SHARD_ROWS + 7])
@pytest.mark.parametrize("workers", [1, 2, 3, 8])
def test_every_row_once_in_order_and_no_chunk_crosses_a_boundary(count, workers) -> None:
    chunks = list(chunked(_rows(count), which=3, total=count, workers=workers))
    assert [row for _, _, rows in chunks for row in rows] == _rows(count)
    for which, first, rows in chunks:
        assert which == 3
        assert first // CHUNK_ROWS == (first + len(rows) - 1) // CHUNK_ROWS
        assert len(rows) <= CHUNK_ROWS
    assert [first for _, first, _ in chunks] == [sum(len(r) for _, _, r in chunks[:k])
                                                 for k in range(len(chunks))]


@pytest.mark.parametrize("count, workers, total, sizes", [
    # one worker, or the total unknown: full chunks, as before
    (1312, 1, 1312, [256] * 5 + [32]),
    (1312, 2, None, [256] * 5 + [32]),
    (600, 4, None, [256, 256, 88]),
])
def test_full_chunks_without_a_total_or_with_one_worker(count, workers, total, sizes) -> None:
    assert _sizes(count, workers, total) == sizes


def test_two_workers_end_together_on_camb() -> None:
    """CAMB's 1,312 rows on two workers: full chunks while there is much to do, then
    smaller ones; the last full-size chunk no longer leaves one worker alone for its whole
    length."""
    sizes = _sizes(1312, 2, total=1312)
    assert sizes[:2] == [256, 256]
    assert max(sizes[2:]) <= 1312 // 4 - 128
    assert max(sizes[4:]) <= 1312 // 8
    assert all(s >= MIN_ROWS for s in sizes[:-1])
    assert sum(sizes) == 1312


def test_shards_take_whole_chunks_and_skip_done_shards() -> None:
    count = 2 * SHARD_ROWS + 100
    chunks = list(chunks_to_do(_rows(count), {0}.__contains__, count, 2))
    assert chunks[0][1] == SHARD_ROWS
    assert {first // SHARD_ROWS for _, first, _ in chunks} == {1, 2}
    assert sum(len(rows) for _, _, rows in chunks) == SHARD_ROWS + 100
