"""Which open document a request is about: the helpers every feature module shares."""

from __future__ import annotations

from typing import Any

from m2lsp.lsp.server import M2Server, OpenDocument
from m2lsp.model import Format


def m2_document(ls: M2Server, uri: str) -> tuple[OpenDocument, Any] | None:
    doc = ls.checked_document(uri)
    if doc is None or doc.live.format is not Format.M2:
        return None
    return doc, doc.live.m2


def essay_document(ls: M2Server, uri: str) -> tuple[OpenDocument, Any] | None:
    """An open MultiGEC file and its essays (parsed from the linted document)."""
    doc = ls.checked_document(uri)
    if doc is None or doc.live.format is not Format.MULTIGEC:
        return None
    document = doc.live.lint().document
    return (doc, document) if document is not None else None
