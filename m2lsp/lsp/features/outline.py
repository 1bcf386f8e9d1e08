"""Reading aids: inlay hints (what each edit does), document symbols and folding."""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from m2lsp.authoring.tokens import block_index, token_numbers
from m2lsp.editor import attribution as editor_attribution
from m2lsp.editor import outline
from m2lsp.lsp import convert
from m2lsp.lsp.features.attribution import current
from m2lsp.lsp.features.documents import essay_document, m2_document
from m2lsp.lsp.server import M2Server


def register(ls: M2Server) -> None:
    ls.feature(types.TEXT_DOCUMENT_INLAY_HINT)(inlay_hints)
    ls.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(symbols)
    ls.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)(folding)


def inlay_hints(ls: M2Server, params: types.InlayHintParams) -> list[types.InlayHint]:
    found = m2_document(ls, params.text_document.uri)
    if found is None:
        return []
    doc, m2 = found
    first, last = params.range.start.line, params.range.end.line
    hints = outline.inlay_hints(m2, first, last)
    return _token_numbers(ls, doc, m2, first, last) + [
        types.InlayHint(position=convert.position(doc.lines, h.line, h.col, ls.encoding),
                        label=h.label, padding_left=True) for h in hints] + [
        types.InlayHint(position=convert.position(doc.lines, n.line, n.end, ls.encoding),
                        label=n.label, padding_left=True,
                        tooltip=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                    value=n.hover))
        for n in editor_attribution.in_range(current(doc), first, last)]


def _token_numbers(ls: M2Server, doc: Any, m2: Any, first: int, last: int
                   ) -> list[types.InlayHint]:
    """Each token's number before it on the S lines asked about: always, or in the block
    of the cursor (the line the client last asked about, else the last edit)."""
    mode = ls.config.editor.token_numbers
    if mode == "never":
        return []
    blocks = None
    if mode == "block":
        here = block_index(m2, doc.cursor if doc.cursor is not None else doc.focus)
        if here is None:
            return []
        blocks = [here]
    return [types.InlayHint(position=convert.position(doc.lines, n.line, n.col, ls.encoding),
                            label=f"{n.number}", padding_right=True,
                            kind=types.InlayHintKind.Parameter)
            for n in token_numbers(m2, first, last, blocks)]


def symbols(ls: M2Server, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    """One symbol a sentence of an M2 file (after one saying how far each annotator has
    got), one an essay of a MultiGEC file."""
    found = m2_document(ls, params.text_document.uri)
    if found is not None:
        doc, m2 = found
        listed = outline.progress_symbols(m2) + outline.symbols(m2)
    elif (essays := essay_document(ls, params.text_document.uri)) is not None:
        doc, document = essays
        listed = outline.essay_symbols(document, doc.lines)
    else:
        return []
    return [types.DocumentSymbol(
        name=s.name, detail=s.detail, kind=types.SymbolKind.String,
        range=convert.range_of(s.span, doc.lines, ls.encoding),
        selection_range=convert.range_of(s.selection, doc.lines, ls.encoding))
        for s in listed]


def folding(ls: M2Server, params: types.FoldingRangeParams) -> list[types.FoldingRange]:
    found = m2_document(ls, params.text_document.uri)
    if found is not None:
        ranges = outline.folding_ranges(found[1])
    elif (essays := essay_document(ls, params.text_document.uri)) is not None:
        ranges = outline.essay_folding(essays[1])
    else:
        return []
    return [types.FoldingRange(start_line=a, end_line=b) for a, b in ranges]
