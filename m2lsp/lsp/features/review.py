"""Reviewing a live score: a summary above each S line (CodeLens, with the annotators'
agreement above blocks two or more annotators wrote), the report of every
sentence (`m2lsp/scoreReport`), and going to the next wrong or missed edit
(`m2lsp.nextScoreMark`, which also brings that edit's marks into the diagnostics shown)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from lsprotocol import types

from m2lsp.agreement import block_summary
from m2lsp.lsp import convert, live_score
from m2lsp.lsp.features.curation import curation_lenses
from m2lsp.lsp.server import M2Server, OpenDocument
from m2lsp.scoring.review import FOUND, MISSED, WRONG

SCORE_REPORT = "m2lsp/scoreReport"
NEXT_MARK = "m2lsp.nextScoreMark"
KINDS = {"FP": {WRONG}, "FN": {MISSED}, "TP": {FOUND}, "any": {WRONG, MISSED}}


def register(ls: M2Server) -> None:
    ls.feature(types.TEXT_DOCUMENT_CODE_LENS)(code_lens)
    ls.feature(SCORE_REPORT)(score_report)
    ls.command(NEXT_MARK)(next_score_mark)


def code_lens(ls: M2Server, params: types.CodeLensParams) -> list[types.CodeLens]:
    doc = ls.documents.get(params.text_document.uri)
    view = ls.live_view(doc) if doc is not None else None
    scored = live_score.code_lenses(doc, view) if doc is not None and view is not None else []
    return scored + (agreement_lenses(doc, ls.config.score.beta, ls) +
                     correction_lenses(doc) + curation_lenses(doc) if doc is not None else [])


def correction_lenses(doc: OpenDocument) -> list[types.CodeLens]:
    """Above the sentence of the cursor's block: each annotator's corrected sentence, a
    click away from editing it ("Edit annotator K's correction…": the client asks for the
    new sentence, prefilled, and m2lsp.annotateFromCorrection realigns the edits, keeping
    the hand-set lines of those that stay)."""
    from m2lsp.authoring.disagreements import annotators_of
    from m2lsp.authoring.tokens import block_index
    from m2lsp.model import corrected_sentence

    document = doc.live.m2
    line = doc.cursor if doc.cursor is not None else None
    index = block_index(document, line) if document is not None and line is not None else None
    if document is None or index is None or document.blocks[index].sentence is None:
        return []
    start, block = document.starts[index], document.blocks[index]
    at = types.Position(line=start, character=0)
    out = []
    for annotator in annotators_of(document) or ["0"]:
        text = corrected_sentence(block, annotator)
        if text is None:
            continue
        title = f"annotator {annotator}: {text}"
        out.append(types.CodeLens(range=types.Range(start=at, end=at), command=types.Command(
            title=title if len(title) <= 120 else title[:119] + "…",
            command="m2lsp.annotateFromCorrection",
            arguments=[doc.uri, start, None, annotator, text])))
    return out


LENS_BUDGET = 0.05  # seconds of agreement computed per code-lens request; the rest later


def agreement_lenses(doc: OpenDocument, beta: float, ls: M2Server | None = None
                     ) -> list[types.CodeLens]:
    """Above each block two or more annotators wrote lines in: how well they agree there
    (m2lsp.agreement.block_summary; each block's computed once while its lines stay).  A
    request computes new blocks for at most LENS_BUDGET (a large file's first request must
    not hold up diagnostics), then asks the client to ask again (codeLens/refresh)."""
    document = doc.live.m2
    if document is None:
        return []
    known, kept, out = doc.agreement, {}, []
    deadline, pending = time.perf_counter() + LENS_BUDGET, False
    for start, block in zip(document.starts, document.blocks, strict=True):
        if len(block.annotator_set) < 2:
            continue
        key = (block.lines, beta)
        if key not in known and time.perf_counter() > deadline:
            pending = True
            continue
        title = kept[key] = known[key] if key in known else block_summary(block, beta)
        if title is not None:
            at = types.Position(line=start, character=0)
            out.append(types.CodeLens(range=types.Range(start=at, end=at),
                                      command=types.Command(title=title, command="")))
    doc.agreement = kept
    if pending and ls is not None and ls.code_lens_refresh:
        with contextlib.suppress(RuntimeError):  # no loop running: the next request
            asyncio.get_running_loop().call_later(0.02, ls.workspace_code_lens_refresh, None)
    return out


def _get(params: Any, name: str, default: Any = None) -> Any:
    if isinstance(params, dict):
        return params.get(name, default)
    return getattr(params, name, default)


def score_report(ls: M2Server, params: Any) -> dict[str, Any]:
    """{uri | textDocument: {uri}, sort?: f | fp | fn | line, type?}: every scored sentence
    with its counts and edits (see live_score.report); `error` instead when the document has
    no score now (why the last request to score it failed, where one did)."""
    uri = _get(params, "uri") or _get(_get(params, "textDocument"), "uri")
    doc = ls.documents.get(uri) if isinstance(uri, str) else None
    if doc is None or doc.session is None:
        why = "this document has no live score: run m2lsp.score or m2lsp.scoreAgainst on " \
              "it first"
        if doc is None and isinstance(uri, str):
            why = f"the document {uri} is not open"
        elif doc is not None and doc.score_error:
            why = doc.score_error
        return {"uri": uri, "error": why, "sentences": []}
    sort = _get(params, "sort", "f")
    kind = _get(params, "type")
    return live_score.report(ls, doc, doc.session, sort if sort in live_score.SORTS else "f",
                             kind if isinstance(kind, str) and kind else None)


def next_score_mark(ls: M2Server, *args: Any) -> dict[str, Any] | None:
    """[uri, {line, character}?, kind?: FP | FN | TP | any, backwards?]: where the next
    such edit is (a Location and its message), or None; its marks are shown from now on."""
    uri = args[0] if args else None
    doc = ls.documents.get(uri) if isinstance(uri, str) else None
    view = ls.live_view(doc) if doc is not None else None
    if doc is None or view is None:
        return None
    where = args[1] if len(args) > 1 else None
    at = convert.position_in(doc.lines, types.Position(
        line=int(_get(where, "line", -1)), character=int(_get(where, "character", 0))),
        ls.encoding) if where is not None else (-1, 0)
    kind = args[2] if len(args) > 2 and args[2] in KINDS else "any"
    found = live_score.next_mark(doc, view, at, KINDS[kind], bool(args[3:4] and args[3]))
    if found is None:
        return None
    span, review, mark = found
    doc.focus = span.line
    ls.refresh(doc.uri)
    return {"uri": doc.uri, "range": convert.range_of(span, doc.lines, ls.encoding),
            "kind": mark.kind, "message": mark.message, "sentence": review.index}
