"""The S line's own actions (the core is m2lsp.authoring.source_tokens and .edits):
"Insert at i…" with the cursor between two tokens (an edit of an empty span, through
`m2lsp.addEdit`), "Split token i…" with the cursor inside a token, "Join tokens i–j" with
several selected.

Commands (an answer of {applied: false, error} says why not), each carrying last the
anchor it was made for (`{version, line, sentence}`, m2lsp.authoring.anchors): run after
the text changed, a command finds its sentence again by its S line, or is refused:
- `m2lsp.splitToken` [uri, line, index, pieces, token, anchor]: token `index` of the S
  line cut where `pieces` has spaces, every annotator's edits moved to stay on their
  words.  The code action passes `pieces` null: the client asks for the cut.
- `m2lsp.joinTokens` [uri, line, start, end, anchor]: tokens start..end (end exclusive)
  joined.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lsprotocol import types

from m2lsp.authoring import disagreements as disagreeing
from m2lsp.authoring.anchors import anchor_at
from m2lsp.authoring.source_tokens import Retokenised, join_tokens, split_token
from m2lsp.errors import M2lspError
from m2lsp.lsp import convert
from m2lsp.lsp.features.annotate import APPLY_SECONDS, fail
from m2lsp.lsp.features.authoring import anchored_block
from m2lsp.lsp.server import M2Server, OpenDocument
from m2lsp.model import Block, block_at

ADD_EDIT = "m2lsp.addEdit"  # authoring's command
SPLIT = "m2lsp.splitToken"
JOIN = "m2lsp.joinTokens"


def register(ls: M2Server) -> None:
    ls.command(SPLIT)(split)
    ls.command(JOIN)(join)


def _block(ls: M2Server, args: tuple, name: str
           ) -> tuple[OpenDocument, int, Block, int, Any] | str:
    """The open document, the block the command was made for (found again by the anchor
    it carries, as the workbench's commands find theirs), its first line and the
    command's two values; or why not."""
    usage = "[uri, line, index, text or end, ..., anchor]"
    try:
        first, second = int(args[2]), args[3]
    except (IndexError, TypeError, ValueError):
        return f"{name} expects {usage}"
    found = anchored_block(ls, args, name, usage)
    if isinstance(found, str):
        return found
    doc, start, block, _ = found
    return doc, start, block, first, second


async def split(ls: M2Server, *args: Any) -> dict[str, Any]:
    found = _block(ls, args, SPLIT)
    if isinstance(found, str):
        return fail(ls, found)
    doc, start, block, index, pieces = found
    if not isinstance(pieces, str):
        return fail(ls, f"{SPLIT} needs the pieces (its fourth argument); the client asks "
                    "the user for them")
    return await _rewrite(ls, doc, start, block, lambda: split_token(block, index, pieces),
                          f"Split token {index}")


async def join(ls: M2Server, *args: Any) -> dict[str, Any]:
    found = _block(ls, args, JOIN)
    if isinstance(found, str):
        return fail(ls, found)
    doc, start, block, first, end = found
    try:
        last = int(end)
    except (TypeError, ValueError):
        return fail(ls, f"{JOIN} expects [uri, line, start, end]")
    return await _rewrite(ls, doc, start, block, lambda: join_tokens(block, first, last),
                          f"Join tokens {first}-{last - 1}")


async def _rewrite(ls: M2Server, doc: OpenDocument, start: int, block: Block,
                   work: Callable[[], Retokenised], label: str) -> dict[str, Any]:
    """The block's lines, S line included, replaced as one versioned edit (one undo)."""
    version = doc.version
    try:
        done = work()
    except M2lspError as exc:
        return fail(ls, str(exc))
    last = start + len(block.lines) - 1
    where = types.Range(start=convert.position(doc.lines, start, 0, ls.encoding),
                        end=convert.position(doc.lines, last, len(block.lines[-1]),
                                             ls.encoding))
    edit = types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
        text_document=types.OptionalVersionedTextDocumentIdentifier(uri=doc.uri,
                                                                    version=version),
        edits=[types.TextEdit(range=where, new_text="\n".join(done.lines))])])
    answer = await ls.ask(ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(
        edit=edit, label=label)), APPLY_SECONDS, "workspace/applyEdit")
    if answer is None or not answer.applied:
        return fail(ls, "the editor did not apply the edit (the document changed "
                    "meanwhile, or the editor did not answer); run the action again")
    for note in done.notes:
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning,
                                                       message=f"m2lsp: {note}"))
    return {"applied": True, "lines": done.lines, "notes": list(done.notes)}


def code_actions(ls: M2Server, doc: OpenDocument, selection: types.Range
                 ) -> list[types.CodeAction]:
    """On an S line: "Insert at i…" (the cursor between tokens i-1 and i, or at either
    end), "Split token i…" (the cursor inside a token of two or more characters, or that
    token selected), "Join tokens i–j" (two or more tokens selected)."""
    m2 = doc.live.m2
    line = selection.start.line
    found = block_at(m2, line) if m2 is not None else None
    if found is None or found[1].sentence is None or selection.end.line != line or \
            found[1].sentence.row != line - found[0]:
        return []
    start, block = found
    sentence = block.sentence
    assert sentence is not None
    first = convert.position_in(doc.lines, selection.start, ls.encoding)[1]
    last = convert.position_in(doc.lines, selection.end, ls.encoding)[1]
    columns = sentence.token_columns()
    if not columns or first < 2:
        return []
    kind = types.CodeActionKind.RefactorRewrite
    if first == last:
        out = []
        gap = _gap(columns, first)
        if gap is not None:
            annotators = disagreeing.annotators_of(m2) if m2 is not None else []
            out.append(_action(f"Insert at {gap}…", ADD_EDIT, [
                doc.uri, start, gap, gap, None, None, annotators or ["0"], "",
                _where(doc, start, block)], kind))
        inside = [k for k, (a, b) in enumerate(columns) if a < first < b]
        return out + [_split_action(doc, start, block, k) for k in inside]
    covered = [k for k, (a, b) in enumerate(columns) if a < last and first < b]
    if len(covered) == 1:
        k = covered[0]
        return [_split_action(doc, start, block, k)] if len(
            sentence.tokens[k]) > 1 else []
    if len(covered) > 1:
        i, j = covered[0], covered[-1] + 1
        return [_action(f"Join tokens {i}–{j - 1}", JOIN,
                        [doc.uri, start, i, j, _where(doc, start, block)], kind)]
    return []


def _gap(columns: tuple[tuple[int, int], ...], col: int) -> int | None:
    """The offset of the gap at column `col` (before token i: i), or None inside a
    token."""
    for k, (a, b) in enumerate(columns):
        if col <= a:
            return k
        if col < b:
            return None
    return len(columns)


def _split_action(doc: OpenDocument, start: int, block: Block, index: int
                  ) -> types.CodeAction:
    assert block.sentence is not None
    token = block.sentence.tokens[index]
    return _action(f"Split token {index}…", SPLIT,
                   [doc.uri, start, index, None, token, _where(doc, start, block)],
                   types.CodeActionKind.RefactorRewrite)


def _where(doc: OpenDocument, start: int, block: Block) -> dict[str, Any]:
    """The anchor a command carries: the version, sentence and line it was made for."""
    return anchor_at(doc.version, start, block).to_dict()


def _action(title: str, command: str, arguments: list[Any],
            kind: types.CodeActionKind) -> types.CodeAction:
    return types.CodeAction(title=title, kind=kind, command=types.Command(
        title=title, command=command, arguments=arguments))
