"""The team's pages: an ASGI app serving one project folder (`m2lsp web PROJECT`).

An adapter, beside `lsp/` and `cli/`, over `authoring/` and `curation/`: the files stay
the truth (the source, one M2 file per annotator, the curated gold and its sidecars);
accounts, sessions, assignments and the event history live in one SQLite file beside them.
Starlette, uvicorn and argon2-cffi come with the `web` extra; nothing else in m2lsp imports
them (`required()` says how to install them where they are missing)."""

from __future__ import annotations

import importlib.util

from m2lsp.errors import UsageError

EXTRA = ("starlette", "uvicorn", "argon2")


def required() -> None:
    """A UsageError naming the extra when a module of it is not installed."""
    missing = [name for name in EXTRA if _absent(name)]
    if missing:
        raise UsageError(f"m2lsp web needs {', '.join(missing)}: pip install 'm2lsp[web]'")


def _absent(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is None
    except (ImportError, ValueError):  # a module set to None in sys.modules, or half there
        return True
