"""Quick fixes: each finding's fix, marked preferred when it is safe; on an S or A line,
"Annotate from a correction…" (see annotate); and the workbench's actions (see authoring):
adding an edit for selected tokens, typing an edit again, adjudication; on a curated gold,
the curator's decisions instead (see curation), which write the gold through its log."""

from __future__ import annotations

from lsprotocol import types

from m2lsp.lsp import convert
from m2lsp.lsp.features.annotate import code_action as annotate_action
from m2lsp.lsp.features.authoring import code_actions as workbench_actions
from m2lsp.lsp.features.curation import curation_actions
from m2lsp.lsp.features.source_tokens import code_actions as source_token_actions
from m2lsp.lsp.server import M2Server


def register(ls: M2Server) -> None:
    ls.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix,
                           types.CodeActionKind.RefactorRewrite]))(code_actions)


def code_actions(ls: M2Server, params: types.CodeActionParams) -> list[types.CodeAction]:
    doc = ls.checked_document(params.text_document.uri)
    if doc is None:
        return []
    first, last = params.range.start.line, params.range.end.line
    ls.cursor(doc, first)
    out = []
    for found in doc.live.diagnostics_on(first, last):
        if found.fix is None:
            continue
        lsp = convert.diagnostic(found, doc.lines, doc.uri, ls.encoding)
        out.append(types.CodeAction(
            title=f"{found.fix.title} ({found.code})", kind=types.CodeActionKind.QuickFix,
            diagnostics=[lsp], is_preferred=found.fix.applicability.value == "safe",
            edit=convert.workspace_edit(found.fix, doc.uri, doc.lines, ls.encoding,
                                        doc.version)))
    curated = curation_actions(doc, first)
    if curated is not None:  # a curated gold: decisions, recorded (its text is the log's)
        return out + curated
    rewrite = annotate_action(ls, doc, first)
    return out + ([rewrite] if rewrite is not None else []) + workbench_actions(
        ls, doc, params.range) + source_token_actions(ls, doc, params.range)
