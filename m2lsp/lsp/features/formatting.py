"""Formatting: the canonical M2 layout, content kept."""

from __future__ import annotations

from lsprotocol import types

from m2lsp.lsp import convert
from m2lsp.lsp.features.documents import m2_document
from m2lsp.lsp.server import M2Server


def register(ls: M2Server) -> None:
    ls.feature(types.TEXT_DOCUMENT_FORMATTING)(formatting)


def formatting(ls: M2Server, params: types.DocumentFormattingParams) -> list[types.TextEdit]:
    from m2lsp.editor.formatting import format_m2

    found = m2_document(ls, params.text_document.uri)
    if found is None:
        return []
    doc, _ = found
    text = doc.live.text
    formatted = format_m2(text)
    if formatted is None or formatted == text:
        return []
    end = convert.position(doc.lines, len(doc.lines) - 1, len(doc.lines[-1]), ls.encoding)
    return [types.TextEdit(range=types.Range(start=types.Position(line=0, character=0), end=end),
                           new_text=formatted)]
