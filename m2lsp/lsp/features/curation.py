"""Curating in the editor, over `m2lsp.curation` as the command line is:

- `m2lsp.curationStatus [goldUri]` answers the curation as data (what `m2lsp curate GOLD
  --status --format json` prints: each sentence's state, rule, the gold's edits and each
  annotator's version), or {error};
- `m2lsp.curate [goldUri, {action, sentence, value?, from?, who?}]` makes one decision
  (`take`, `accept`, `reject`, `edit`, `correct`, `done`, `reopen`; `accept-agreed` needs no
  sentence), appends it to the log and writes the gold (never an annotator's file), and
  answers {curated, sentences, counts} or {error}.  The client reloads the gold."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import to_fs_path

from m2lsp.errors import M2lspError
from m2lsp.lsp.server import M2Server

STATUS = "m2lsp.curationStatus"
CURATE = "m2lsp.curate"


def register(ls: M2Server) -> None:
    ls.command(STATUS)(curation_status)
    ls.command(CURATE)(curate)


async def curation_status(ls: M2Server, *args: Any) -> dict[str, Any]:
    try:
        gold = _gold(args)
        return await asyncio.to_thread(_status, gold)
    except (M2lspError, OSError, IndexError, TypeError, ValueError) as exc:
        return _fail(ls, f"{STATUS}: {exc}")


async def curate(ls: M2Server, *args: Any) -> dict[str, Any]:
    try:
        gold = _gold(args)
        asked = args[1] if len(args) > 1 and isinstance(args[1], dict) else {}
        return await asyncio.to_thread(_decide, gold, asked)
    except (M2lspError, OSError, IndexError, TypeError, ValueError) as exc:
        return _fail(ls, f"{CURATE}: {exc}")


def _gold(args: tuple[Any, ...]) -> Path:
    path = to_fs_path(str(args[0]))
    if not path:
        raise ValueError(f"not a file URI: {args[0]!r}")
    return Path(path)


def _status(gold: Path) -> dict[str, Any]:
    from m2lsp.curation.requests import status_data
    from m2lsp.files.curation import open_curation

    return status_data(gold.name, open_curation(gold).found)


def _decide(gold: Path, asked: dict[str, Any]) -> dict[str, Any]:
    from m2lsp.curation.record import now
    from m2lsp.curation.requests import accept_agreed, requested
    from m2lsp.files.curation import decide, open_curation

    opened = open_curation(gold)
    who = str(asked.get("who") or os.environ.get("USER") or "unknown")
    time = now()
    action = str(asked.get("action", ""))
    if action == "accept-agreed":
        decisions = accept_agreed(opened.found, who, time)
    else:
        value = asked.get("value")
        source = asked.get("from")
        decisions = [requested(opened.found, action, str(asked.get("sentence", "")),
                               None if value is None else str(value),
                               None if source is None else str(source), who, time)]
    found = decide(opened, decisions, who, time)
    return {"curated": found.curated, "sentences": len(found.outcomes),
            "complete": found.complete, "counts": found.counts()}


def _fail(ls: M2Server, message: str) -> dict[str, Any]:
    ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning,
                                                   message=f"m2lsp: {message}"))
    return {"error": message}
