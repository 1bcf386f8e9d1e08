"""A lines as text: made, renumbered, and placed among a block's lines in an annotator's
offset order."""

from __future__ import annotations

from collections.abc import Sequence

from m2lsp.model import NONE_CORRECTION, Block, Edit

NOOP = "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{annotator}"


def edit_line(start: int, end: int, kind: str, correction: str, annotator: str,
              required: str = "REQUIRED") -> str:
    """An A line; an empty correction (a deletion) is written empty, as ERRANT, the NUS
    scorer's gold and BEA-2019 write it (errant_compare reads `-NONE-` as a word)."""
    correction = "" if correction == NONE_CORRECTION else correction
    return f"A {start} {end}|||{kind}|||{correction}|||{required}|||-NONE-|||{annotator}"


def renumbered(line: str, annotator: str) -> str:
    """An A line (or a ChERRANT T line) given to another annotator."""
    if line.startswith("T"):
        label, _, rest = line.partition(" ")
        suffix = label.split("-", 1)[1] if "-" in label else ""
        return f"T{annotator}{'-' + suffix if suffix else ''} {rest}"
    fields = line.rstrip("\r\n").split("|||")
    return "|||".join([*fields[:-1], annotator]) if len(fields) >= 6 else line


def noop_line(annotator: str) -> str:
    return NOOP.format(annotator=annotator)


def own_lines(block: Block, annotator: str) -> list[Edit]:
    return list(block.by_annotator.get(annotator, []))


def with_lines(block: Block, annotator: str, lines: Sequence[str]) -> list[str]:
    """The block's lines after its S line with `annotator`'s A (and T) lines replaced by
    `lines`, the others as they are; a noop where `lines` is empty and the annotator had
    lines (an annotator with none keeps none)."""
    from m2lsp.annotation.from_correction import rewritten_block

    new = list(lines)
    if not new and (block.by_annotator.get(annotator) or
                    any(t.label[1:].split("-", 1)[0] == annotator for t in block.targets)):
        new = [noop_line(annotator)]
    return rewritten_block(block, annotator, new)


def in_order(edits: Sequence[Edit], line: str, start: int, end: int) -> list[str]:
    """An annotator's lines with `line` (an edit at `start`..`end`) among them in offset
    order (after those at the same or earlier offsets), its noop dropped."""
    real = [e for e in edits if not e.is_noop]
    at = sum(1 for e in real if (e.start, e.end) <= (start, end))
    texts = [e.text for e in real]
    return [*texts[:at], line, *texts[at:]]
