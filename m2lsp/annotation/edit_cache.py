"""Annotated blocks kept on disk, beside the parses (the same SQLite file, `parse_cache`):
a system output annotated again (scored again, compared, a report, the editor's first score)
is read back rather than aligned again.  A row is one block, keyed by a hash of the
annotator's namespace (the tool and its version, the pipeline or tables, every option that
changes edits, m2lsp's version) and the source and correction lines; a block read back is
the block that was written, byte for byte.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence

from m2lsp.annotation.parse_cache import ParseCache

Row = tuple[str, Sequence[str]]  # a source line and its correction lines
Numbered = tuple[int, str, Sequence[str]]  # the same with its 0-based line number
NO_BLOCK = b"\0"  # the reference writes nothing for this row


def cached_blocks(cache: ParseCache, namespace: str, rows: Sequence[Row], first: int,
                  fresh: Callable[[Sequence[Numbered]], list[str | None]]
                  ) -> list[str | None]:
    """Each row's block: from the cache, else from `fresh` (given the rows the cache lacks,
    numbered from `first`), which are then kept."""
    keys = [ParseCache.key(namespace, "\0".join([source, *corrections]))
            for source, corrections in rows]
    stored = _readable(cache.get(keys))
    missing = [i for i, key in enumerate(keys) if key not in stored]
    made = fresh([(first + i, rows[i][0], rows[i][1]) for i in missing]) if missing else []
    out: list[str | None] = [stored.get(key) for key in keys]
    for i, block in zip(missing, made, strict=True):
        out[i] = block
    cache.put((keys[i], NO_BLOCK if block is None else
               block.encode("utf-8", "surrogatepass"))
              for i, block in zip(missing, made, strict=True))
    return out


def stored_blocks(cache: ParseCache, namespace: str, rows: Sequence[Row]
                  ) -> list[str | None] | None:
    """Every row's block from the cache, or None when it lacks any (nothing is made)."""
    keys = [ParseCache.key(namespace, "\0".join([source, *corrections]))
            for source, corrections in rows]
    stored = _readable(cache.get(keys))
    if len(stored) < len(set(keys)):
        return None
    return [stored[key] for key in keys]


def _readable(stored: dict[str, bytes]) -> dict[str, str | None]:
    """The rows as blocks (None: the reference writes none); one that does not decode is
    left out, a miss like any other."""
    blocks: dict[str, str | None] = {}
    for key, data in stored.items():
        if data == NO_BLOCK:
            blocks[key] = None
            continue
        with contextlib.suppress(UnicodeDecodeError):
            blocks[key] = data.decode("utf-8", "surrogatepass")
    return blocks
