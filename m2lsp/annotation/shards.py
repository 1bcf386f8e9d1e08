"""A long annotation written in shards, so that a run stopped anywhere (killed, Ctrl-C, a
full disk) continues where it stopped when started again, and ends with the file an
uninterrupted run writes.

Beside the output `OUT`, the folder `.OUT.m2lsp-parts/` holds `manifest.json` (what the
run annotates: the inputs' paths and the digest of what they say, the annotator's namespace
-- tool, pipeline, options, versions --, the shard size) and for each finished shard of
SHARD_ROWS rows its file and the digests of its bytes and of the rows it covers, each
written atomically.  A run whose manifest matches skips the shards that prove themselves
(their rows are read, not annotated) and redoes the damaged ones, saying how many; one that
does not match starts over.  At the end the shards are joined into `OUT` (atomically, each
checked again) and the folder is removed.
"""

from __future__ import annotations

import json
import shutil
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from m2lsp.annotation.chunks import CHUNK_ROWS, Blocks, Chunk, Row, Silent, chunked

SHARD_ROWS = 16 * CHUNK_ROWS


@dataclass(frozen=True)
class Parts:
    """The shards of one output: `NNNNNNNN.m2` and beside it `NNNNNNNN.sum`, the digest of
    the shard's bytes and of the input rows it was made from (written after the shard: a
    shard without its sum, or whose bytes or rows no longer match it, is redone)."""

    folder: Path

    @staticmethod
    def beside(output: Path) -> Parts:
        return Parts(output.parent / f".{output.name}.m2lsp-parts")

    def start(self, identity: dict) -> bool:
        """Whether the folder holds the shards of a run with this identity (kept); else it
        is started empty, with this manifest."""
        manifest = self.folder / "manifest.json"
        try:
            if json.loads(manifest.read_text("utf-8")) == identity:
                return True
        except (OSError, ValueError):
            pass
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True)
        from m2lsp.files.writing import write_atomic

        write_atomic(manifest, json.dumps(identity, indent=1, sort_keys=True))
        return False

    def path(self, shard: int) -> Path:
        return self.folder / f"{shard:08d}.m2"

    def sum_path(self, shard: int) -> Path:
        return self.folder / f"{shard:08d}.sum"

    def state(self, shard: int, rows: str) -> str:
        """"done" (its bytes and rows are what its sum says), "missing" (never finished:
        no shard, or no sum yet) or "damaged" (emptied, cut, overwritten, or made from
        other rows): only a done shard is used."""
        shard_path, sum_path = self.path(shard), self.sum_path(shard)
        if not shard_path.is_file():
            return "missing"
        try:
            recorded = json.loads(sum_path.read_text("utf-8"))
            data = shard_path.read_bytes()
        except FileNotFoundError:
            return "missing"
        except (OSError, ValueError):
            return "damaged"
        if not isinstance(recorded, dict):
            return "damaged"
        same = recorded.get("bytes") == _digest(data) and recorded.get("rows") == rows
        return "done" if same else "damaged"

    def discard(self, shard: int) -> None:
        for path in (self.sum_path(shard), self.path(shard)):
            path.unlink(missing_ok=True)

    def write(self, shard: int, blocks: Iterable[str], rows: str) -> None:
        from m2lsp.files.writing import write_atomic

        data = "".join(blocks).encode("utf-8", "surrogatepass")
        write_atomic(self.path(shard), data)
        write_atomic(self.sum_path(shard), json.dumps({"bytes": _digest(data), "rows": rows}))

    def join(self, output: Path, digests: Sequence[str], inputs: list[Path]) -> None:
        """All shards into `output`, whole or not at all, each checked against its sum
        again (a shard changed after it was written is an error, and `output` is left as
        it was); then the folder goes."""
        from m2lsp.errors import InputError
        from m2lsp.files.writing import atomic_open

        with atomic_open(output, binary=True, inputs=inputs) as out:
            for shard, rows in enumerate(digests):
                if self.state(shard, rows) != "done":
                    raise InputError(f"shard {self.path(shard)} changed after it was "
                                     f"written; {output} was not written: run the command "
                                     f"again (it redoes that shard)")
                out.write(self.path(shard).read_bytes())
        shutil.rmtree(self.folder, ignore_errors=True)


def _digest(data: bytes) -> str:
    import hashlib

    return hashlib.blake2b(data, digest_size=16).hexdigest()


def identity(paths: Iterable[Path], namespace: str, kind: str, content: str) -> dict:
    """What a run annotates, as its manifest records it: the inputs by their content (the
    digest of the rows read; a file edited in place with its size and time restored is
    another input), the annotator's namespace and the shard size."""
    from m2lsp.version import __version__

    return {"m2lsp": __version__, "namespace": namespace, "kind": kind,
            "inputs": [str(path.resolve()) for path in paths], "content": content,
            "shard_rows": SHARD_ROWS}


def chunks_to_do(rows: Iterable[Row], skip: Callable[[int], bool], total: int | None = None,
                 workers: int = 1) -> Iterator[Chunk]:
    """The rows in chunks (see `chunks.chunked`), leaving out the chunks of the shards
    `skip` says are done."""
    return (chunk for chunk in chunked(rows, total=total, workers=workers)
            if not skip(chunk[1] // SHARD_ROWS))


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


def annotate_to(output: Path, rows: Callable[[], Iterable[Row]], checked: Any,
                paths: list[Path], settings: Any, jobs: int, *, kind: str,
                scheduler: Any = None, progress: Any = None) -> None:
    """Annotate the rows into `output` in shards (see the module), resuming a stopped run
    of the same inputs and settings; `checked`: what `rows.check(source, SHARD_ROWS)`
    found (the count, the digest of every row and of each shard's)."""
    from m2lsp.annotation.annotators import make_annotator
    from m2lsp.annotation.running import run_chunks

    annotator = make_annotator(settings, True)
    parts = Parts.beside(output)
    count = checked.count
    shards = -(-count // SHARD_ROWS)
    kept = parts.start(identity(paths, annotator.edit_namespace, kind, checked.content))
    done = _resumed(parts, shards, checked.digests) if kept else set()
    rows_done = sum(min(SHARD_ROWS, count - k * SHARD_ROWS) for k in done)
    todo = chunks_to_do(rows(), done.__contains__, count, jobs if scheduler is None else 1)
    ticker = progress(count, rows_done) if progress else None
    with ticker or Silent() as tick:
        for shard, blocks, size in by_shard(
                todo, lambda chunks: run_chunks(chunks, settings, jobs, scheduler, annotator)):
            parts.write(shard, blocks, checked.digests[shard])
            rows_done += size
            tick.at(rows_done - 1)
    parts.join(output, checked.digests, paths)


def _resumed(parts: Parts, shards: int, digests: Sequence[str]) -> set[int]:
    """The shards a stopped run left that are sound; the damaged ones are removed (and
    redone), and what was found is said on stderr."""
    import sys

    states = [parts.state(k, digests[k]) for k in range(shards)]
    done = {k for k, state in enumerate(states) if state == "done"}
    damaged = [k for k, state in enumerate(states) if state == "damaged"]
    for k in damaged:
        parts.discard(k)
    if done or damaged:
        note = f"; {len(damaged)} damaged, redone" if damaged else ""
        print(f"m2lsp: resuming: {len(done)} of {shards} shards were written by a run that "
              f"stopped ({parts.folder}){note}", file=sys.stderr)
    return done
