"""Where a line of an M2 document is: its block, its edit."""

from __future__ import annotations

import bisect

from m2lsp.model import Block, Edit, M2Document


def block_at(doc: M2Document, line: int) -> tuple[int, Block] | None:
    """The block holding `line` and its first line, if any."""
    index = bisect.bisect_right(doc.starts, line) - 1
    if index < 0:
        return None
    start, block = doc.starts[index], doc.blocks[index]
    return (start, block) if line < start + len(block.lines) else None


def edit_at(doc: M2Document, line: int) -> tuple[int, Block, Edit] | None:
    """The edit written on `line`, with its block and the block's first line."""
    found = block_at(doc, line)
    if found is None:
        return None
    start, block = found
    for edit in block.edits:
        if edit.row == line - start:
            return start, block, edit
    return None
