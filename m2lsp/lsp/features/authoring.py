"""The annotator's workbench in the editor (the core is m2lsp.authoring): code actions and
commands that add an edit for selected tokens, type an edit again, list the annotators'
disagreements and adjudicate them, and say how far each annotator has got.

Commands (arguments in brackets; an answer of {applied: false, error} says why not).  The
ones that change the file carry, as their last argument, where their code action was made:
`{version, line, sentence, row?, edit?}` (`m2lsp.authoring.anchors`).  Run after the text
changed, a command finds its sentence again by its S line (and its edit line), or is
refused; one without it is refused.  Annotator ids must be non-negative integers and a
correction cannot hold `|||`.
- `m2lsp.addEdit` [uri, line, start, end, correction, annotator?]: an edit of `annotator`
  (default: the block's first, else 0) for tokens start..end (end exclusive) of the S line
  at `line`, typed by the engine of `m2lsp annotate`.  The code action passes `correction`
  null with the tokens' text and the block's annotators after it: the client asks for the
  correction (and, where there are several, the annotator), then runs the command.
- `m2lsp.retypeEdit` [uri, line]: the edit on that A line typed again.
- `m2lsp.adopt` [uri, line, source, target?], `m2lsp.acceptEdit` [uri, line, target?],
  `m2lsp.keepOnly` [uri, line, annotator]: adjudication of the block at `line` (target:
  the `adjudicator` setting).
- `m2lsp.disagreements` [uri]: every sentence where the annotators' edit sets differ.
- `m2lsp.nextDisagreement` [uri, line, "next"|"previous"]: the next one's S line, or null.
- `m2lsp.progress` [uri]: each annotator's annotated sentences.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from lsprotocol import types

from m2lsp.authoring import disagreements as disagreeing
from m2lsp.authoring.anchors import anchor_at, anchor_from, refound
from m2lsp.authoring.checks import checked_annotator, checked_correction
from m2lsp.authoring.edits import Rewrite, added, retyped
from m2lsp.authoring.progress import progress
from m2lsp.errors import M2lspError, UsageError
from m2lsp.lsp import convert
from m2lsp.lsp.features.annotate import apply_block, engines_for, fail, worker
from m2lsp.lsp.features.curation import (
    curation_disagreements,
    curation_progress,
    open_decisions,
)
from m2lsp.lsp.server import M2Server, OpenDocument
from m2lsp.model import Block, block_at

ADD_EDIT = "m2lsp.addEdit"
RETYPE = "m2lsp.retypeEdit"
ADOPT = "m2lsp.adopt"
ACCEPT = "m2lsp.acceptEdit"
KEEP_ONLY = "m2lsp.keepOnly"
DISAGREEMENTS = "m2lsp.disagreements"
NEXT = "m2lsp.nextDisagreement"
PROGRESS = "m2lsp.progress"


def register(ls: M2Server) -> None:
    for name, handler in ((ADD_EDIT, add_edit), (RETYPE, retype_edit), (ADOPT, adopt),
                          (ACCEPT, accept_edit), (KEEP_ONLY, keep_only),
                          (DISAGREEMENTS, list_disagreements), (NEXT, next_disagreement),
                          (PROGRESS, annotators_progress)):
        ls.command(name)(handler)


# -- what the commands work on ------------------------------------------------------------

def anchored_block(ls: M2Server, args: tuple, name: str, usage: str
           ) -> tuple[OpenDocument, int, Block, int] | str:
    """The open document, the block the command was made for (found again in the current
    text by the anchor its last argument carries), its first line and the line the
    command is about; or why not."""
    try:
        uri, line = args[0], int(args[1])
    except (IndexError, TypeError, ValueError):
        return f"{name} expects {usage}"
    doc = ls.checked_document(uri) if isinstance(uri, str) else None
    m2 = doc.live.m2 if doc is not None else None
    if doc is None or m2 is None:
        return f"no M2 sentence at line {line + 1} of {uri}"
    try:
        found = refound(m2, anchor_from(next((a for a in reversed(args)
                                               if isinstance(a, dict)), None)))
    except M2lspError as exc:
        return f"{name}: {exc}"
    if found.block.sentence is None:
        return f"no M2 sentence at line {line + 1} of {uri}"
    return doc, found.start, found.block, found.line


def _annotators(doc: OpenDocument) -> list[str]:
    m2 = doc.live.m2
    return disagreeing.annotators_of(m2) if m2 is not None else []


async def _rewrite(ls: M2Server, doc: OpenDocument, start: int, block: Block,
                   work: Callable[[], Rewrite], label: str) -> dict[str, Any]:
    """Run `work` in the annotation thread (it may load an engine), then apply its lines as
    one edit of the block."""
    version = doc.version
    try:
        found = await asyncio.get_running_loop().run_in_executor(worker, work)
    except M2lspError as exc:
        return fail(ls, str(exc))
    failed = await apply_block(ls, doc, start, block, found.lines, version, label)
    if failed is not None:
        return failed
    if found.note:
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Info,
                                                       message=f"m2lsp: {found.note}"))
    return {"applied": True, "lines": found.lines, "engine": found.engine,
            **({"note": found.note} if found.note else {})}


# -- commands ---------------------------------------------------------------------------

async def add_edit(ls: M2Server, *args: Any) -> dict[str, Any]:
    usage = "[uri, line, start, end, correction, annotator?, ..., where]"
    found = anchored_block(ls, args, ADD_EDIT, usage)
    if isinstance(found, str):
        return fail(ls, found)
    doc, start, block, _ = found
    try:
        first, end, correction = int(args[2]), int(args[3]), args[4]
    except (IndexError, TypeError, ValueError):
        return fail(ls, f"{ADD_EDIT} expects {usage}")
    if not isinstance(correction, str):
        return fail(ls, f"{ADD_EDIT} needs the correction (its fifth argument); the client "
                    "asks the user for it")
    try:
        correction = checked_correction(correction)
        annotator = checked_annotator(_given(args, 5) or next(iter(block.by_annotator), None)
                                      or (_annotators(doc) or ["0"])[0])
    except M2lspError as exc:
        return fail(ls, f"{ADD_EDIT}: {exc}")
    engines = engines_for(ls)
    return await _rewrite(ls, doc, start, block,
                          lambda: added(block, first, end, correction, annotator, engines),
                          f"Add an edit for tokens {first}-{end} (annotator {annotator})")


def _given(args: tuple, index: int) -> str | None:
    value = args[index] if len(args) > index else None
    if isinstance(value, dict | list):  # the anchor, or the code action's own data
        return None
    return str(value).strip() if value not in (None, "") else None


def _annotator(value: str | None, what: str) -> str:
    """An annotator argument, checked (UsageError naming `what` it is)."""
    if value is None:
        raise UsageError(f"needs the {what}")
    return checked_annotator(value)


async def retype_edit(ls: M2Server, *args: Any) -> dict[str, Any]:
    found = anchored_block(ls, args, RETYPE, "[uri, line, where]")
    if isinstance(found, str):
        return fail(ls, found)
    doc, start, block, line = found
    row, engines = line - start, engines_for(ls)
    return await _rewrite(ls, doc, start, block, lambda: retyped(block, row, engines),
                          "Re-classify this edit")


async def adopt(ls: M2Server, *args: Any) -> dict[str, Any]:
    found = anchored_block(ls, args, ADOPT, "[uri, line, source, target?, where]")
    if isinstance(found, str):
        return fail(ls, found)
    doc, start, block, _ = found
    try:
        source = _annotator(_given(args, 2), "source annotator")
        target = _annotator(_given(args, 3) or ls.config.editor.adjudicator, "target")
    except M2lspError as exc:
        return fail(ls, f"{ADOPT}: {exc}")
    return await _plain(ls, doc, start, block,
                        lambda: disagreeing.adopted(block, source, target),
                        f"Adopt annotator {source}'s edits as annotator {target}")


async def accept_edit(ls: M2Server, *args: Any) -> dict[str, Any]:
    found = anchored_block(ls, args, ACCEPT, "[uri, line, target?, where]")
    if isinstance(found, str):
        return fail(ls, found)
    doc, start, block, line = found
    try:
        target = _annotator(_given(args, 2) or ls.config.editor.adjudicator, "target")
    except M2lspError as exc:
        return fail(ls, f"{ACCEPT}: {exc}")
    row = line - start
    return await _plain(ls, doc, start, block,
                        lambda: disagreeing.accepted(block, row, target),
                        f"Accept this edit into annotator {target}")


async def keep_only(ls: M2Server, *args: Any) -> dict[str, Any]:
    found = anchored_block(ls, args, KEEP_ONLY, "[uri, line, annotator, where]")
    if isinstance(found, str):
        return fail(ls, found)
    doc, start, block, _ = found
    try:
        keep = _annotator(_given(args, 2), "annotator to keep")
    except M2lspError as exc:
        return fail(ls, f"{KEEP_ONLY}: {exc}")
    return await _plain(ls, doc, start, block, lambda: disagreeing.kept_only(block, keep),
                        f"Keep only annotator {keep}")


async def _plain(ls: M2Server, doc: OpenDocument, start: int, block: Block,
                 work: Callable[[], list[str]], label: str) -> dict[str, Any]:
    """An adjudication: no engine, the lines applied as one edit."""
    try:
        lines = work()
    except M2lspError as exc:
        return fail(ls, str(exc))
    failed = await apply_block(ls, doc, start, block, lines, doc.version, label)
    return failed if failed is not None else {"applied": True, "lines": lines}


def list_disagreements(ls: M2Server, *args: Any) -> dict[str, Any] | None:
    doc = ls.checked_document(args[0]) if args and isinstance(args[0], str) else None
    m2 = doc.live.m2 if doc is not None else None
    if m2 is None:
        return None
    if (curated := curation_disagreements(doc)) is not None:  # a curated gold: its open ones
        return curated
    found = disagreeing.disagreements(m2)
    return {"annotators": disagreeing.annotators_of(m2),
            "sentences": sum(1 for b in m2.blocks if b.sentence is not None),
            "disagreements": [d.to_dict() for d in found]}


def next_disagreement(ls: M2Server, *args: Any) -> dict[str, Any] | None:
    """{line, sentence} of the next (or previous) disagreeing sentence's S line (0-based
    line), wrapping around the document; null when there is none."""
    doc = ls.checked_document(args[0]) if args and isinstance(args[0], str) else None
    m2 = doc.live.m2 if doc is not None else None
    if m2 is None:
        return None
    try:
        line = int(args[1])
    except (IndexError, TypeError, ValueError):
        line = 0
    forward = (args[2] if len(args) > 2 else "next") != "previous"
    curated = open_decisions(doc)  # a curated gold: its open sentences
    found = disagreeing.disagreements(m2) if curated is None else [
        disagreeing.Disagreement(d["sentence"], d["line"] - 1, d["text"], {}) for d in curated]
    if not found:
        return None
    after = [d for d in found if d.line > line] if forward else [
        d for d in reversed(found) if d.line < line]
    chosen = after[0] if after else (found[0] if forward else found[-1])
    return {"line": chosen.line, "sentence": chosen.sentence}


def annotators_progress(ls: M2Server, *args: Any) -> list[dict[str, Any]] | None:
    doc = ls.checked_document(args[0]) if args and isinstance(args[0], str) else None
    m2 = doc.live.m2 if doc is not None else None
    if m2 is None:
        return None
    if (curated := curation_progress(doc)) is not None:  # a curated gold: curated N of M
        return curated
    return [{"annotator": p.annotator, "done": p.done, "sentences": p.sentences,
             "text": str(p)} for p in progress(m2)]


# -- code actions -----------------------------------------------------------------------

def code_actions(ls: M2Server, doc: OpenDocument, selection: types.Range
                 ) -> list[types.CodeAction]:
    """On an S line with tokens selected (or the cursor on one), "Add an edit for tokens
    i-j…"; on an A line, "Re-classify this edit"; on a sentence the annotators disagree
    on, adjudication."""
    m2 = doc.live.m2
    line = selection.start.line
    found = block_at(m2, line) if m2 is not None else None
    if found is None or found[1].sentence is None:
        return []
    start, block = found
    row = line - start
    out = []
    if row == 0 and selection.end.line == line:
        out += _add_actions(ls, doc, start, block, selection)
    edit = next((e for e in block.edits if e.row == row), None)
    if edit is not None and not edit.is_noop:
        out.append(_action("Re-classify this edit", RETYPE,
                           [doc.uri, line, _where(doc, start, block, row)],
                           types.CodeActionKind.RefactorRewrite))
    return out + _adjudication(ls, doc, start, block, row)


def _add_actions(ls: M2Server, doc: OpenDocument, start: int, block: Block,
                 selection: types.Range) -> list[types.CodeAction]:
    assert block.sentence is not None
    first = convert.position_in(doc.lines, selection.start, ls.encoding)[1]
    last = convert.position_in(doc.lines, selection.end, ls.encoding)[1]
    columns = block.sentence.token_columns()
    covered = [k for k, (a, b) in enumerate(columns)
               if (a < last and first < b) or (first == last and a <= first <= b)]
    if not covered:
        return []
    i, j = covered[0], covered[-1] + 1
    tokens = " ".join(block.sentence.tokens[i:j])
    annotators = _annotators(doc) or ["0"]
    title = f"Add an edit for token{'s' if j - i > 1 else ''} {i}" + (
        f"–{j - 1}…" if j - i > 1 else "…")
    return [_action(title, ADD_EDIT, [doc.uri, start, i, j, None, None, annotators, tokens,
                                      _where(doc, start, block)],
                    types.CodeActionKind.RefactorRewrite)]


def _adjudication(ls: M2Server, doc: OpenDocument, start: int, block: Block, row: int
                  ) -> list[types.CodeAction]:
    everyone = _annotators(doc)
    differs = disagreeing.disagreement(block, everyone)
    if not differs:
        return []
    target = ls.config.editor.adjudicator
    line = start + row
    kind = types.CodeActionKind.RefactorRewrite
    where = _where(doc, start, block, row)
    if row == 0:
        return [_action(f"Adopt annotator {a}'s edits as annotator {target}", ADOPT,
                        [doc.uri, start, a, target, where], kind)
                for a in everyone if a != target] + \
            [_action(f"Keep only annotator {a}", KEEP_ONLY, [doc.uri, start, a, where], kind)
             for a in everyone]
    edit = next((e for e in block.edits if e.row == row), None)
    if edit is None or edit.is_noop or edit.annotator.strip() == target:
        return []
    mine = {disagreeing.key(e) for e in block.by_annotator.get(target, [])}
    if disagreeing.key(edit) in mine:
        return []
    return [_action(f"Accept this edit into annotator {target}", ACCEPT,
                    [doc.uri, line, target, where], kind)]


def _where(doc: OpenDocument, start: int, block: Block, row: int = 0) -> dict[str, Any]:
    """The anchor a command carries: the version, sentence and line it was made for."""
    return anchor_at(doc.version, start, block, row).to_dict()


def _action(title: str, command: str, arguments: list[Any],
            kind: types.CodeActionKind) -> types.CodeAction:
    return types.CodeAction(title=title, kind=kind, command=types.Command(
        title=title, command=command, arguments=arguments))
