"""ERRANT's edits of sentence pairs as records, for the metrics that work on edits of plain
text (GoToScorer, PT-ERRANT) as gec-metrics' ERRANT class extracts them: `errant.annotate`
of the whitespace-split source and target (errant_parallel's defaults), `noop` and `UNK`
edits left out.  They come from m2lsp's annotation (same edits as errant_parallel, cached)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from m2lsp.errors import InputError

LEFT_OUT = frozenset({"noop", "UNK"})


@dataclass(frozen=True)
class Edit:
    o_start: int
    o_end: int
    c_str: str
    type: str

    @property
    def key(self) -> tuple[int, int, str]:
        return self.o_start, self.o_end, self.c_str


def edit_lists(sources: Sequence[str], targets: Sequence[str], settings: Any,
               jobs: int = 1, left_out: frozenset[str] = LEFT_OUT) -> list[list[Edit]]:
    """Each (source, target) pair's edits, in ERRANT's order (without those of the types
    `left_out`)."""
    from m2lsp.annotation.parallel import ParallelText, annotate

    for number, source in enumerate(sources, 1):
        if not source.strip():
            raise InputError(f"source sentence {number} is empty: ERRANT's edits of an empty "
                             "source are not extracted (errant_parallel writes no block)")
    text = ParallelText(list(sources), [list(targets)])
    return [edits_of(block, left_out) for block in annotate(text, settings, jobs)]


def edits_of(block: str, left_out: frozenset[str] = LEFT_OUT) -> list[Edit]:
    """The edits of one annotator-0 M2 block, without those of the types `left_out`."""
    found = []
    for line in block.splitlines():
        if not line.startswith("A "):
            continue
        fields = line[2:].split("|||")
        start, end = (int(x) for x in fields[0].split())
        if fields[1] not in left_out:
            found.append(Edit(start, end, fields[2], fields[1]))
    return found
