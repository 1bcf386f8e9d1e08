"""The inlay hint after each span, one symbol per sentence, folding ranges."""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from m2lsp.editor.hover import covered_text
from m2lsp.formats.multigec.model import EssayDocument
from m2lsp.model import EditField, M2Document, Span


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
            covered = covered_text(block, edit)
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


def progress_symbols(doc: M2Document) -> list[Symbol]:
    """One symbol on the first line: each annotator's annotated sentences."""
    from m2lsp.authoring.progress import progress

    found = progress(doc)
    if not doc.blocks or not found:
        return []
    first = doc.blocks[0].lines[0] if doc.blocks[0].lines else ""
    where = Span.on_line(doc.starts[0], 0, len(first))
    return [Symbol("progress", "; ".join(map(str, found)), where, where)]


def folding_ranges(doc: M2Document) -> list[tuple[int, int]]:
    """(first line, last line) of each block of more than one line."""
    return [(start, start + len(block.lines) - 1)
            for start, block in zip(doc.starts, doc.blocks, strict=True)
            if len(block.lines) > 1]


def essay_symbols(document: EssayDocument, lines: list[str], words: int = 6) -> list[Symbol]:
    """One symbol per essay of a MultiGEC file: its id and first words."""
    out = []
    for essay in document.essays:
        tokens = essay.text.split()
        name = " ".join(tokens[:words]) + (" …" if len(tokens) > words else "")
        last = max(essay.header, essay.last - 1)
        span = Span(essay.header, 0, last, len(lines[last]) if last < len(lines) else 0)
        selection = essay.id_span
        out.append(Symbol(f"essay {essay.id}: {name or '(empty)'}", f"{len(tokens)} words",
                          span, selection))
    return out


def essay_folding(document: EssayDocument) -> list[tuple[int, int]]:
    """(header line, last text line) of each essay with text."""
    return [(e.header, e.last - 1) for e in document.essays if e.last - 1 > e.header]
