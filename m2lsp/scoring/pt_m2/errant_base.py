"""PT-M2's `--base errant` and `--base senterrant` (the authors' `errant_score.py`): the
system's edits are its ERRANT annotation (an M2 of it, as `errant_parallel` writes it), not
MaxMatch's path, and they match a reference annotator's edits by (start, end,
correction), as the authors' `matchSeq` walks them (each system edit in file order from
the gold edit after the last one matched).  Edits are keyed as `errant_compare` keys them
in its default mode: `UNK` edits and the noop are left out, a key repeated within an
annotator counts once, and the system's annotators' edits are one list.  The weights, the
choice of annotator and the sums are PT-M2's (`learned.pt_m2`), `errant` as its `m2`,
`senterrant` as its `sentm2`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from m2lsp.learned.pt_m2 import Edit, Reading, rebuilt

NOOP = (-1, -1, "-NONE-")


def keys(edits: Sequence[Any]) -> dict[int, list[tuple[int, int, str]]]:
    """Per annotator (in order of first appearance), its (start, end, correction) keys in
    file order, each once; an annotator whose only edit is the noop has none."""
    found: dict[int, dict[tuple[int, int, str], None]] = {}
    for edit in edits or ():
        kept = found.setdefault(edit.coder, {})
        if edit.type == "UNK":
            continue
        key = (edit.start, edit.end, edit.correction)
        if key != NOOP:
            kept[key] = None
    return {coder: list(k) for coder, k in found.items()} or {0: []}


def as_edit(key: tuple[int, int, str], tokens: Sequence[str]) -> Edit:
    """A key as PT-M2's edit tuple, with the source tokens it replaces."""
    start, end, correction = key
    return (start, end, " ".join(tokens[start:end]), correction)


def matched(system: Sequence[tuple[int, int, str]], gold: Sequence[tuple[int, int, str]]
            ) -> list[tuple[int, int, str]]:
    """The authors' `matchSeq`: each system edit, in order, against the gold edits after
    the last one matched (an edit matching two of them is counted twice, as there)."""
    out, last = [], 0
    for edit in system:
        for index in range(last, len(gold)):
            if gold[index] == edit:
                out.append(edit)
                last = index + 1
    return out


def readings(source: str, system_edits: Sequence[Any], gold_edits: Sequence[Any]
             ) -> list[Reading]:
    """One sentence's readings, one per reference annotator (in order of appearance)."""
    tokens = source.split()
    system = [k for coder_keys in keys(system_edits).values() for k in coder_keys]
    out = []
    for gold in keys(gold_edits).values():
        edits = tuple(as_edit(k, tokens) for k in gold)
        out.append(Reading(tuple(as_edit(k, tokens) for k in system),
                           tuple(as_edit(k, tokens) for k in matched(system, gold)),
                           edits, rebuilt(source, edits)))
    return out
