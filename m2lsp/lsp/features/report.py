"""The report in the editor: the command `m2lsp.report [goldUri, [systemPaths], {metric?,
names?, samples?}]` answers {html, json} (the page `m2lsp report` writes, and its data), or
{error}.  The client shows the page in a webview; the page asks the client to reveal a
sentence's gold line.  The report is built in a thread; a cancelled request stops it at its
next resample (`m2lsp.cancellation`)."""

from __future__ import annotations

import asyncio
import logging
import threading
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import to_fs_path

from m2lsp.arguments import SAMPLES
from m2lsp.cancellation import cancellable
from m2lsp.errors import M2lspError
from m2lsp.lsp.server import M2Server

log = logging.getLogger(__name__)

REPORT = "m2lsp.report"


def register(ls: M2Server) -> None:
    ls.command(REPORT)(report)


async def report(ls: M2Server, *args: Any) -> dict[str, Any]:
    try:
        gold, systems = _path(args[0]), [_path(p) for p in args[1]]
        options = args[2] if len(args) > 2 and isinstance(args[2], dict) else {}
    except (IndexError, TypeError, ValueError) as exc:
        return _fail(ls, f"{REPORT} expects [goldUri, [systemPaths], {{metric?}}]: {exc}")
    if not systems:
        return _fail(ls, f"{REPORT}: choose at least one system file")
    why = next(filter(None, map(ls.unreadable, [gold, *systems])), None) or _invalid(options)
    if why is not None:
        return _fail(ls, f"{REPORT}: {why}")
    stop = threading.Event()
    ls.working.append(REPORT)
    try:
        return await asyncio.to_thread(_cancellable, ls, stop, ls.config.score, gold,
                                       systems, options)
    except asyncio.CancelledError:
        stop.set()  # the thread stops at its next resample
        raise
    except M2lspError as exc:
        return _fail(ls, f"cannot make the report: {exc}")


def _invalid(options: dict[str, Any]) -> str | None:
    """What is wrong with the options the client sent, or None."""
    if "samples" in options and SAMPLES.check(options["samples"]) is None:
        return f"samples must be {SAMPLES.describe()}, not {options['samples']!r}"[:200]
    names = options.get("names")
    if names is not None and (not isinstance(names, list) or not all(
            isinstance(n, str) and n for n in names)):
        return "names must be a list of non-empty strings, one a system"
    metric = options.get("metric")
    if metric is not None and not isinstance(metric, str):
        return "metric must be a metric's name"
    return None


def _cancellable(ls: M2Server, stop: threading.Event, *args: Any) -> dict[str, Any]:
    """`_build` in the report's thread, stopped by `stop` (then leaves the work list)."""
    try:
        with cancellable(stop):
            return _build(*args)
    finally:
        ls.working.remove(REPORT)


def _path(value: Any) -> Path:
    if not isinstance(value, str) or not value:
        raise ValueError("expected a path or file URI")
    return Path((to_fs_path(value) or value) if value.startswith("file:") else value)


def _build(config: Any, gold: Path, systems: list[Path], options: dict[str, Any]
           ) -> dict[str, Any]:
    from m2lsp.reporting.data import MAX_SENTENCES, build_report, report_json
    from m2lsp.reporting.page import html_page
    from m2lsp.scoring.metric import Request, Shared, metric, names

    name = options.get("metric") or config.metric
    if name not in names():
        raise M2lspError(f"metric {name!r} is not one of {', '.join(names())}")
    chosen = metric(name)
    shared = Shared(beta=config.beta)
    request = Request(systems[0], gold, shared, chosen.options({}, shared, config))
    labels = options.get("names") or [p.name for p in systems]
    samples = int(SAMPLES.check(options.get("samples", 1000)) or 1000)
    found = build_report(chosen, request, systems, labels, samples)
    data = report_json(found, MAX_SENTENCES)
    return {"html": html_page(data), "metric": name, "systems": len(systems),
            "json": {k: v for k, v in data.items() if k not in ("sentences", "messages")}}


def _fail(ls: M2Server, message: str) -> dict[str, Any]:
    log.warning("%s", message)
    ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning,
                                                   message=f"m2lsp: {message}"))
    return {"error": message}
