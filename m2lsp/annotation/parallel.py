"""Parallel text to M2: a source file and one or more corrected files, line by line, as
errant_parallel reads and writes them; in chunks, optionally over several processes.

Lines are read as errant_parallel reads them (UTF-8, any line break, a BOM kept as the first
character), except that files of different lengths are an error naming the first line one
of them lacks (errant_parallel stops silently at the shortest).
"""

from __future__ import annotations

import multiprocessing
import os
import re
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from m2lsp.annotation.english import EnglishAnnotator, EnglishSettings
from m2lsp.errors import InputError, UsageError

CHUNK = 256  # lines a worker annotates at a time
_BREAK = re.compile(r"\r\n|\r|\n")

Progress = Callable[[int], Any]  # (items) -> a context manager whose value has at(index)


@dataclass(frozen=True)
class ParallelText:
    """The source lines and, per corrected file, its lines (all of the same length)."""

    sources: Sequence[str]
    corrections: Sequence[Sequence[str]]

    def rows(self) -> list[tuple[str, tuple[str, ...]]]:
        return list(zip(self.sources, zip(*self.corrections, strict=True), strict=True))


def text_lines(text: str) -> list[str]:
    """The lines of a text file as Python's text mode yields them, without their breaks."""
    lines = _BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def read_lines(path: Path, what: str, encoding: str | None = None) -> list[str]:
    """A file's lines, decoded strictly (a BOM stays, as errant_parallel reads it)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    try:
        return text_lines(data.decode(encoding or "utf-8"))
    except (UnicodeDecodeError, LookupError) as exc:
        from m2lsp.parsing.source import decode

        problem = decode(data, encoding).problem
        reason = problem.describe() if problem else str(exc)
        raise InputError(f"{what} {path}: {reason}") from None


def read_parallel(source: Path, corrected: Sequence[Path],
                  encoding: str | None = None) -> ParallelText:
    sources = read_lines(source, "source", encoding)
    columns = [read_lines(path, "corrected file", encoding) for path in corrected]
    for path, lines in zip(corrected, columns, strict=True):
        check_lengths(source, len(sources), path, len(lines))
    return ParallelText(sources, columns)


def check_lengths(source: Path | str, sources: int, other: Path | str, lines: int) -> None:
    if sources == lines:
        return
    short, long = (other, source) if lines < sources else (source, other)
    raise UsageError(f"{other} has {lines} lines and {source} {sources}: line "
                     f"{min(lines, sources) + 1} of {long} has no counterpart in {short}")


def annotate(text: ParallelText, settings: EnglishSettings, jobs: int = 1,
             progress: Progress | None = None) -> Iterator[str]:
    """errant_parallel's output, block by block (a source line that is empty has none)."""
    return (block for _, block in annotate_each([text], settings, jobs, progress))


Chunk = tuple[int, list[tuple[str, tuple[str, ...]]]]  # (which text, its rows)


def annotate_each(texts: Sequence[ParallelText], settings: EnglishSettings, jobs: int = 1,
                  progress: Progress | None = None) -> Iterator[tuple[int, str]]:
    """errant_parallel's output for each text in turn, as (which text, block): several
    outputs annotated in one process, with one pipeline and one cache."""
    from m2lsp.annotation.parse_cache import default_cache

    chunks: list[Chunk] = []
    for which, text in enumerate(texts):
        rows = text.rows()
        chunks.extend((which, rows[i:i + CHUNK]) for i in range(0, len(rows), CHUNK))
    total = sum(len(rows) for _, rows in chunks)
    jobs = min(max(1, jobs), len(chunks)) if chunks else 1
    if jobs > 1 and "fork" in multiprocessing.get_all_start_methods():
        # each worker opens the cache itself: a connection does not survive a fork
        annotator = EnglishAnnotator(settings)
        yield from _in_workers(annotator, chunks, jobs, total, progress)
        return
    annotator = EnglishAnnotator(settings, default_cache())
    try:
        results = (annotator.blocks(rows) for _, rows in chunks)
        yield from _emit(chunks, results, total, progress)
    finally:
        annotator.cache.close()


def _emit(chunks: list[Chunk], results: Iterator[list[str | None]], total: int,
          progress: Progress | None) -> Iterator[tuple[int, str]]:
    ticker = progress(total) if progress else _Silent()
    done = 0
    with ticker as tick:
        for (which, rows), blocks in zip(chunks, results, strict=True):
            done += len(rows)
            tick.at(done - 1)
            yield from ((which, b) for b in blocks if b is not None)


class _Silent:
    def __enter__(self) -> _Silent:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def at(self, index: int, line: int | None = None) -> None:
        return None


_WORKER: EnglishAnnotator | None = None


def _work(chunk: Chunk) -> list[str | None]:
    assert _WORKER is not None
    return _WORKER.blocks(chunk[1])


def _open_cache() -> None:
    from m2lsp.annotation.parse_cache import default_cache

    assert _WORKER is not None
    _WORKER.cache = default_cache()


def _in_workers(annotator: EnglishAnnotator, chunks: list[Chunk], jobs: int, total: int,
                progress: Progress | None) -> Iterator[tuple[int, str]]:
    """The chunks' blocks in order, from `jobs` forked processes that inherit the loaded
    pipeline (the pool starts before the progress thread, so nothing forks a thread)."""
    global _WORKER
    _WORKER = annotator
    context = multiprocessing.get_context("fork")
    try:
        with ProcessPoolExecutor(jobs, mp_context=context, initializer=_open_cache) as pool:
            yield from _emit(chunks, pool.map(_work, chunks), total, progress)
    finally:
        _WORKER = None


def default_jobs() -> int:
    return max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                      else os.cpu_count() or 1))
