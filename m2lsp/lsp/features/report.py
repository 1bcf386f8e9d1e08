"""The report in the editor: the command `m2lsp.report [goldUri, [systemPaths], {metric?,
names?, samples?}]` answers {html, json} (the page `m2lsp report` writes, and its data), or
{error}.  The client shows the page in a webview; the page asks the client to reveal a
sentence's gold line."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import to_fs_path

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
    try:
        return await asyncio.to_thread(_build, ls.config.score, gold, systems, options)
    except M2lspError as exc:
        return _fail(ls, f"cannot make the report: {exc}")


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
    found = build_report(chosen, request, systems, labels, int(options.get("samples", 1000)))
    data = report_json(found, MAX_SENTENCES)
    return {"html": html_page(data), "metric": name, "systems": len(systems),
            "json": {k: v for k, v in data.items() if k not in ("sentences", "messages")}}


def _fail(ls: M2Server, message: str) -> dict[str, Any]:
    log.warning("%s", message)
    ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning,
                                                   message=f"m2lsp: {message}"))
    return {"error": message}
