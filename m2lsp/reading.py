"""Reading aids for M2 documents, as plain data: what a hover on an A line says, the inlay
hint after each span, one symbol per sentence, folding ranges.  The server converts them;
nothing here knows about LSP."""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from m2lsp.model import NONE_CORRECTION, Block, Edit, EditField, M2Document, Span
from m2lsp.taxonomy import Taxonomy


@dataclass(frozen=True)
class Hint:
    """A short label shown after `line`:`col`."""

    line: int
    col: int
    label: str


@dataclass(frozen=True)
class Symbol:
    """A sentence: its first words, and the lines of its block."""

    name: str
    detail: str
    span: Span
    selection: Span


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


def _covered(block: Block, edit: Edit) -> str | None:
    if block.sentence is None or edit.is_noop:
        return None
    tokens = block.sentence.tokens
    if not 0 <= edit.start <= edit.end <= len(tokens):
        return None
    return " ".join(tokens[edit.start:edit.end])


def corrected_sentence(block: Block, annotator: str) -> str | None:
    """The sentence as one annotator corrects it (first alternative of each edit), or None
    when its edits cannot be applied (offsets out of range or overlapping)."""
    if block.sentence is None:
        return None
    tokens = list(block.sentence.tokens)
    edits = sorted((e for e in block.edits if e.annotator.strip() == annotator.strip()
                    and not e.is_noop), key=lambda e: (e.start, e.end))
    out, at = [], 0
    for edit in edits:
        if edit.start < at or edit.end > len(tokens) or edit.start > edit.end:
            return None
        out.extend(tokens[at:edit.start])
        first = edit.canonical[0] if edit.canonical else ""
        out.extend(first.split())
        at = edit.end
    out.extend(tokens[at:])
    return " ".join(out)


def hover(doc: M2Document, line: int, taxonomy: Taxonomy | None) -> str | None:
    """Markdown for a hover on an A line: the tokens its span covers, the corrections, the
    error type's meaning, and the sentence as its annotator corrects it."""
    found = edit_at(doc, line)
    if found is None:
        return None
    _, block, edit = found
    if edit.is_noop:
        return f"**noop**: annotator {edit.annotator.strip()} makes no edit in this sentence"
    covered = _covered(block, edit)
    where = f"tokens {edit.start}–{edit.end}"
    original = "(insertion point)" if covered == "" else (
        f"`{covered}`" if covered is not None else "(outside the sentence)")
    alternatives = " or ".join(f"`{c}`" if c != NONE_CORRECTION else "deletion"
                               for c in edit.corrections) or "(none)"
    parts = [f"**{edit.type}** {where}: {original} → {alternatives}"]
    meaning = taxonomy.types.get(edit.type) if taxonomy is not None else None
    if meaning:
        parts.append(f"{edit.type}: {meaning} ({taxonomy.title})")
    corrected = corrected_sentence(block, edit.annotator)
    if corrected is not None:
        parts.append(f"Annotator {edit.annotator.strip()}: {corrected}")
    return "\n\n".join(parts)


def inlay_hints(doc: M2Document, first: int = 0, last: int | None = None) -> list[Hint]:
    """`at → on` after the offsets of each A line between lines `first` and `last`."""
    last = doc.line_count if last is None else last
    out: list[Hint] = []
    k = max(bisect.bisect_right(doc.starts, first) - 1, 0)
    for index in range(k, len(doc.blocks)):
        start, block = doc.starts[index], doc.blocks[index]
        if start > last:
            break
        for edit in block.edits:
            row = start + edit.row
            if not first <= row <= last or edit.is_noop:
                continue
            covered = _covered(block, edit)
            if covered is None:
                continue
            target = edit.canonical[0] if edit.canonical else ""
            label = f"{covered or '∅'} → {target or '∅'}"
            out.append(Hint(row, edit.columns(EditField.OFFSETS)[1], label))
    return out


def symbols(doc: M2Document, words: int = 6) -> list[Symbol]:
    """One symbol per sentence: its index and first words."""
    out: list[Symbol] = []
    number = 0
    for start, block in zip(doc.starts, doc.blocks, strict=True):
        if block.sentence is None:
            continue
        number += 1
        tokens = block.sentence.tokens
        name = " ".join(tokens[:words]) + (" …" if len(tokens) > words else "")
        edits = len([e for e in block.edits if not e.is_noop])
        span = Span(start, 0, start + len(block.lines) - 1, len(block.lines[-1]))
        selection = Span.on_line(start, 0, len(block.lines[0]))
        out.append(Symbol(f"{number}: {name or '(empty)'}", f"{edits} edit(s)", span, selection))
    return out


def folding_ranges(doc: M2Document) -> list[tuple[int, int]]:
    """(first line, last line) of each block of more than one line."""
    return [(start, start + len(block.lines) - 1)
            for start, block in zip(doc.starts, doc.blocks, strict=True)
            if len(block.lines) > 1]
