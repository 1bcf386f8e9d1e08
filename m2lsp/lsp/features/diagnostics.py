"""Pull diagnostics (textDocument/diagnostic): the same findings the server pushes, with a
resultId, and `unchanged` when nothing moved since the client asked."""

from __future__ import annotations

from lsprotocol import types

from m2lsp.lsp.server import M2Server


def register(ls: M2Server) -> None:
    ls.feature(types.TEXT_DOCUMENT_DIAGNOSTIC, types.DiagnosticOptions(
        identifier="m2lsp", inter_file_dependencies=False,
        workspace_diagnostics=False))(pull_diagnostics)


def pull_diagnostics(ls: M2Server, params: types.DocumentDiagnosticParams):
    doc = ls.documents.get(params.text_document.uri)
    if doc is None:
        return types.RelatedFullDocumentDiagnosticReport(items=[])
    if params.previous_result_id == doc.result_id:  # nothing moved since the client asked
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=doc.result_id)
    return types.RelatedFullDocumentDiagnosticReport(items=ls.diagnostics(doc),
                                                     result_id=doc.result_id)
