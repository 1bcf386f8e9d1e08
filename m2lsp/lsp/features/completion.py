"""Completion of error types, -NONE-, REQUIRED/OPTIONAL and annotator ids by field."""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from m2lsp.lsp import convert
from m2lsp.lsp.features.documents import m2_document
from m2lsp.lsp.server import M2Server, OpenDocument
from m2lsp.taxonomy import TAXONOMIES

FIXED_WORDS = ("REQUIRED", "OPTIONAL", "-NONE-", "noop")


def register(ls: M2Server) -> None:
    ls.feature(types.TEXT_DOCUMENT_COMPLETION,
               types.CompletionOptions(trigger_characters=["|"]))(completion)


def completion(ls: M2Server, params: types.CompletionParams) -> types.CompletionList:
    found = m2_document(ls, params.text_document.uri)
    items: list[types.CompletionItem] = []
    if found is not None:
        doc, m2 = found
        row, col = convert.position_in(doc.lines, params.position, ls.encoding)
        line = doc.lines[row] if row < len(doc.lines) else ""
        field = line[:col].count("|||")
        items = _completions(doc, m2, field)
    return types.CompletionList(is_incomplete=False, items=items)


def _completions(doc: OpenDocument, m2: Any, field: int) -> list[types.CompletionItem]:
    kind = types.CompletionItemKind
    if field == 1:  # the error type
        taxonomy = doc.live.lint_context_taxonomy()
        types_ = taxonomy.types if taxonomy is not None else {
            t: m for tax in TAXONOMIES.values() for t, m in tax.types.items()}
        return [types.CompletionItem(label=t, detail=m, kind=kind.EnumMember)
                for t, m in sorted(types_.items())]
    if field == 2:
        return [types.CompletionItem(label="-NONE-", detail="delete", kind=kind.Keyword)]
    if field == 3:
        return [types.CompletionItem(label=w, kind=kind.Keyword) for w in FIXED_WORDS[:2]]
    if field == 4:
        return [types.CompletionItem(label="-NONE-", kind=kind.Keyword)]
    if field == 5:
        ids = sorted({e.annotator.strip() for b in m2.blocks for e in b.edits})
        return [types.CompletionItem(label=i, detail="annotator", kind=kind.Value)
                for i in ids if i]
    return []
