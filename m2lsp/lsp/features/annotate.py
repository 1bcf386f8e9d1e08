"""Annotating from a correction: the command `m2lsp.annotateFromCorrection [uri, line,
correctedText, annotatorId?]` and the code action "Annotate from a correction…" on an S
line or any of its A lines.

The command aligns the block's source with the corrected sentence (the engine of `m2lsp
annotate`, see m2lsp.annotation.from_correction) and replaces that annotator's lines of
the block, in one versioned workspace edit (one undo step; a client whose document changed
meanwhile refuses it).  The code action carries no text: the client asks for it (VS Code:
an input box prefilled with the annotator's current correction, which the action's fifth
argument holds; Neovim and Emacs: a prompt), then runs the command.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from lsprotocol import types

from m2lsp.annotation.from_correction import (
    Annotation,
    Engines,
    annotate_correction,
    annotator_at,
    rewritten_block,
    target_lines,
)
from m2lsp.authoring.checks import checked_annotator
from m2lsp.authoring.edits import kept_by_hand, tokenised, untouched_kept
from m2lsp.errors import M2lspError
from m2lsp.lsp import convert
from m2lsp.lsp.server import M2Server, OpenDocument
from m2lsp.model import Block, block_at, corrected_sentence

log = logging.getLogger(__name__)
APPLY_SECONDS = 30.0  # how long the editor may take to apply an edit

ANNOTATE = "m2lsp.annotateFromCorrection"
TITLE = "Annotate from a correction…"
NEEDS_TEXT = (f"{ANNOTATE} needs the corrected sentence (its third argument); the client "
              "asks the user for it")
_engines: dict[tuple[str, str | None], Any] = {}  # loaded once per language and setting
# one thread loads and runs the engines (the server answers meanwhile; the engines' parse
# cache, an SQLite connection, stays in the thread that opened it)
worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="m2lsp-annotate")


def register(ls: M2Server) -> None:
    ls.command(ANNOTATE)(annotate_from_correction)


def code_action(ls: M2Server, doc: OpenDocument, line: int) -> types.CodeAction | None:
    """The action on an S or A line of a block with a sentence (None elsewhere)."""
    m2 = doc.live.m2
    found = block_at(m2, line) if m2 is not None else None
    sentence = found[1].sentence if found is not None else None
    if found is None or sentence is None:
        return None
    start, block = found
    if not (line == start or any(e.row == line - start for e in block.edits)):
        return None
    annotator = annotator_at(block, line - start)
    current = corrected_sentence(block, annotator) or sentence.text
    return types.CodeAction(
        title=f"{TITLE} (annotator {annotator})", kind=types.CodeActionKind.RefactorRewrite,
        command=types.Command(title=f"{TITLE} (annotator {annotator})", command=ANNOTATE,
                              arguments=[doc.uri, start, None, annotator, current]))


async def annotate_from_correction(ls: M2Server, *args: Any) -> dict[str, Any]:
    """[uri, line, correctedText, annotatorId?]: replace the annotator's lines of the block
    at `line`; answers {applied, lines, engine, note?} or {error}."""
    try:
        uri, line, text = args[0], int(args[1]), args[2]
    except (IndexError, TypeError, ValueError):
        return fail(ls, f"{ANNOTATE} expects [uri, line, correctedText, annotatorId?]")
    if not isinstance(text, str):
        return fail(ls, NEEDS_TEXT)
    doc = ls.checked_document(uri) if isinstance(uri, str) else None
    m2 = doc.live.m2 if doc is not None else None
    found = block_at(m2, line) if m2 is not None else None
    if doc is None or found is None or found[1].sentence is None:
        return fail(ls, f"no M2 sentence at line {line + 1} of {uri}")
    start, block = found
    try:
        annotator = checked_annotator(args[3]) if len(args) > 3 and args[3] not in (
            None, "") else annotator_at(block, line - start)
    except M2lspError as exc:
        return fail(ls, f"{ANNOTATE}: {exc}")
    return await _apply(ls, doc, start, block, annotator, text)


async def _apply(ls: M2Server, doc: OpenDocument, start: int, block: Block, annotator: str,
                 text: str) -> dict[str, Any]:
    version, tokens = doc.version, block.sentence.tokens if block.sentence else ()
    engines = engines_for(ls)
    try:
        text = await asyncio.get_running_loop().run_in_executor(  # `a car.` -> `a car .`
            worker, tokenised, tokens, text, engines)
        annotation = await asyncio.get_running_loop().run_in_executor(
            worker, annotate_correction, tokens, text, annotator, engines)
    except M2lspError as exc:
        return fail(ls, f"cannot annotate: {exc}")
    # the edits the change does not touch stay as they were (split or typed by hand)
    new = tuple(untouched_kept(block, annotator, text.split(),
                               kept_by_hand(annotation.lines, block, annotator)))
    if block.targets and annotation.engine in ("cherrant-char", "same"):
        new = target_lines(annotation, text, annotator) + new
    failed = await apply_block(ls, doc, start, block, rewritten_block(block, annotator, new),
                               version, f"Annotate from a correction (annotator {annotator})")
    if failed is not None:
        return failed
    if annotation.note:
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Info,
                                                       message=f"m2lsp: {annotation.note}"))
    return _answer(annotation, [line for line in new if line.startswith("A ")])


def _answer(annotation: Annotation, lines: list[str]) -> dict[str, Any]:
    """The command's answer: the annotator's new A lines (as written into the file)."""
    out: dict[str, Any] = {"applied": True, "lines": lines, "engine": annotation.engine}
    if annotation.note:
        out["note"] = annotation.note
    return out


async def apply_block(ls: M2Server, doc: OpenDocument, start: int, block: Block,
                      lines: list[str], version: int, label: str) -> dict[str, Any] | None:
    """Ask the client to replace the block's lines after its S line with `lines`, as one
    versioned edit (one undo); None when applied, else the failure's answer."""
    edit = _block_edit(doc, start, block, lines, version, ls.encoding)
    answer = await ls.ask(ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(
        edit=edit, label=label)), APPLY_SECONDS, "workspace/applyEdit")
    if answer is None or not answer.applied:
        why = (answer and answer.failure_reason) or "the document changed meanwhile, or " \
            "the editor did not answer"
        return fail(ls, f"the editor did not apply the edit ({why}); run the action again")
    return None


def _block_edit(doc: OpenDocument, start: int, block: Block, lines: list[str], version: int,
                encoding: str) -> types.WorkspaceEdit:
    """Everything after the S line's text, to the block's end, as one text edit."""
    last = start + len(block.lines) - 1
    where = types.Range(
        start=convert.position(doc.lines, start, len(block.lines[0]), encoding),
        end=convert.position(doc.lines, last, len(block.lines[-1]), encoding))
    new_text = "".join("\n" + line for line in lines)
    return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
        text_document=types.OptionalVersionedTextDocumentIdentifier(uri=doc.uri,
                                                                    version=version),
        edits=[types.TextEdit(range=where, new_text=new_text)])])


def engines_for(ls: M2Server) -> Engines:
    score = ls.config.score
    return Engines(english=lambda: _engine("en", score.spacy_model),
                   chinese=lambda: _engine("zh", score.cherrant_data),
                   default_type=ls.config.editor.annotation_type)


def _engine(language: str, setting: str | None) -> Any:
    """ERRANT over the named spaCy pipeline, or ChERRANT over the named tables (loaded
    once; an M2lspError naming what is missing, which the caller turns into a note)."""
    key = (language, setting)
    if key not in _engines:
        from m2lsp.annotation.parse_cache import default_cache

        if language == "en":
            from m2lsp.annotation.english import EnglishAnnotator, EnglishSettings

            _engines[key] = EnglishAnnotator(EnglishSettings(model=setting or None),
                                             default_cache())
        else:
            from m2lsp.annotation.cherrant_data import data_folder
            from m2lsp.annotation.chinese import ChineseAnnotator, ChineseSettings

            _engines[key] = ChineseAnnotator(ChineseSettings(
                data_folder(None, setting), simplified=False, strategy="first"),
                default_cache())
    return _engines[key]


def fail(ls: M2Server, message: str) -> dict[str, Any]:
    log.warning("%s", message)
    ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning,
                                                   message=f"m2lsp: {message}"))
    return {"applied": False, "error": message}
