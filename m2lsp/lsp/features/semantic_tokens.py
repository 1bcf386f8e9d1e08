"""Semantic tokens: the fields of M2 and CGED lines, coloured by role."""

from __future__ import annotations

from collections.abc import Iterable

from lsprotocol import types

from m2lsp.editor import highlighting
from m2lsp.lsp import convert
from m2lsp.lsp.server import M2Server

TOKEN_LEGEND = types.SemanticTokensLegend(token_types=list(highlighting.LEGEND),
                                          token_modifiers=[])


def register(ls: M2Server) -> None:
    ls.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, TOKEN_LEGEND)(semantic_tokens)
    ls.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, TOKEN_LEGEND)(semantic_tokens_range)


def semantic_tokens(ls: M2Server, params: types.SemanticTokensParams,
                    ) -> types.SemanticTokens:
    return _tokens(ls, params.text_document.uri, 0, None)


def semantic_tokens_range(ls: M2Server, params: types.SemanticTokensRangeParams,
                          ) -> types.SemanticTokens:
    where = params.range
    return _tokens(ls, params.text_document.uri, where.start.line, where.end.line)


def _tokens(ls: M2Server, uri: str, first: int, last: int | None) -> types.SemanticTokens:
    """Tokens in LSP's relative encoding (line delta, start delta, length, type, modifiers)."""
    doc = ls.checked_document(uri)
    if doc is None:
        return types.SemanticTokens(data=[])
    found = highlighting.tokens(doc.lines, doc.live.format, first, last)
    return types.SemanticTokens(data=encoded(doc.lines, found, ls.encoding))


def encoded(lines: list[str], found: Iterable[highlighting.Token], encoding: str
            ) -> list[int]:
    """LSP's relative encoding (line delta, start delta, length, type, modifiers), the
    columns in the agreed units (`convert` keeps each line's table: linear in the line)."""
    data: list[int] = []
    line = col = 0
    for token in found:
        text = lines[token.line]
        start = convert.to_units(text, token.col, encoding)
        length = convert.to_units(text, token.col + token.length, encoding) - start
        data += [token.line - line, start - col if token.line == line else start, length,
                 int(token.kind), 0]
        line, col = token.line, start
    return data
