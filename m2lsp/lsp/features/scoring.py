"""The scoring commands: `m2lsp.score`, `m2lsp.scoreAgainst`, `m2lsp.clearScores`.  A loop
over the metric registry: each metric scores the open document in steps (`Metric.in_editor`)
and this module shows its marks, message and answer."""

from __future__ import annotations

import asyncio
import gc
import logging
import uuid
from collections.abc import Generator
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import to_fs_path

from m2lsp.files.reading import read_bytes
from m2lsp.lsp.live_score import SCORE_CHANGED, ScoreSession, SystemRef
from m2lsp.lsp.server import M2Server, OpenDocument
from m2lsp.model import Format

log = logging.getLogger(__name__)

SCORE = "m2lsp.score"
SCORE_AGAINST = "m2lsp.scoreAgainst"
CLEAR_SCORES = "m2lsp.clearScores"
PROGRESS_SENTENCES = 1000  # report progress when scoring more sentences than this
PROGRESS_ANSWER_SECONDS = 5.0  # how long a client may take to create a progress token


def register(ls: M2Server) -> None:
    for name, handler in ((SCORE, score), (SCORE_AGAINST, score_against),
                          (CLEAR_SCORES, clear_scores)):
        ls.command(name)(handler)


def _uri(value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"expected a document URI, got {type(value).__name__}")
    return value


def _path(value: Any) -> Path:
    if not isinstance(value, str) or not value:
        raise ValueError("expected a path or file URI")
    return Path((to_fs_path(value) or value) if value.startswith("file:") else value)


async def score(ls: M2Server, *args: Any) -> dict[str, Any] | None:
    """[goldUri, systemPath, {metric}?]: score a system file against an open gold document.
    With metric `errant` the system file is hypothesis M2 (default: the `metric` setting)."""
    try:
        gold_uri, system = _uri(args[0]), _path(args[1])
    except (IndexError, ValueError, TypeError) as exc:
        return _fail(ls, f"m2lsp.score expects [goldUri, systemPath]: {exc}")
    if (why := ls.unreadable(system)) is not None:
        return _failed(ls, gold_uri, why)
    try:
        text = read_bytes(system, pipes=False).decode("utf-8")
    except OSError as exc:
        return _failed(ls, gold_uri,
                       f"cannot read the system file {args[1]}: {exc.strerror or exc}")
    except UnicodeDecodeError as exc:
        return _failed(ls, gold_uri, f"the system file {args[1]} is not UTF-8 (byte "
                       f"{exc.start})")
    return await _score(ls, gold_uri, text, _options(args), SystemRef(path=system.resolve()))


def _options(args: tuple[Any, ...]) -> dict[str, Any]:
    return args[2] if len(args) > 2 and isinstance(args[2], dict) else {}


async def score_against(ls: M2Server, *args: Any) -> dict[str, Any] | None:
    """[goldUri, systemUri, {metric}?]: score an open system document against an open gold
    one."""
    try:
        gold_uri, system_uri = _uri(args[0]), _uri(args[1])
    except (IndexError, TypeError, ValueError) as exc:
        return _fail(ls, f"m2lsp.scoreAgainst expects [goldUri, systemUri]: {exc}")
    system = ls.documents.get(system_uri)
    if system is None:
        return _failed(ls, gold_uri, f"the system document {system_uri} is not open")
    return await _score(ls, gold_uri, system.live.text, _options(args),
                        SystemRef(uri=system_uri))


async def _score(ls: M2Server, uri: Any, system_text: str, options: dict[str, Any],
                 system: SystemRef) -> dict[str, Any] | None:
    from m2lsp.api.scoring import checked_options
    from m2lsp.errors import M2lspError
    from m2lsp.scoring.metric import EditorJob, declared, live_scoring, metric, names

    name = options.get("metric", ls.config.score.metric)
    if name not in names():
        return _fail(ls, f"metric {name!r} is not one of " + ", ".join(names()))
    doc = ls.checked_document(uri) if isinstance(uri, str) else None
    if doc is None and declared(name).plain_text_document and isinstance(uri, str):
        doc = ls.documents.get(uri)  # a plain-text file, which is not checked
    if doc is None:
        return _fail(ls, f"the document {uri} is not open")
    try:
        options = checked_options(name, options)
    except M2lspError as exc:
        return _failed(ls, uri, str(exc))
    live = doc.live
    job = EditorJob(doc.uri, live.text, live.lines, live.format,
                    live.m2 if live.format is Format.M2 else None, system_text, options,
                    ls.config.score)
    scoring = live_scoring(name, ls.config.score)
    doc.score_error = None
    try:
        if scoring is not None:
            return await _score_live(ls, doc, ScoreSession(name, scoring, system, options),
                                     job)
        scorer = metric(name)
        if scorer.editor == "steps":
            found = await _evaluate(ls, doc, _sentences(job), scorer.in_editor(job))
        else:
            steps = scorer.in_editor(job) if scorer.editor == "thread" else _as_files(
                name, job, system)
            found = await _in_thread(ls, doc, _sentences(job), steps)
    except M2lspError as exc:
        doc.score_error = f"cannot score: {exc}"
        return _fail(ls, doc.score_error)
    except Exception:  # a bug must not end in an internal error with a traceback
        log.exception("scoring %s with %s failed", doc.uri, name)
        doc.score_error = f"cannot score: {name} failed (see the server log)"
        return _fail(ls, doc.score_error)
    if found is None:
        doc.score_error = "the document changed while it was scored; score again"
        return _fail(ls, doc.score_error)
    doc.scores, doc.session = found.marks, None
    ls.refresh(doc.uri)
    ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Info,
                                                   message=found.message))
    return found.data


async def _score_live(ls: M2Server, doc: OpenDocument, session: ScoreSession,
                      job: Any) -> dict[str, Any]:
    """Score once in steps (progress, a responsive server), then keep the score current:
    later edits of the gold or the system re-score what they change."""
    key, _ = session.system_text(ls)
    version = doc.version
    view = await _evaluate(ls, doc, _sentences(job), session.live.steps(job),
                           stop_on_change=False)
    session.adopt(view, (version, key))
    _freeze()
    # e.g. spaCy, not loaded when every line was in the cache (a no-op for most metrics)
    loading = asyncio.get_running_loop().run_in_executor(None, _logged(session.live.warm_up))
    loading.add_done_callback(lambda _: _freeze())
    doc.scores, doc.session = [], session
    ls.refresh(doc.uri)
    ls.live_view(doc)  # tells the client (m2lsp/scoreChanged) now, not at the next publish
    warnings = "".join(f"; warning: {w}" for w in view.warnings)
    ls.window_show_message(types.ShowMessageParams(
        type=types.MessageType.Warning if view.warnings else types.MessageType.Info,
        message=f"{view.headline}  ({view.signature}){warnings}"))
    return {"precision": view.precision, "recall": view.recall, "f": view.f,
            "signature": view.signature, **view.counts, "sentences": len(view.reviews),
            "live": True}


def _freeze() -> None:
    """What the first score built (a pipeline, tables, every sentence's result) lives as
    long as the session: kept out of later full collections, which would otherwise scan it
    on keystrokes (about 100 ms with spaCy loaded)."""
    if gc.isenabled():
        gc.freeze()


def _logged(work: Any) -> Any:
    """`work` for a thread: a failure is logged (the next edit says it again), not lost."""
    def run() -> None:
        try:
            work()
        except Exception as exc:  # a missing pipeline: the edit that needs it reports it
            log.warning("preparing the live score failed: %s", exc)
    return run


def _sentences(job: Any) -> int:
    """About how many sentences a job has (for progress): blocks of M2, else lines."""
    return len(job.document.blocks) if job.document is not None else len(job.lines)


async def _evaluate(ls: M2Server, doc: OpenDocument, sentences: int,
                    steps: Generator[int, None, Any], stop_on_change: bool = True) -> Any:
    """Run a scorer's steps, yielding to the event loop between them (requests and changes
    keep flowing) and reporting progress; None if the gold document changed meanwhile
    (unless told not to stop: a live score catches up with changes afterwards)."""
    version = doc.version
    token = await _begin(ls, sentences)
    try:
        while True:
            done = next(steps)
            _report(ls, token, done, sentences)
            await asyncio.sleep(0)
            if stop_on_change and (doc.version != version
                                   or ls.documents.get(doc.uri) is not doc):
                return None
    except StopIteration as finished:
        return finished.value
    finally:
        _end(ls, token)


def _as_files(name: str, job: Any, system: SystemRef) -> Generator[int, None, Any]:
    """A metric with no editor code of its own: the open gold and the system scored as
    files (`m2lsp score`'s path through the API)."""
    from m2lsp.editor import file_scores

    gold = to_fs_path(job.uri) or job.uri
    return file_scores.steps(name, gold, job.text, job.lines, system.path,
                             str(system.path or system.uri), job.system_text, job.options)


async def _in_thread(ls: M2Server, doc: OpenDocument, sentences: int,
                     steps: Generator[int, None, Any]) -> Any:
    """Run a scorer's steps in a thread (a learned metric loads its models and runs them,
    seconds to minutes of work the loop could not break into steps), the server answering
    meanwhile; None if the gold document changed."""
    from m2lsp.scoring.metric import drain

    version = doc.version
    token = await _begin(ls, sentences, always=True)  # begun and ended, without counts
    try:
        found = await asyncio.get_running_loop().run_in_executor(None, drain, steps)
    finally:
        _end(ls, token)
    if doc.version != version or ls.documents.get(doc.uri) is not doc:
        return None
    return found


def _report(ls: M2Server, token: str | None, done: int, total: int) -> None:
    if token is not None:
        ls.work_done_progress.report(token, types.WorkDoneProgressReport(
            message=f"{done}/{total} sentences", percentage=100 * done // max(total, 1)))


async def _begin(ls: M2Server, sentences: int, always: bool = False) -> str | None:
    """A progress token, where the client declared progress and answers its creation."""
    if (sentences <= PROGRESS_SENTENCES and not always) or not ls.declares_progress:
        return None
    token = str(uuid.uuid4())
    created = ls.work_done_progress.create_async(token)
    if await ls.ask(_created(created), PROGRESS_ANSWER_SECONDS,
                    "window/workDoneProgress/create") is None:
        return None
    ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(
        title="m2lsp: scoring", message=f"{sentences} sentences", percentage=0))
    return token


async def _created(request: Any) -> bool:
    await request
    return True


def _end(ls: M2Server, token: str | None) -> None:
    if token is not None:
        ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message="scored"))


def clear_scores(ls: M2Server, *args: Any) -> None:
    uris = [a for a in args if isinstance(a, str)] or list(ls.documents)
    for uri in uris:
        doc = ls.documents.get(uri)
        if doc is not None and (doc.scores or doc.session is not None):
            if doc.session is not None:
                ls.protocol.notify(SCORE_CHANGED, {"uri": uri, "cleared": True})
            doc.scores, doc.session = [], None
            ls.refresh(uri)


def _failed(ls: M2Server, gold_uri: str, message: str) -> dict[str, Any] | None:
    """`_fail`, and the reason kept on the gold document, so that a client asking why it
    has no score hears this failure, not an earlier one."""
    doc = ls.documents.get(gold_uri)
    if doc is not None:
        doc.score_error = f"cannot score: {message}"
    return _fail(ls, message)


def _fail(ls: M2Server, message: str) -> dict[str, Any] | None:
    """Says why a request failed (the log and the user); the request's answer: None."""
    log.warning(message)
    ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Error,
                                                   message=f"m2lsp: {message}"))
    return None
