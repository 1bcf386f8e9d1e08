"""Canonical layout of an M2 file, without changing what any line means: single spaces
between the tokens of S lines, no spaces around the offsets of A lines, edits sorted by
annotator then offsets (a sort the scorer does not see: it groups by annotator), blocks
separated by exactly one blank line, LF line breaks and a final newline."""

from __future__ import annotations

from m2lsp.model import Block, Edit
from m2lsp.parsing.m2 import parse_m2


def format_m2(text: str) -> str | None:
    """The formatted text, or None when the file has lines m2lsp cannot read (formatting
    then could change their meaning, so it is refused)."""
    document = parse_m2(text)
    if not document.blocks:
        return None
    blocks = []
    for block in document.blocks:
        lines = _block(block)
        if lines is None:
            return None
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def _block(block: Block) -> list[str] | None:
    if block.problems or block.sentence is None:
        return None
    edits = sorted(block.edits, key=_edit_order)
    return ["S " + " ".join(block.sentence.tokens),
            *(block.lines[t.row] for t in block.targets),  # ChERRANT: targets before edits
            *(_edit_line(e) for e in edits)]


def _edit_order(edit: Edit) -> tuple[int, str, int, int]:
    number = edit.annotator_id
    return (number if number is not None else 1 << 30, edit.annotator, edit.start, edit.end)


def _edit_line(edit: Edit) -> str:
    tail = edit.text.split("|||", 1)[1]
    return f"A {edit.start} {edit.end}|||{tail}"
