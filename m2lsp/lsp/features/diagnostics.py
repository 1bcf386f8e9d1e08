"""Diagnostics, pushed (textDocument/publishDiagnostics, coalesced: a burst of changes is
linted once) or pulled (textDocument/diagnostic, with a resultId and `unchanged` when nothing
moved since the client asked): a document's lint findings within `max-diagnostics`, then the
marks of its score."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from typing import Any

from lsprotocol import types

from m2lsp.linting.incremental import Selection
from m2lsp.lsp import convert, live_score
from m2lsp.lsp.features.sidecars import current
from m2lsp.lsp.server import M2Server, OpenDocument

log = logging.getLogger(__name__)


def register(ls: M2Server) -> None:
    ls.feature(types.TEXT_DOCUMENT_DIAGNOSTIC, types.DiagnosticOptions(
        identifier="m2lsp", inter_file_dependencies=False,
        workspace_diagnostics=False))(pull_diagnostics)
    pending: dict[str, asyncio.Handle] = {}
    ls.changed.append(lambda uri: schedule(ls, pending, uri))


async def pull_diagnostics(ls: M2Server, params: types.DocumentDiagnosticParams) -> Any:
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return types.RelatedFullDocumentDiagnosticReport(items=[])
    await current(doc)  # the files beside it, once read (N001-N003)
    if params.previous_result_id == doc.result_id:  # nothing moved since the client asked
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=doc.result_id)
    for _ in range(3):  # a document that keeps changing is linted on the loop at last
        if not doc.checked or doc.live.linted:
            break
        await linted(doc)
    return types.RelatedFullDocumentDiagnosticReport(items=diagnostics(ls, doc),
                                                     result_id=doc.result_id)


# one thread lints whole documents, off the event loop: requests are answered meanwhile
_LINTER = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="m2lsp-lint")


async def linted(doc: OpenDocument) -> bool:
    """Lint the document's current text in the linting thread; whether the result was
    kept (False: the text changed meanwhile)."""
    generation, run = doc.live.pending()
    result = await asyncio.get_running_loop().run_in_executor(_LINTER, run)
    return doc.live.adopt(generation, result)


def schedule(ls: M2Server, pending: dict[str, asyncio.Handle], uri: str) -> None:
    """Push once the changes waiting in the queue are applied (a client that pulls asks
    itself)."""
    if ls.pull:
        return
    handle = pending.pop(uri, None)
    if handle is not None:
        handle.cancel()
    pending[uri] = asyncio.get_event_loop().call_soon(publish, ls, pending, uri)


# a publication waits while more messages are waiting (a burst of keystrokes is published
# once, for its newest version), at most this many turns of the loop
MAX_DEFERRALS = 10_000


def publish(ls: M2Server, pending: dict[str, asyncio.Handle], uri: str,
            deferred: int = 0) -> None:
    if ls.input_waiting() and deferred < MAX_DEFERRALS:
        pending[uri] = asyncio.get_event_loop().call_soon(publish, ls, pending, uri,
                                                          deferred + 1)
        return
    pending.pop(uri, None)
    doc = ls.documents.get(uri)
    if doc is not None and doc.checked and not doc.live.linted:
        task = asyncio.ensure_future(linted(doc))  # then published, unless it changed
        task.add_done_callback(lambda done: _then_publish(ls, pending, uri, done))
        _RUNNING.add(task)
        return
    found = diagnostics(ls, doc) if doc is not None else []  # closed: none
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
        uri=uri, version=doc.version if doc is not None else None, diagnostics=found))


_RUNNING: set[asyncio.Task] = set()  # kept until done (the loop holds tasks weakly)


def _then_publish(ls: M2Server, pending: dict[str, asyncio.Handle], uri: str,
                  done: asyncio.Task) -> None:
    _RUNNING.discard(done)
    if done.cancelled():
        return
    if done.exception() is not None:
        log.error("linting %s failed: %s", uri, done.exception())
    elif done.result() and uri not in pending:  # a later change publishes for itself
        publish(ls, pending, uri)


def diagnostics(ls: M2Server, doc: OpenDocument) -> list[types.Diagnostic]:
    """The document's diagnostics, at most `max-diagnostics` of them (the most severe,
    then those nearest the last edit) and a note on top for the rest; then the marks
    of its score, within what the limit leaves (lint findings come first)."""
    limit = ls.config.editor.max_diagnostics
    try:
        chosen = doc.live.select(limit, doc.focus) if doc.checked else Selection((), 0)
    except Exception:  # a bug must not take the server down with it
        log.exception("linting %s failed", doc.uri)
        chosen = Selection((), 0)
    out = [convert.diagnostic(d, doc.lines, doc.uri, ls.encoding) for d in chosen.diagnostics]
    if chosen.hidden:
        out.insert(0, convert.limit_note(chosen.hidden, chosen.total, limit, doc.uri))
    if doc.checked and doc.live.unchecked:
        out.insert(0, convert.budget_note(doc.live.unchecked, doc.live.budget or 0, doc.uri))
    out.extend(convert.diagnostic(d, doc.lines, doc.uri, ls.encoding, source="m2lsp-score")
               for d in doc.scores)
    view = ls.live_view(doc)
    if view is not None:
        room = max(limit - len(out), 1) if limit else 0
        out.extend(live_score.diagnostics(ls, doc, view, room))
    if not doc.checked:
        out.extend(_as_a_system(ls, doc, max(limit - len(out), 1) if limit else 0))
    return out


def _as_a_system(ls: M2Server, doc: OpenDocument, room: int) -> list[types.Diagnostic]:
    """Marks on the words of a document that a live score reads as its system."""
    out = []
    for gold in list(ls.documents.values()):
        session = gold.session
        if session is None or gold is doc or not session.system.matches(doc.uri):
            continue
        view = ls.live_view(gold)
        if view is not None and view.hypothesis_tokens:
            out.extend(live_score.hypothesis_diagnostics(ls, doc, gold, view, room))
    return out
