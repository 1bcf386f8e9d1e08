"""Where a line of an M2 document is: its block (`model.block_at`), its edit."""

from __future__ import annotations

from m2lsp.model import Block, Edit, M2Document, block_at

__all__ = ["block_at", "edit_at"]


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
