"""Learned metrics' sentence scores kept in m2lsp's checksummed cache (the parses' SQLite
file, `annotation.parse_cache`): a report or a meta-evaluation over 15 systems runs the
models once per distinct sentence, and a second run not at all.  A row is keyed by the
model's namespace (metric, model ids with their revisions, every option that changes a
score, torch's version and the device) and the sentence's texts.

Float32 arithmetic depends a little on the batch a sentence was read in (its padding): a
score can differ in its 7th digit from run to run of another corpus.  The cache keeps the
first and reads it back, so a sentence scores the same in every later report."""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence

from m2lsp.learned.batching import distinct


def remembered(namespace: str, keys: Sequence[str],
               compute: Callable[[list[int]], list[float]]) -> list[float]:
    """The score of each key: from the cache, else from `compute` (given the indices, into
    the distinct keys, that the cache lacks), which are then kept."""
    from m2lsp.annotation.parse_cache import ParseCache, default_cache

    unique, where = distinct(list(keys))
    cache = default_cache()
    try:
        hashed = [ParseCache.key(namespace, key) for key in unique]
        stored = cache.get(hashed)
        values: list[float | None] = [_number(stored.get(h)) for h in hashed]
        missing = [i for i, v in enumerate(values) if v is None]
        if missing:
            made = compute(missing)
            for i, value in zip(missing, made, strict=True):
                values[i] = value
            cache.put((hashed[i], struct.pack("<d", value))
                      for i, value in zip(missing, made, strict=True))
    finally:
        cache.close()
    return [float(values[i]) for i in where]  # type: ignore[arg-type]


def _number(data: bytes | None) -> float | None:
    if data is None or len(data) != 8:
        return None
    return struct.unpack("<d", data)[0]


def namespace(*parts: object) -> str:
    """A namespace from a metric's signature fields, with torch's version and m2lsp's."""
    import torch

    from m2lsp.version import __version__

    return "|".join([*(str(p) for p in parts), f"torch:{torch.__version__}",
                     f"m2lsp:{__version__}"])
