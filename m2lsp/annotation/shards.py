"""A long annotation written in shards, so that a run stopped anywhere (killed, Ctrl-C, a
full disk) continues where it stopped when started again, and ends with the file an
uninterrupted run writes.

Beside the output `OUT`, the folder `.OUT.m2lsp-parts/` holds `manifest.json` (what the
run annotates: the inputs' paths, sizes and modification times, the annotator's namespace
-- tool, pipeline, options, versions --, the shard size) and one file per finished shard of
SHARD_ROWS rows, each written atomically.  A run whose manifest matches skips the shards
already there (their rows are read, not annotated); one that does not match starts over.
At the end the shards are joined into `OUT` (atomically) and the folder is removed.
"""

from __future__ import annotations

import json
import shutil
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from m2lsp.annotation.chunks import CHUNK_ROWS, Blocks, Chunk, Row, Silent, chunked

SHARD_ROWS = 16 * CHUNK_ROWS


@dataclass(frozen=True)
class Parts:
    """The shards of one output."""

    folder: Path

    @staticmethod
    def beside(output: Path) -> Parts:
        return Parts(output.parent / f".{output.name}.m2lsp-parts")

    def start(self, identity: dict) -> int:
        """Keep the shards of a run with this identity (their count is returned); else
        start an empty folder with this manifest."""
        manifest = self.folder / "manifest.json"
        try:
            kept = json.loads(manifest.read_text("utf-8")) == identity
        except (OSError, ValueError):
            kept = False
        if kept:
            return len(list(self.folder.glob("*.m2")))
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True)
        from m2lsp.files.writing import write_atomic

        write_atomic(manifest, json.dumps(identity, indent=1, sort_keys=True))
        return 0

    def path(self, shard: int) -> Path:
        return self.folder / f"{shard:08d}.m2"

    def done(self, shard: int) -> bool:
        return self.path(shard).is_file()

    def write(self, shard: int, blocks: Iterable[str]) -> None:
        from m2lsp.files.writing import write_atomic

        write_atomic(self.path(shard), "".join(blocks))

    def join(self, output: Path, shards: int, inputs: list[Path]) -> None:
        """All shards into `output`, whole or not at all; then the folder goes."""
        from m2lsp.files.writing import atomic_open

        with atomic_open(output, inputs=inputs) as out:
            for shard in range(shards):
                with open(self.path(shard), encoding="utf-8", newline="",
                          errors="surrogatepass") as part:
                    shutil.copyfileobj(part, out)
        shutil.rmtree(self.folder, ignore_errors=True)


def identity(paths: Iterable[Path], namespace: str, kind: str) -> dict:
    """What a run annotates, as its manifest records it."""
    from m2lsp import __version__

    files = []
    for path in paths:
        stat = path.stat()
        files.append([str(path.resolve()), stat.st_size, stat.st_mtime_ns])
    return {"m2lsp": __version__, "namespace": namespace, "inputs": files, "kind": kind,
            "shard_rows": SHARD_ROWS}


def chunks_to_do(rows: Iterable[Row], skip: Callable[[int], bool]) -> Iterator[Chunk]:
    """The rows in chunks, leaving out the chunks of the shards `skip` says are done."""
    return (chunk for chunk in chunked(rows) if not skip(chunk[1] // SHARD_ROWS))


def by_shard(chunks: Iterable[Chunk], run: Callable[[Iterator[Chunk]], Iterator[Blocks]]
             ) -> Iterator[tuple[int, list[str], int]]:
    """(shard, its blocks, its rows) for each shard the chunks cover, in order, from
    `run`'s blocks of each chunk (which it may take ahead)."""
    taken: deque[Chunk] = deque()

    def noted() -> Iterator[Chunk]:
        for chunk in chunks:
            taken.append(chunk)
            yield chunk

    current, rows = -1, 0
    blocks: list[str] = []
    for made in run(noted()):
        _, first, chunk_rows = taken.popleft()
        shard = first // SHARD_ROWS
        if shard != current and current >= 0:
            yield current, blocks, rows
            blocks, rows = [], 0
        current = shard
        blocks.extend(b for b in made if b is not None)
        rows += len(chunk_rows)
    if current >= 0:
        yield current, blocks, rows


def annotate_to(output: Path, rows: Callable[[], Iterable[Row]], count: int,
                paths: list[Path], settings: Any, jobs: int, *, kind: str,
                scheduler: Any = None, progress: Any = None) -> None:
    """Annotate the rows into `output` in shards (see the module), resuming a stopped run
    of the same inputs and settings."""
    from m2lsp.annotation.annotators import make_annotator
    from m2lsp.annotation.running import run_chunks

    annotator = make_annotator(settings, True)
    parts = Parts.beside(output)
    shards = -(-count // SHARD_ROWS)
    kept = parts.start(identity(paths, annotator.edit_namespace, kind))
    done = sum(min(SHARD_ROWS, count - k * SHARD_ROWS) for k in range(shards) if parts.done(k))
    if kept:
        import sys

        print(f"m2lsp: resuming: {kept} of {shards} shards were written by a run that "
              f"stopped ({parts.folder})", file=sys.stderr)
    todo = chunks_to_do(rows(), parts.done)
    ticker = progress(count, done) if progress else None
    with ticker or Silent() as tick:
        for shard, blocks, size in by_shard(
                todo, lambda chunks: run_chunks(chunks, settings, jobs, scheduler, annotator)):
            parts.write(shard, blocks)
            done += size
            tick.at(done - 1)
    parts.join(output, shards, paths)
