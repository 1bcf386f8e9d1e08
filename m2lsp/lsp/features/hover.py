"""Hover on an A line: tokens, corrections, the type's meaning, the corrected sentence; on
a scored S line: source, system and each annotator's correction, every edit in words."""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from m2lsp.editor import attribution
from m2lsp.editor import hover as hovering
from m2lsp.lsp import convert, live_score
from m2lsp.lsp.features.attribution import current
from m2lsp.lsp.features.curation import curation_hover
from m2lsp.lsp.features.documents import m2_document
from m2lsp.lsp.features.sidecars import current as sidecars_read
from m2lsp.lsp.server import M2Server


def register(ls: M2Server) -> None:
    ls.feature(types.TEXT_DOCUMENT_HOVER)(hover)


async def hover(ls: M2Server, params: types.HoverParams) -> types.Hover | None:
    found = m2_document(ls, params.text_document.uri)
    if found is None:
        return None
    doc, _ = found
    await sidecars_read(doc)  # the notes beside it, once read
    m2 = doc.live.m2
    if m2 is None:
        return None
    ls.cursor(doc, params.position.line)
    line = params.position.line
    text = _attribution_hover(ls, doc, params.position) or _score_hover(ls, doc, line) or \
        _joined(curation_hover(doc, line),
                hovering.hover(m2, line, doc.live.lint_context_taxonomy()))
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


def _joined(*parts: str | None) -> str | None:
    """The hovers that have something to say, one under the other (the curation's and the
    notes above what the line itself shows)."""
    said = [part for part in parts if part]
    return "\n\n---\n\n".join(said) if said else None


def _attribution_hover(ls: M2Server, doc: Any, position: types.Position) -> str | None:
    """An attributed system edit's share, over the source tokens it changes."""
    notes = current(doc)
    if not notes:
        return None
    line, column = convert.position_in(doc.lines, position, ls.encoding)
    note = attribution.at(notes, line, column)
    return note.hover if note is not None else None


def _score_hover(ls: M2Server, doc: Any, line: int) -> str | None:
    view = ls.live_view(doc)
    review = live_score.review_at(view, line) if view is not None else None
    return hovering.score_hover(review, view.beta) if review is not None else None
