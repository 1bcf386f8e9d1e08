"""The language server's features, one module each (as pygls' examples): each module has a
`register(server)`; `create_server()` builds the server with all of them.  Feature modules
import the server's classes; the server module imports none of them (no cycle)."""

from __future__ import annotations

from m2lsp.lsp.server import M2Server

FEATURES = ("lifecycle", "diagnostics", "hover", "outline", "code_actions",
            "semantic_tokens", "completion", "formatting", "scoring", "review")


def create_server() -> M2Server:
    """A server with every feature registered."""
    import importlib

    ls = M2Server()
    for name in FEATURES:
        importlib.import_module(f"m2lsp.lsp.features.{name}").register(ls)
    return ls
