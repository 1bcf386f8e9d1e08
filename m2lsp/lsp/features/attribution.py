"""`m2lsp.explain` [goldUri, systemPath, {metric, attributor, ...}?]: a system's edit
attributions (as `m2lsp explain`) on the open gold document, each edit's share shown as an
inlay hint after the source tokens it changes and in words on hover, until the gold
changes.  `m2lsp.clearExplanation` [goldUri] takes them away."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import Any

from lsprotocol import types

from m2lsp.editor import attribution
from m2lsp.lsp.features.scoring import _fail, _path, _uri
from m2lsp.lsp.server import M2Server, OpenDocument

log = logging.getLogger(__name__)
EXPLAIN = "m2lsp.explain"
CLEAR = "m2lsp.clearExplanation"


def register(ls: M2Server) -> None:
    ls.command(EXPLAIN)(explain)
    ls.command(CLEAR)(clear)


async def explain(ls: M2Server, *args: Any) -> dict[str, Any] | None:
    try:
        gold_uri, system = _uri(args[0]), _path(args[1])
    except (IndexError, TypeError, ValueError) as exc:
        return _fail(ls, f"m2lsp.explain expects [goldUri, systemPath]: {exc}")
    if (why := ls.unreadable(system)) is not None:
        return _fail(ls, f"m2lsp.explain: {why}")
    doc = ls.checked_document(gold_uri)
    if doc is None:
        return _fail(ls, f"the document {gold_uri} is not open")
    options = dict(args[2]) if len(args) > 2 and isinstance(args[2], dict) else {}
    options.setdefault("metric", ls.config.score.metric)
    if ls.config.score.spacy_model:
        options.setdefault("spacy_model", ls.config.score.spacy_model)
    version, text = doc.version, doc.live.text
    try:
        found = await asyncio.get_running_loop().run_in_executor(
            None, _explained, system, text, f"the open document {gold_uri}", options)
    except Exception as exc:  # the server stays up; the user hears why
        from m2lsp.errors import M2lspError

        if not isinstance(exc, M2lspError):
            log.exception("m2lsp.explain failed")
        return _fail(ls, f"cannot explain: {exc}")
    return _shown(ls, doc, version, found)


def _explained(system: Path, gold_text: str, name: str, options: dict[str, Any]) -> Any:
    """The explanation against the open gold, held in memory (no file is written)."""
    from m2lsp.api.explaining import explain as explained
    from m2lsp.parsing.source import Text

    return explained(system, Text.of(name, gold_text), **options)


def _shown(ls: M2Server, doc: OpenDocument, version: int, found: Any
           ) -> dict[str, Any] | None:
    if doc.version != version:
        return _fail(ls, "the gold changed while it was explained; explain again")
    notes = attribution.notes(found.found, doc.lines)
    if isinstance(notes, str):
        return _fail(ls, f"cannot show the attributions: {notes}")
    doc.attribution = (version, notes)
    _refresh(ls)
    data = found.to_dict(top=5)
    edits = len(notes)
    ls.window_show_message(types.ShowMessageParams(
        type=types.MessageType.Info, message=f"m2lsp: {edits} edits attributed "
        f"({data['metric']}, {data['attributor']})"))
    return {key: data[key] for key in ("metric", "attributor", "signature", "types",
                                       "helpful", "harmful")} | {"edits": edits}


def clear(ls: M2Server, *args: Any) -> None:
    doc = ls.documents.get(args[0]) if args and isinstance(args[0], str) else None
    if doc is not None:
        doc.attribution = None
        _refresh(ls)


def _refresh(ls: M2Server) -> None:
    if ls.inlay_hint_refresh:
        with contextlib.suppress(RuntimeError):
            ls.workspace_inlay_hint_refresh(None)


def current(doc: OpenDocument) -> list[attribution.EditNote]:
    """The document's attribution notes, while its text is the one they were made for."""
    if doc.attribution is None or doc.attribution[0] != doc.version:
        return []
    return doc.attribution[1]
