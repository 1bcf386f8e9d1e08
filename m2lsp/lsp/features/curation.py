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

from m2lsp.curation.state import DECIDED, IN_PROGRESS
from m2lsp.errors import M2lspError
from m2lsp.lsp.features.sidecars import changed
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
        answer = await asyncio.to_thread(_decide, gold, asked)
    except (M2lspError, OSError, IndexError, TypeError, ValueError) as exc:
        return _fail(ls, f"{CURATE}: {exc}")
    changed(ls, [gold.as_uri()])  # its log changed: N001, lenses, hover
    return answer


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


# gold path -> (the mtimes of its log and inputs, its curation): a hover reads no file
# again while none changed
_OPENED: dict[str, tuple[tuple[float, ...], Any]] = {}


def curation_hover(doc: Any, line: int) -> str | None:
    """On an S line: of a curated gold, the sentence's state and rule, each annotator's
    version and the gold's edits; of any M2 file, the notes on the sentence and its edits.
    On an A line: the notes on that edit.  None elsewhere.  The notes are those the server
    read beside the file (`features.sidecars`)."""
    from m2lsp.curation.keys import sentence_keys
    from m2lsp.files.curation import is_curated

    path = to_fs_path(doc.uri) if str(doc.uri).startswith("file:") else None
    m2 = doc.live.m2
    if not path or m2 is None:
        return None
    at = _sentence_at(m2, line)
    if at is None:
        return None
    index, start, block = at
    key = sentence_keys(m2.blocks)[index]
    notes = [n for n in getattr(doc.live.sidecars, "notes", ()) if n.sentence == key]
    if line != start:
        return "\n".join(_notes_text(_on_edit(block, line - start, notes))) or None
    found = _curation(Path(path)) if is_curated(Path(path)) else None
    outcome = next((o for o in found.outcomes if o.key == key), None) if found else None
    if outcome is None:
        return "\n".join(_notes_text(notes)) if notes else None
    return _hover_text(outcome, notes)


def _sentence_at(m2: Any, line: int) -> tuple[int, int, Any] | None:
    """(the sentence's index among the file's sentences, its S line, its block) of the
    block holding `line`, if it has a sentence."""
    from m2lsp.model import block_at

    found = block_at(m2, line)
    if found is None or found[1].sentence is None:
        return None
    start, block = found
    index = sum(1 for s, b in zip(m2.starts, m2.blocks, strict=True)
                if s < start and b.sentence is not None)
    return index, start, block


def _on_edit(block: Any, row: int, notes: list[Any]) -> list[Any]:
    """The notes on the edit at `row` of the block (a note without an annotator is on
    whoever made the edit)."""
    from m2lsp.curation.keys import EditSpec
    from m2lsp.errors import UsageError

    edit = next((e for e in block.edits if e.row == row and not e.is_noop), None)
    if edit is None:
        return []
    key = EditSpec.of(edit).key
    out = []
    for note in notes:
        try:
            same = note.edit is not None and EditSpec.parse(note.edit).key == key
        except UsageError:
            same = False
        if same and note.annotator in (None, edit.annotator.strip()):
            out.append(note)
    return out


def _curation(gold: Path) -> Any:
    from m2lsp.curation.record import SUFFIX, last_inputs, read_log
    from m2lsp.files.curation import open_curation

    try:
        log = Path(str(gold) + SUFFIX)
        names = last_inputs(read_log(log.read_text(encoding="utf-8")))
        stamp = tuple(p.stat().st_mtime for p in [log, *(gold.parent / n for n in names)])
        cached = _OPENED.get(str(gold))
        if cached is None or cached[0] != stamp:
            cached = _OPENED[str(gold)] = (stamp, open_curation(gold).found)
        return cached[1]
    except (M2lspError, OSError, UnicodeDecodeError):
        return None


def _hover_text(outcome: Any, notes: list[Any]) -> str:
    rule = f" ({outcome.rule})" if outcome.rule else ""
    lines = [f"**curation: {outcome.state}**{rule}, sentence {outcome.number} "
             f"`{outcome.key}`", ""]
    for annotator, version in outcome.versions.items():
        shown = "no line yet" if version is None else \
            "; ".join(f"`{e.key}`" for e in version) or "noop"
        lines.append(f"- annotator {annotator}: {shown}")
    lines.append(f"- gold: {'; '.join(f'`{e.key}`' for e in outcome.edits) or 'noop'}")
    return "\n".join(lines + _notes_text(notes))


def _notes_text(notes: list[Any]) -> list[str]:
    out = []
    for note in notes:
        on = f" on `{note.edit}`" if note.edit else ""
        by = f" (annotator {note.annotator})" if note.annotator is not None else ""
        flag = " (unsure)" if note.unsure else ""
        out.append(f"- note by {note.who}{on}{by}{flag}: {note.text}")
    return out


def curation_lenses(doc: Any) -> list[types.CodeLens]:
    """On a curated gold: "curated N of M sentences" above the first line, and above each
    unfinished sentence every annotator's version: "take annotator K's: <their
    correction>" (a click decides it with m2lsp.curate), or "annotator K: no line yet";
    on a sentence in progress, "done: <the gold's correction>" too."""
    opened = _opened_gold(doc)
    if opened is None:
        return []
    found, rows, keys = opened
    outcomes = {o.key: o for o in found.outcomes}
    out = [_lens(0, f"curated {found.curated} of {len(found.outcomes)} sentences", "", [])]
    for row, key in zip(rows, keys, strict=True):
        outcome = outcomes.get(key)
        if outcome is None or outcome.finished:
            continue
        for annotator, version in outcome.versions.items():
            if version is None:
                out.append(_lens(row, f"annotator {annotator}: no line yet", "", []))
                continue
            title = f"take annotator {annotator}'s: {_corrected(outcome.text, version)}"
            out.append(_lens(row, title, CURATE, [doc.uri, _asked("take", key, annotator)]))
        if outcome.state == IN_PROGRESS:
            title = f"done: {_corrected(outcome.text, outcome.edits)}"
            out.append(_lens(row, title, CURATE, [doc.uri, _asked("done", key)]))
    return out


def _asked(action: str, sentence: str, value: str | None = None,
           source: str | None = None) -> dict[str, str]:
    """The decision m2lsp.curate is asked for."""
    asked = {"action": action, "sentence": sentence}
    if value is not None:
        asked["value"] = value
    if source is not None:
        asked["from"] = source
    return asked


def curation_actions(doc: Any, line: int) -> list[types.CodeAction] | None:
    """On a curated gold (None on other files), the decisions a line offers, each made by
    m2lsp.curate (the gold and its log written, never an annotator's file): on an S line,
    take an annotator's edits, accept an edit an annotator made that the gold lacks,
    reject one it holds, done (in progress), correct as it is, reopen; on an A line of the
    gold, reject that edit."""
    opened = _opened_gold(doc)
    if opened is None:
        return None
    found, _, keys = opened
    at = _sentence_at(doc.live.m2, line)
    outcome = None if at is None else next(
        (o for o in found.outcomes if o.key == keys[at[0]]), None)
    if at is None or outcome is None:
        return []
    _, start, block = at
    if line != start:
        return _reject_line(doc, outcome, block, line - start)
    return [_decision(doc, title, asked) for title, asked in _decisions(outcome)]


def _decisions(outcome: Any) -> list[tuple[str, dict[str, str]]]:
    key, out = outcome.key, []
    for annotator, version in outcome.versions.items():
        if version is not None and not outcome.finished:
            out.append((f"Take annotator {annotator}'s edits", _asked("take", key,
                                                                     annotator)))
    made: dict[Any, list[str]] = {}
    for annotator, version in outcome.versions.items():
        for edit in version or ():
            if edit not in outcome.edits:
                made.setdefault(edit, []).append(annotator)
    for edit, by in sorted(made.items()):
        whose = f"annotator{'s' if len(by) > 1 else ''} {', '.join(by)}"
        out.append((f"Accept {edit.key} ({whose})",
                    _asked("accept", key, edit.key, ",".join(by))))
    out += [(f"Reject {edit.key}", _asked("reject", key, edit.key)) for edit in outcome.edits]
    if outcome.state == IN_PROGRESS:
        out.append(("Done: keep the gold's edits", _asked("done", key)))
    if outcome.edits or not outcome.finished:
        out.append(("Correct as it is (no edit)", _asked("correct", key)))
    if outcome.state in (DECIDED, IN_PROGRESS):
        out.append(("Reopen: forget the decisions on this sentence", _asked("reopen", key)))
    return out


def _reject_line(doc: Any, outcome: Any, block: Any, row: int) -> list[types.CodeAction]:
    from m2lsp.curation.keys import EditSpec

    edit = next((e for e in block.edits if e.row == row and not e.is_noop), None)
    if edit is None or EditSpec.of(edit) not in outcome.edits:
        return []
    key = EditSpec.of(edit).key
    return [_decision(doc, f"Reject this edit ({key})", _asked("reject", outcome.key, key))]


def _decision(doc: Any, title: str, asked: dict[str, str]) -> types.CodeAction:
    return types.CodeAction(title=title, kind=types.CodeActionKind.RefactorRewrite,
                            command=types.Command(title=title, command=CURATE,
                                                  arguments=[doc.uri, asked]))


def _lens(row: int, title: str, command: str, arguments: list[Any]) -> types.CodeLens:
    at = types.Position(line=row, character=0)
    shown = title if len(title) <= 120 else title[:119] + "…"
    return types.CodeLens(range=types.Range(start=at, end=at), command=types.Command(
        title=shown, command=command, arguments=arguments or None))


def _corrected(text: str, edits: Any) -> str:
    """The sentence with the edits applied (first correction of each), or as it is."""
    tokens, out, at = text.split(), [], 0
    for edit in sorted(edits):
        if edit.start < at or edit.end > len(tokens):
            return text
        out.extend(tokens[at:edit.start])
        out.extend((edit.corrections[0] if edit.corrections else "").split())
        at = edit.end
    return " ".join(out + tokens[at:])


# -- the workbench's views on a curated gold: progress, and its open sentences as the
# Disagreements view's rows -------------------------------------------------------------

def _opened_gold(doc: Any) -> tuple[Any, list[int], list[str]] | None:
    """A curated gold's curation, and its S lines' rows and keys as the editor has them."""
    from m2lsp.curation.keys import sentence_keys
    from m2lsp.files.curation import is_curated

    path = to_fs_path(doc.uri) if str(doc.uri).startswith("file:") else None
    m2 = doc.live.m2
    if not path or m2 is None or not is_curated(Path(path)):
        return None
    found = _curation(Path(path))
    if found is None:
        return None
    rows = [s for s, b in zip(m2.starts, m2.blocks, strict=True) if b.sentence is not None]
    return found, rows, sentence_keys(m2.blocks)


def curation_progress(doc: Any) -> list[dict[str, Any]] | None:
    """`m2lsp.progress` on a curated gold: "curated N of M" (None on other files)."""
    opened = _opened_gold(doc)
    if opened is None:
        return None
    found = opened[0]
    text = f"curated {found.curated} of {len(found.outcomes)}"
    return [{"annotator": "curated", "done": found.curated,
             "sentences": len(found.outcomes), "text": text}]


def open_decisions(doc: Any) -> list[dict[str, Any]] | None:
    """On a curated gold, each unfinished sentence in the shape of
    `authoring.disagreements.Disagreement.to_dict` (its S line 1-based, each annotator's
    edits some other annotator lacks), in the file's order; None on other files."""
    opened = _opened_gold(doc)
    if opened is None:
        return None
    found, rows, keys = opened
    outcomes = {o.key: o for o in found.outcomes}
    out = []
    for row, key in zip(rows, keys, strict=True):
        outcome = outcomes.get(key)
        if outcome is not None and not outcome.finished:
            out.append({"sentence": outcome.number, "line": row + 1, "text": outcome.text,
                        "only": _only(outcome)})
    return out


def _only(outcome: Any) -> dict[str, list[dict[str, Any]]]:
    sets = {a: set(v or ()) for a, v in outcome.versions.items()}
    return {a: [{"start": e.start, "end": e.end, "type": e.type,
                 "corrections": list(e.corrections), "line": e.line(a)}
                for e in sorted(own) if any(e not in sets[b] for b in sets if b != a)]
            for a, own in sets.items()}


def curation_disagreements(doc: Any) -> dict[str, Any] | None:
    """`m2lsp.disagreements` on a curated gold: its open decisions (None on other files)."""
    found = open_decisions(doc)
    if found is None:
        return None
    opened = _opened_gold(doc)
    assert opened is not None
    return {"annotators": list(opened[0].annotators), "sentences": len(opened[0].outcomes),
            "disagreements": found}
