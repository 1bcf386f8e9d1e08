"""The pygls language server: its open documents, their diagnostics and settings.  The
handlers live in `m2lsp.lsp.features` (one module a feature), which builds the server;
the diagnostics, pushed or pulled, are `features.diagnostics`'s (the server says when a
document's changed).

Documents are kept as `m2lsp.linting.incremental.LiveDocument`s, not in pygls's workspace:
pygls rebuilds the whole text on every incremental change, which costs more than a
keystroke's budget on a 400k-line file.  Diagnostics are pulled when the client can pull,
pushed otherwise.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import logging
import secrets
import sys
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.uris import to_fs_path

from m2lsp.config import Config, config_from_mapping
from m2lsp.diagnostic import Diagnostic
from m2lsp.linting.incremental import LiveDocument, TextChange
from m2lsp.lsp import convert, live_score
from m2lsp.lsp.live_score import ScoreSession
from m2lsp.model import Format
from m2lsp.parsing.detect import detect_format
from m2lsp.parsing.m2 import paused_gc
from m2lsp.scoring.metric import names
from m2lsp.version import __version__

log = logging.getLogger(__name__)

# A pass of the rules over a whole document (formats other than M2, which re-check only the
# blocks a change touches) runs in the linting thread, off the loop; past this many seconds
# the rules not yet begun are skipped and a note says which.
LINT_SECONDS = 10.0

LANGUAGE_FORMATS = {"gec-m2": Format.M2, "gec-cged": Format.CGED,
                    "gec-cged-truth": Format.TRUTH, "gec-cged-input": Format.INPUT,
                    "gec-multigec": Format.MULTIGEC, "gec-ua-gec": Format.ANN}


class M2Protocol(LanguageServerProtocol):
    """Keeps open documents as LiveDocuments instead of pygls TextDocuments."""

    def _execute_handler(self, msg_id: Any, handler: Any, callback: Any, args: Any = None,
                         kwargs: Any = None) -> None:
        """pygls 2.1 keeps the future of a generator handler (and of each handler a
        generator yields to) under a fresh id and never removes it: every notification
        leaked about 2 KB.  A future is dropped here once it is done; and a cancelled
        generator cancels the handler it is waiting for."""
        def done(future: Any) -> None:
            if self._request_futures.get(msg_id) is future:
                del self._request_futures[msg_id]
            callback(future)

        super()._execute_handler(msg_id, handler, done, args, kwargs)
        # A handler a generator yields to (a command under workspace/executeCommand) runs
        # under a fresh id: a $/cancelRequest cancels only the generator's future, so its
        # cancellation is passed on to the handler's (a report then stops computing).
        outer = getattr(callback, "keywords", {}).get("result_future")
        inner = self._request_futures.get(msg_id)
        if outer is not None and inner is not None and not inner.done():
            outer.add_done_callback(lambda f: inner.cancel() if f.cancelled() else None)

    _exited = False  # the client said exit: its end of the transport is closed

    def _send_data(self, data: Any) -> None:
        """Nothing is sent once the client said exit: a diagnostic or a score finished
        after it found the output closed, and pygls reported that failure by sending an
        error message, which failed again, each failure chained to the last (a burst of
        initialize, didOpen, shutdown and exit wrote 190,000 lines of tracebacks)."""
        if not self._exited:
            super()._send_data(data)

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams,
                                    ) -> Iterator[Any]:
        self._server.open_document(params.text_document)  # type: ignore[attr-defined]
        yield from ()

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams,
                                      ) -> Iterator[Any]:
        self._server.change_document(params)  # type: ignore[attr-defined]
        yield from ()

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams,
                                     ) -> Iterator[Any]:
        self._server.close_document(params.text_document.uri)  # type: ignore[attr-defined]
        yield from ()

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args: Any) -> Generator[Any, Any, None]:
        """Over TCP, a client that leaves ends the server quietly: pygls calls sys.exit
        inside asyncio's connection callback, which asyncio reports as an unhandled
        exception with a traceback.  Closing the listening socket ends `start_tcp` instead
        (over stdio pygls's own exit is used)."""
        self._exited = True
        if not isinstance(self.writer, asyncio.StreamWriter):
            yield from super().lsp_exit(*args)
            return
        if (user_handler := self.fm.features.get(types.EXIT)) is not None:
            yield user_handler, args, None
        self.writer.close()
        listening = getattr(self._server, "_server", None)
        if listening is not None:
            listening.close()


class OpenDocument:
    """A document the client has open: its text, version, and published diagnostics."""

    def __init__(self, uri: str, version: int, live: LiveDocument, checked: bool = True,
                 opened: str = "") -> None:
        self.uri = uri
        self.opened = opened  # names this open among every open of the server's life
        self.version = version
        self.live = live
        self.checked = checked  # False: not M2 or CGED (a system's output): kept, not linted
        self.scores: list[Diagnostic] = []  # a one-off score's marks (metrics not live)
        self.session: ScoreSession | None = None  # a live score of this gold document
        self.score_error: str | None = None  # why the last request to score it failed
        self.focus = 0  # the line of the last edit: diagnostics near it are shown first
        self.cursor: int | None = None  # the line a request last asked about (completion,
        # hover, code actions: LSP has no cursor notification); its block shows token numbers
        self.stamp = 0  # counts changes other than the text's (scores, settings)
        self.agreement: dict[tuple, str | None] = {}  # a block's lines, beta -> its lens
        self.attribution: tuple[int, list] | None = None  # (version, editor.attribution
        # notes): a system's edit attributions on this gold, while its text is unchanged
        # the files beside an M2 document (features.sidecars): those whose change means
        # reading them again, their stamp when last read, and the read under way
        self.watched: tuple[Path, ...] = ()
        self.sidecars_stamp: tuple | None = None
        self.reading: asyncio.Future | None = None

    @property
    def result_id(self) -> str:
        """Names what the diagnostics were computed from (pull diagnostics' resultId): the
        open (a document closed and opened again may restart at the same version with
        another text), the version, and the changes other than the text's."""
        return f"{self.opened}.{self.version}.{self.stamp}"

    @property
    def lines(self) -> list[str]:
        return self.live.lines


class M2Server(LanguageServer):
    def __init__(self) -> None:
        super().__init__("m2lsp", __version__, protocol_cls=M2Protocol,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.documents: dict[str, OpenDocument] = {}
        self.config = Config()
        self.base = Config()
        self.pull = False
        self.refresh_support = False
        self.asks_configuration = False
        self.code_lens_refresh = False
        self.inlay_hint_refresh = False
        # called with a uri whose diagnostics changed (the diagnostics feature listens)
        self.changed: list[Callable[[str], None]] = []
        # called with each document the client opens (the sidecars feature listens)
        self.opened: list[Callable[[OpenDocument], None]] = []
        self.exit_code = 0  # LSP's: 0 after shutdown then exit, 1 for exit alone
        # each open's name: this process's (an id from before a restart names nothing) and
        # a count of opens
        self.opens = (f"{secrets.token_hex(4)}-{n}" for n in itertools.count(1))
        # over TCP (anyone on the machine may connect, with the token), commands read only
        # files inside the workspace's folders or documents the client opened
        self.confined = False
        self.roots: list[Path] = []  # the workspace's folders (initialize)
        self.working: list[str] = []  # work running in threads (m2lsp/serverStats)
        # whether more of the client's messages have arrived, not yet handled (stdio)
        self.input_waiting: Callable[[], bool] = lambda: False

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """pygls's stdio server with m2lsp's frame reader (`transport`: every malformed
        message answered, resynchronised after a bad header), keeping the exit code pygls
        ends the process with."""
        import threading

        from pygls.io_ import StdoutWriter

        from m2lsp.lsp import transport

        self._stop_event = stop = threading.Event()
        reader = transport.ReadAhead(stdin or sys.stdin.buffer)
        self.input_waiting = reader.waiting
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))

        async def serve() -> None:
            reader.start()
            await transport.serve(reader, self.protocol, stop)

        try:
            asyncio.run(serve())
        except BrokenPipeError:
            log.error("the connection to the client is lost; shutting down")
        except SystemExit as exc:  # pygls's exit notification
            self.exit_code = exc.code if isinstance(exc.code, int) else 1
        except KeyboardInterrupt:
            pass
        finally:
            self.shutdown()

    def unreadable(self, path: Path) -> str | None:
        """Why a command may not read `path`, or None when it may: over TCP, only files
        inside the workspace's folders or documents the client opened (symbolic links
        followed); over stdio, whatever the server's user may read (the client is that
        user's own editor, which started the server)."""
        if not self.confined:
            return None
        try:
            real = path.resolve()
        except (OSError, RuntimeError, ValueError):
            return f"{path} cannot be resolved"
        if any(real.is_relative_to(root) for root in self.roots):
            return None
        opened = {Path(to_fs_path(uri) or "").resolve() for uri in self.documents
                  if uri.startswith("file:")}
        if real in opened:
            return None
        return (f"{path} is outside the workspace and not an open document (over TCP the "
                "server reads only those)")

    def start_tcp(self, host: str, port: int, token: str = "") -> None:
        """Listen on host:port for one client that passes `token` (see `m2lsp.lsp.tcp`);
        the server ends when that client leaves."""
        import threading

        from m2lsp.lsp import tcp, transport

        self._stop_event = stop = threading.Event()
        self.confined = True
        bound: list[asyncio.StreamWriter] = []

        async def connection(reader: asyncio.StreamReader,
                             writer: asyncio.StreamWriter) -> None:
            def bind() -> None:
                bound.append(writer)
                self.protocol.set_writer(writer)

            gate = tcp.Gate(token, writer, lambda: bool(bound), bind)
            try:
                await transport.serve(reader, self.protocol, stop, gate)
            except (ConnectionError, asyncio.IncompleteReadError):
                pass
            finally:
                writer.close()
                listening = getattr(self, "_server", None)
                if gate.opened and listening is not None:
                    listening.close()  # its client left: the server ends

        async def listen() -> None:
            self._server = await asyncio.start_server(connection, host, port)
            async with self._server:
                with suppress(asyncio.CancelledError):
                    await self._server.serve_forever()

        try:
            asyncio.run(listen())
        finally:
            self.shutdown()

    # -- documents -------------------------------------------------------------------

    def open_document(self, item: types.TextDocumentItem) -> None:
        fmt = document_format(item.uri, item.language_id, item.text)
        corpus = None
        path = Path(to_fs_path(item.uri) or "") if item.uri.startswith("file:") else None
        if fmt is Format.MULTIGEC and path is not None and (
                not self.confined or any(path.resolve().is_relative_to(root)
                                         for root in self.roots)):
            from m2lsp.linting.files import corpus_of

            corpus = corpus_of(path)  # its original, from disk
        with settled_gc():
            # a document of no known format is kept for m2lsp.scoreAgainst; TRUTH lints lazily
            live = LiveDocument(item.text, fmt or Format.TRUTH, self.config.lint,
                                corpus=corpus, budget=LINT_SECONDS)
        doc = self.documents[item.uri] = OpenDocument(item.uri, item.version, live,
                                                      fmt is not None, next(self.opens))
        for listener in self.opened:
            listener(doc)
        self.schedule(item.uri)
        self.systems_changed(item.uri)

    def change_document(self, params: types.DidChangeTextDocumentParams) -> None:
        doc = self.documents.get(params.text_document.uri)
        if doc is None:
            return
        changes = []
        for change in params.content_changes:
            if isinstance(change, types.TextDocumentContentChangePartial):
                start = convert.position_in(doc.lines, change.range.start, self.encoding)
                end = convert.position_in(doc.lines, change.range.end, self.encoding)
                changes.append(TextChange(change.text, start, end))
                doc.focus = doc.cursor = start[0]
            else:
                changes.append(TextChange(change.text))
            doc.live.apply(changes[-1:])
        doc.version = params.text_document.version
        doc.scores = []
        self.systems_changed(doc.uri)  # the scores it changes first: what users wait for
        self.schedule(doc.uri)

    def close_document(self, uri: str) -> None:
        self.documents.pop(uri, None)
        self.schedule(uri)  # a closed document has none
        self.systems_changed(uri)

    def systems_changed(self, uri: str) -> None:
        """Re-score the gold documents whose system is the document at `uri`."""
        for doc in self.documents.values():
            if doc.session is not None and doc.session.system.matches(uri):
                self.refresh(doc.uri)

    def checked_document(self, uri: str) -> OpenDocument | None:
        """The open document at `uri` if it is one m2lsp checks (M2 or CGED)."""
        doc = self.documents.get(uri)
        return doc if doc is not None and doc.checked else None

    # -- diagnostics -------------------------------------------------------------------

    def schedule(self, uri: str) -> None:
        """The diagnostics of `uri` changed: tell the listeners (the diagnostics feature
        pushes them, or the client pulls them)."""
        for listener in self.changed:
            listener(uri)

    def live_view(self, doc: OpenDocument) -> Any:
        """The document's live score, brought up to date (None: none, or not scorable now;
        the client hears of every change of it through m2lsp/scoreChanged)."""
        session = doc.session
        if session is None:
            return None
        view = session.current(self, doc)
        if view is not session.shown_on_system:
            session.shown_on_system = view
            for uri in self.documents:  # its marks on the system's words move too
                if uri != doc.uri and session.system.matches(uri):
                    self.schedule(uri)
        status = session.status(doc)
        if status != session.notified:
            session.notified = status
            self.protocol.notify(live_score.SCORE_CHANGED, status)
            if self.code_lens_refresh:
                self.workspace_code_lens_refresh(None)
        return view

    def refresh(self, uri: str) -> None:
        """Diagnostics of `uri` changed without a text change (scores, settings)."""
        doc = self.documents.get(uri)
        if doc is not None:
            doc.stamp += 1
        if not self.pull:
            self.schedule(uri)
        elif self.refresh_support:
            self.workspace_diagnostic_refresh(None)

    def cursor(self, doc: OpenDocument, line: int) -> None:
        """The client asked about `line` of `doc`: where the cursor is.  A new block there
        moves the token numbers shown in the cursor's block."""
        before, doc.cursor = doc.cursor, line
        if not _block_changed(doc, before, line):
            return
        if self.config.editor.token_numbers == "block" and self.inlay_hint_refresh:
            self.workspace_inlay_hint_refresh(None)
        if self.code_lens_refresh:  # each annotator's correction, above the cursor's block
            self.workspace_code_lens_refresh(None)

    async def ask(self, request: Any, seconds: float, what: str) -> Any:
        """The client's answer to a request the server sent (an awaitable), or None when it
        fails or does not come within `seconds`: no request waits on the client for ever
        (a client may ignore a request it did not declare it can answer)."""
        try:
            return await asyncio.wait_for(request, seconds)
        except TimeoutError:
            log.warning("the client did not answer %s within %g s", what, seconds)
        except Exception as exc:
            log.warning("the client could not answer %s: %s", what, exc)
        return None

    @property
    def declares_progress(self) -> bool:
        """Whether the client said it shows work-done progress (window.workDoneProgress):
        only then does the server ask it to create a progress token."""
        try:
            window = self.client_capabilities.window
        except AttributeError:  # before initialize
            return False
        return bool(window is not None and window.work_done_progress)

    @property
    def encoding(self) -> str:
        """The agreed position encoding: utf-8, utf-16 or utf-32."""
        try:
            chosen = self.server_capabilities.position_encoding
        except AttributeError:  # before initialize
            return "utf-16"
        return str(chosen or "utf-16")

    def apply_config(self, values: Any, origin: str, *, base: bool = False) -> None:
        """Client settings over the base (pyproject.toml and initializationOptions): a
        setting the client drops falls back to the base, not to its last value."""
        if isinstance(values, dict):
            values = values.get("m2lsp", values)
        if not isinstance(values, dict):
            log.warning("%s: expected an object of m2lsp settings, got %r", origin, values)
            return
        self.config = config_from_mapping(values, self.base, origin, metrics=names())
        if base:
            self.base = self.config
        for doc in self.documents.values():
            with settled_gc():
                doc.live.reconfigure(self.config.lint)
            if doc.session is not None:
                doc.session.reconfigure(self.config.score)
            doc.stamp += 1
            self.schedule(doc.uri)


def _block_changed(doc: OpenDocument, before: int | None, line: int) -> bool:
    from m2lsp.authoring.tokens import block_index

    m2 = doc.live.m2
    if m2 is None:
        return False
    return before is None or block_index(m2, before) != block_index(m2, line)


class ClientLog(logging.Handler):
    """m2lsp's own warnings (bad settings, failed requests) to the client's log
    (`window/logMessage`), where editors show them next to the server's output."""

    LEVELS = ((logging.ERROR, types.MessageType.Error),
              (logging.WARNING, types.MessageType.Warning),
              (logging.INFO, types.MessageType.Info))

    def __init__(self, ls: M2Server) -> None:
        super().__init__(logging.INFO)
        self.ls = ls

    def emit(self, record: logging.LogRecord) -> None:
        kind = next((t for level, t in self.LEVELS if record.levelno >= level),
                    types.MessageType.Log)
        try:
            self.ls.window_log_message(types.LogMessageParams(type=kind,
                                                              message=self.format(record)))
        except Exception:  # no client yet, or the transport is gone
            self.handleError(record)


@contextmanager
def settled_gc() -> Iterator[None]:
    """Build a document's blocks without the cycle collector, then move what was built to
    the permanent generation (`gc.freeze`): the AST is acyclic, so reference counting frees
    it, and a large document would otherwise cost a full collection now (about a second at
    400k lines) and a scan of it on every later one."""
    was_enabled = gc.isenabled()
    with paused_gc():
        yield
        if was_enabled:
            gc.freeze()


def document_format(uri: str, language_id: str | None, text: str) -> Format | None:
    """The format of an opened document: its language id, else its name and content."""
    if language_id in LANGUAGE_FORMATS:
        return LANGUAGE_FORMATS[language_id]
    path = to_fs_path(uri) if uri.startswith("file:") else uri
    return detect_format(path, text)
