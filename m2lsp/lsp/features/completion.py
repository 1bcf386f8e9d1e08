"""Completion on A lines, field by field, each item replacing its whole field (or the
number being typed): after `A `, the start offsets (each with the tokens from it), then the
end offsets; the error types that fit the edit's span and correction; `-NONE-`; REQUIRED
before OPTIONAL; the file's annotator ids.  A space asks only in the offsets (a space in a
correction asks nothing)."""

from __future__ import annotations

import re
from typing import Any

from lsprotocol import types

from m2lsp.authoring.tokens import fitting_types, offset_choices
from m2lsp.lsp import convert
from m2lsp.lsp.features.documents import m2_document
from m2lsp.lsp.server import M2Server, OpenDocument
from m2lsp.model import block_at
from m2lsp.taxonomy import TAXONOMIES

_SPAN = re.compile(r"A +(-?\d+) +(-?\d+)")
Kind = types.CompletionItemKind


def register(ls: M2Server) -> None:
    ls.feature(types.TEXT_DOCUMENT_COMPLETION,
               types.CompletionOptions(trigger_characters=["|", " "]))(completion)


def completion(ls: M2Server, params: types.CompletionParams) -> types.CompletionList:
    found = m2_document(ls, params.text_document.uri)
    items: list[types.CompletionItem] = []
    if found is not None:
        doc, m2 = found
        row, col = convert.position_in(doc.lines, params.position, ls.encoding)
        ls.cursor(doc, row)
        line = doc.lines[row] if row < len(doc.lines) else ""
        spaced = params.context is not None and params.context.trigger_character == " "
        if line.startswith("A") and not (spaced and "|||" in line[:col]):
            items = _completions(ls, doc, m2, row, line, col)
    return types.CompletionList(is_incomplete=False, items=items)


def _completions(ls: M2Server, doc: OpenDocument, m2: Any, row: int, line: str, col: int
                 ) -> list[types.CompletionItem]:
    field = line[:col].count("|||")
    if field == 0:
        return _offsets(ls, doc, m2, row, line, col)
    where = _field_columns(line, field)
    if field == 1:
        return _types(ls, doc, row, line, where)
    if field in (2, 4):
        return [_item(ls, doc, row, where, "-NONE-", "no correction" if field == 2 else
                      "the comment field", Kind.Keyword)]
    if field == 3:
        return [_item(ls, doc, row, where, word, None, Kind.Keyword, sort=str(k))
                for k, word in enumerate(("REQUIRED", "OPTIONAL"))]
    if field == 5:
        ids = sorted({e.annotator.strip() for b in m2.blocks for e in b.edits} - {""},
                     key=lambda a: (not a.isdigit(), a.zfill(9)))
        return [_item(ls, doc, row, where, i, "annotator", Kind.Value, sort=f"{k:04d}")
                for k, i in enumerate(ids)]
    return []


def _offsets(ls: M2Server, doc: OpenDocument, m2: Any, row: int, line: str, col: int
             ) -> list[types.CompletionItem]:
    found = block_at(m2, row)
    if found is None:
        return []
    return [_item(ls, doc, row, c.replace, c.label, c.detail, Kind.Value, sort=c.sort)
            for c in offset_choices(found[1], line, col)]


def _types(ls: M2Server, doc: OpenDocument, row: int, line: str, where: tuple[int, int]
           ) -> list[types.CompletionItem]:
    taxonomy = doc.live.lint_context_taxonomy()
    known = taxonomy.types if taxonomy is not None else {
        t: m for tax in TAXONOMIES.values() for t, m in tax.types.items()}
    span = _SPAN.match(line)
    fields = line.split("|||")
    correction = fields[2] if len(fields) > 2 else None
    start, end = (int(span.group(1)), int(span.group(2))) if span else (None, None)
    fitting = fitting_types(known, start, end, correction,
                            taxonomy.name if taxonomy is not None else None)
    return [_item(ls, doc, row, where, t, known[t], Kind.EnumMember) for t in fitting]


def _field_columns(line: str, field: int) -> tuple[int, int]:
    """(start, end) columns of `|||`-separated field `field` (0 is `A i j`)."""
    at = 0
    for _ in range(field):
        found = line.find("|||", at)
        if found < 0:
            return len(line), len(line)
        at = found + 3
    end = line.find("|||", at)
    return at, len(line) if end < 0 else end


def _item(ls: M2Server, doc: OpenDocument, row: int, where: tuple[int, int], label: str,
          detail: str | None, kind: types.CompletionItemKind, sort: str | None = None
          ) -> types.CompletionItem:
    edit = types.TextEdit(range=types.Range(
        start=convert.position(doc.lines, row, where[0], ls.encoding),
        end=convert.position(doc.lines, row, where[1], ls.encoding)), new_text=label)
    return types.CompletionItem(label=label, detail=detail, kind=kind, text_edit=edit,
                                sort_text=sort, filter_text=label)
