"""Running a model over many texts the fast way: each distinct text once, texts tokenized
once, sorted by length into batches (padding only to the longest of a batch, not to
`max_length`), in inference mode.  The results come back in the texts' order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def distinct(items: Sequence[Any]) -> tuple[list[Any], list[int]]:
    """The distinct items (first occurrence order) and, for each item, its index there."""
    index: dict[Any, int] = {}
    where = [index.setdefault(item, len(index)) for item in items]
    return list(index), where


def by_length(lengths: Sequence[int], size: int) -> list[list[int]]:
    """Indices into `lengths` in batches of at most `size`, longest first (a batch that
    does not fit in memory fails at once, not at the end)."""
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
    return [order[k:k + size] for k in range(0, len(order), size)]


def run_batches(encoded: dict[str, list[list[int]]], tokenizer: Any, size: int,
                step: Callable[[dict[str, Any]], Sequence[Any]]) -> list[Any]:
    """`step` over `encoded` (a tokenizer's output without padding: lists of ids) in
    length-sorted batches, padded by `tokenizer`; one result per row, in row order."""
    import torch

    rows = len(encoded["input_ids"])
    out: list[Any] = [None] * rows
    for batch in by_length([len(ids) for ids in encoded["input_ids"]], size):
        features = {key: [values[i] for i in batch] for key, values in encoded.items()}
        padded = tokenizer.pad(features, return_tensors="pt")
        with torch.inference_mode():
            results = step(dict(padded))
        for i, result in zip(batch, results, strict=True):
            out[i] = result
    return out
