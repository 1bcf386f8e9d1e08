"""The files beside an open M2 file, read as `m2lsp check` reads them (`files.sidecars`):
its notes (`FILE.notes.jsonl`) and, on a curated gold, the decision log and the annotators'
files it names.  The rules that read them (N001 unfinished curation, N002 orphaned note,
N003 unreadable sidecar) then report in the editor what `check` reports, and hover shows
the notes.

They are read (in a thread, off the loop) when the document is opened or saved, when the
client says one of them changed on disk (`workspace/didChangeWatchedFiles`: the server
asks to watch them when the client can register watchers), and after a decision of
`m2lsp.curate`; read again only if one of them changed since (their sizes and times).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import to_fs_path

from m2lsp.lsp.server import M2Server, OpenDocument
from m2lsp.model import Format

log = logging.getLogger(__name__)

WATCHED = ("**/*.notes.jsonl", "**/*.curation.jsonl", "**/*.m2")
READ_SECONDS = 30.0  # how long a request waits for the sidecars being read


def register(ls: M2Server) -> None:
    ls.feature(types.TEXT_DOCUMENT_DID_SAVE)(did_save)
    ls.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)(did_change_watched_files)
    ls.opened.append(lambda doc: reread(ls, doc))


_TASKS: set[asyncio.Task] = set()  # kept until done (the loop holds tasks weakly)


def start_watching(ls: M2Server) -> None:
    """`watch`, without holding up what `initialized` does next."""
    task = asyncio.ensure_future(watch(ls))
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)


async def watch(ls: M2Server) -> None:
    """Ask the client to tell of changes to notes, decision logs and M2 files on disk, if
    it can register watchers (initialized)."""
    try:
        workspace = ls.client_capabilities.workspace
    except AttributeError:
        return
    changes = workspace.did_change_watched_files if workspace is not None else None
    if changes is None or not changes.dynamic_registration:
        return
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[types.FileSystemWatcher(glob_pattern=glob) for glob in WATCHED])
    await ls.ask(ls.client_register_capability_async(types.RegistrationParams(
        registrations=[types.Registration(id="m2lsp-sidecars",
                                          method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                                          register_options=options)])),
        10.0, "client/registerCapability (sidecars are read again on save)")


def did_save(ls: M2Server, params: types.DidSaveTextDocumentParams) -> None:
    changed(ls, [params.text_document.uri])


def did_change_watched_files(ls: M2Server, params: types.DidChangeWatchedFilesParams
                             ) -> None:
    changed(ls, [change.uri for change in params.changes])


def changed(ls: M2Server, uris: Iterable[str]) -> None:
    """Files changed on disk: read again the sidecars of each open M2 document that is one
    of them or reads one of them."""
    paths = {_resolved(to_fs_path(uri)) for uri in uris if uri.startswith("file:")}
    paths.discard(None)
    for doc in list(ls.documents.values()):
        own = _path(doc)
        if own is None:
            continue
        if _resolved(str(own)) in paths or any(_resolved(str(p)) in paths
                                               for p in doc.watched):
            reread(ls, doc)


def reread(ls: M2Server, doc: OpenDocument) -> None:
    """Read the sidecars of an M2 document on disk again, in a thread; its diagnostics and
    lenses are refreshed if they changed."""
    path = _path(doc)
    if path is None:
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # no loop (a document opened outside the server's loop)
        return
    if doc.reading is not None and not doc.reading.done():
        doc.reading.add_done_callback(lambda _: reread(ls, doc))  # after the one under way
        return
    doc.reading = loop.create_task(_read(ls, doc, path))


async def current(doc: OpenDocument) -> Any:
    """The sidecars of `doc` once the read under way is over (None: it has none)."""
    if doc.reading is not None and not doc.reading.done():
        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(doc.reading), READ_SECONDS)
    return doc.live.sidecars


async def _read(ls: M2Server, doc: OpenDocument, path: Path) -> None:
    from m2lsp.files.sidecars import sidecars_of, watched

    try:
        watching = await asyncio.to_thread(watched, path)
        stamp = await asyncio.to_thread(_stamp, watching)
        if stamp == doc.sidecars_stamp:
            return
        found = await asyncio.to_thread(sidecars_of, path)
    except Exception:  # a sidecar must never take the server down
        log.exception("reading the files beside %s failed", path)
        return
    if ls.documents.get(doc.uri) is not doc:  # closed meanwhile
        return
    doc.watched, doc.sidecars_stamp = watching, stamp
    if found != doc.live.sidecars:
        doc.live.use_sidecars(found)
        ls.refresh(doc.uri)
    if ls.code_lens_refresh:  # the curation's lenses read the same files
        ls.workspace_code_lens_refresh(None)


def _stamp(paths: Iterable[Path]) -> tuple:
    """What tells that files changed: each one's size and modification time (None: gone)."""
    out: list[Any] = []
    for path in paths:
        try:
            found = path.stat()
            out.append((str(path), found.st_size, found.st_mtime_ns))
        except OSError:
            out.append((str(path), None))
    return tuple(out)


def _path(doc: OpenDocument) -> Path | None:
    """The file of an open M2 document (None: another format, or not a file)."""
    if doc.live.format is not Format.M2 or not doc.uri.startswith("file:"):
        return None
    found = to_fs_path(doc.uri)
    return Path(found) if found else None


def _resolved(path: str | None) -> str | None:
    if not path:
        return None
    try:
        return str(Path(path).resolve())
    except (OSError, RuntimeError, ValueError):
        return None
