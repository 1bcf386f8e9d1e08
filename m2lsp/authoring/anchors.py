"""Where an editor's command was made: the document version, the sentence (its S line) and,
for a command on an edit, that edit's line.  A command run after the text changed finds its
sentence again by that S line, or is refused: never applied to whatever now sits at the line
it was made for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from m2lsp.errors import UsageError
from m2lsp.model import Block, M2Document


@dataclass(frozen=True)
class Anchor:
    """A command's sentence: the version it was made for, its S line's number and text,
    and the row and text of the edit line it is about (row 0: the sentence itself)."""

    version: int
    line: int
    sentence: str
    row: int = 0
    edit: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"version": self.version, "line": self.line, "sentence": self.sentence,
                **({"row": self.row, "edit": self.edit} if self.edit is not None else {})}


@dataclass(frozen=True)
class Found:
    """The sentence found again: its block's first line, the block, the line the command
    is about."""

    start: int
    block: Block
    line: int


def anchor_at(version: int, start: int, block: Block, row: int = 0) -> Anchor:
    """The anchor of a command made on row `row` of the block starting at `start`."""
    edit = block.lines[row] if 0 < row < len(block.lines) else None
    return Anchor(version, start, block.lines[0], row if edit is not None else 0, edit)


def anchor_from(value: Any) -> Anchor:
    """An anchor as a command's argument carries it ({version, line, sentence, row?,
    edit?}); UsageError when it is not one."""
    if not isinstance(value, dict):
        raise UsageError("the command carries no document version and sentence (run the "
                         "code action again)")
    version, line, row = (_count(value.get(k, 0 if k == "row" else None))
                          for k in ("version", "line", "row"))
    sentence, edit = value.get("sentence"), value.get("edit")
    if version is None or line is None or row is None or not isinstance(sentence, str) \
            or not isinstance(edit, str | None):
        raise UsageError("the command's version and sentence are not {version, line, "
                         "sentence}: run the code action again")
    return Anchor(version, line, sentence, row, edit)


def _count(value: Any) -> int | None:
    """`value` when it is a non-negative int (not a bool), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 \
        else None


def refound(doc: M2Document, anchor: Anchor) -> Found:
    """The anchor's sentence in `doc` (the document's current text): the block whose S line
    is the anchor's, the nearest to where it was when there are several (a tie is
    refused), and in it the anchor's edit line (unique); UsageError when it is gone."""
    starts = [(abs(start - anchor.line), start, block)
              for start, block in zip(doc.starts, doc.blocks, strict=True)
              if block.lines[0] == anchor.sentence]
    starts.sort(key=lambda found: found[0])
    if not starts:
        raise UsageError(f"the sentence this action was made for (line {anchor.line + 1}) "
                         "is no longer in the document: run the action again")
    if len(starts) > 1 and starts[0][0] == starts[1][0]:
        raise UsageError(f"the sentence this action was made for (line {anchor.line + 1}) "
                         "is now in the document twice as near: run the action again there")
    _, start, block = starts[0]
    if anchor.edit is None:
        return Found(start, block, start)
    rows = [row for row, line in enumerate(block.lines) if row and line == anchor.edit]
    if len(rows) != 1:
        raise UsageError(f"the edit this action was made for (line "
                         f"{anchor.line + anchor.row + 1}) is no longer there, or not once: "
                         "run the action again")
    return Found(start, block, start + rows[0])
