"""A system's edit attributions (m2lsp.attribution) placed on the gold's S lines: each
hypothesis edit's share as an inlay hint after the source tokens it changes, and in words
when the pointer is over them.  Positions count code points; the server converts them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from m2lsp.attribution.run import EditShare, Explanation, SentenceShares


@dataclass(frozen=True)
class EditNote:
    line: int  # the sentence's S line
    start: int  # the columns the source tokens the edit changes span (end exclusive; an
    end: int  # insertion: the space before the token it goes before, start == end)
    label: str
    hover: str


def source_lines(lines: Sequence[str]) -> list[int]:
    return [k for k, line in enumerate(lines) if line.startswith("S ")]


def notes(found: Explanation, lines: Sequence[str]) -> list[EditNote] | str:
    """One note per attributed edit, or why they cannot be placed on these lines."""
    rows = source_lines(lines)
    if len(rows) != len(found.sentences):
        return (f"the document has {len(rows)} S lines but the attribution "
                f"{len(found.sentences)} sentences")
    out = []
    for row, sentence in zip(rows, found.sentences, strict=True):
        columns = _token_columns(lines[row])
        out += [_note(row, columns, sentence, edit, found) for edit in sentence.edits
                if edit.end < len(columns)]
    return out


def _token_columns(line: str) -> list[int]:
    """Where each token of an S line starts, and one past the end of the last (+1)."""
    columns, at = [], 2
    for token in line[2:].split(" "):
        columns.append(at)
        at += len(token) + 1
    return [*columns, at]


def _note(row: int, columns: list[int], sentence: SentenceShares, edit: EditShare,
          found: Explanation) -> EditNote:
    if edit.start == edit.end:
        start = end = max(2, columns[edit.start] - 1)
    else:
        start, end = columns[edit.start], columns[edit.end] - 1
    label = f"→{edit.correction or '∅'} {edit.attribution:+.3f}"
    return EditNote(row, start, end, label, _hover(sentence, edit, found))


def _hover(sentence: SentenceShares, edit: EditShare, found: Explanation) -> str:
    original = edit.original or "∅"
    correction = edit.correction or "∅"
    return (f"**System edit** `{original}` → `{correction}` ({edit.type})\n\n"
            f"Share of this sentence's {found.metric} change: **{edit.attribution:+.4f}** "
            f"({sentence.method})\n\n"
            f"Sentence: source {sentence.source_score:.4f} → hypothesis "
            f"{sentence.hypothesis_score:.4f} (change {sentence.change:+.4f}), "
            f"{len(sentence.edits)} edit{'s' if len(sentence.edits) != 1 else ''}")


def in_range(found: Sequence[EditNote], first: int, last: int) -> list[EditNote]:
    return [n for n in found if first <= n.line <= last]


def at(found: Sequence[EditNote], line: int, column: int) -> EditNote | None:
    """The note whose tokens are under (line, column), if any."""
    return next((n for n in found if n.line == line and n.start <= column <= n.end), None)
