"""Reading the files a command needs whole: a clear InputError instead of a traceback."""

from __future__ import annotations

from m2lsp.parsing.source import read_source as read_text

__all__ = ["read_text"]
