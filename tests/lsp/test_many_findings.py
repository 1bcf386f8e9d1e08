"""A document with more findings than `max-diagnostics`: the server sends the most severe
and those nearest the last edit, with a note on top for the rest; a pull with the last
resultId while nothing moved is answered `unchanged`."""

from __future__ import annotations

import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from m2lsp.linting.run import lint
from m2lsp.model import Format
from m2lsp.parsing.source import SourceText

SERVER = [sys.executable, "-m", "m2lsp", "serve"]
URI = "file:///work/many.m2"
# 300 sentences: every other one has trailing whitespace (a warning), every tenth an
# offset past the end (an error)
TEXT = "".join(
    f"S s{i} a b .{' ' if i % 2 else ''}\n"
    + ("A 7 8|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n" if i % 10 == 0 else "") + "\n"
    for i in range(300))
CAPABILITIES = types.ClientCapabilities(text_document=types.TextDocumentClientCapabilities(
    diagnostic=types.DiagnosticClientCapabilities()))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=CAPABILITIES, initialization_options={"m2lsp": {"maxDiagnostics": 50}}))
    yield
    await lsp_client.shutdown_session()


async def pull(client: LanguageClient, previous: str | None = None):
    return await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=URI), previous_result_id=previous))


@pytest.mark.asyncio(loop_scope="module")
async def test_the_limit_keeps_errors_and_the_nearest_and_says_how_many_more(client):
    total = len(lint(SourceText(TEXT), Format.M2).diagnostics)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=URI, language_id="gec-m2", version=1,
                                             text=TEXT)))
    report = await pull(client)
    note, *shown = report.items
    assert note.code == "max-diagnostics" and note.range.start.line == 0
    assert f"{total - 50:,} more of {total:,} findings are not shown" in note.message
    assert len(shown) == 50
    assert sum(d.code == "M102" for d in shown) == 30  # every error is kept
    assert all(d.range.start.line < 110 for d in shown if d.code == "X004")  # near the top

    unchanged = await pull(client, report.result_id)
    assert isinstance(unchanged, types.RelatedUnchangedDocumentDiagnosticReport)

    line = 450  # type there: the warnings shown move around it
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=line, character=1),
                              end=types.Position(line=line, character=1)), text=" ")]))
    moved = await pull(client, report.result_id)
    assert isinstance(moved, types.RelatedFullDocumentDiagnosticReport)
    warnings = [d.range.start.line for d in moved.items[1:] if d.code == "X004"]
    assert len(warnings) == 19 and all(abs(row - line) < 45 for row in warnings)  # + M007
