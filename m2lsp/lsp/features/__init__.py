"""The language server's features, one module each (as pygls' examples): each module has a
`register(server)`; `create_server()` builds the server with all of them.  Feature modules
import the server's classes; the server module imports none of them (no cycle)."""

from __future__ import annotations

from m2lsp.lsp.features import (
    annotate,
    attribution,
    authoring,
    code_actions,
    completion,
    curation,
    diagnostics,
    formatting,
    hover,
    lifecycle,
    outline,
    report,
    review,
    scoring,
    semantic_tokens,
    sidecars,
    source_tokens,
)
from m2lsp.lsp.server import M2Server

FEATURES = (lifecycle, diagnostics, hover, outline, code_actions, semantic_tokens, completion,
            formatting, scoring, review, annotate, report, attribution, authoring,
            curation, sidecars, source_tokens)


def create_server() -> M2Server:
    """A server with every feature registered."""
    ls = M2Server()
    for feature in FEATURES:
        feature.register(ls)
    return ls
