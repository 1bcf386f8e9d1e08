"""A client that pulls diagnostics and answers workspace/configuration: the server never
pushes, reads its settings from the client, and follows their changes."""

from __future__ import annotations

import asyncio
import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.lsp.test_server import TEXT

SERVER = [sys.executable, "-m", "m2lsp", "serve"]
URI = "file:///work/pulled.m2"
CAPABILITIES = types.ClientCapabilities(
    text_document=types.TextDocumentClientCapabilities(
        diagnostic=types.DiagnosticClientCapabilities(related_document_support=False)),
    workspace=types.WorkspaceClientCapabilities(
        configuration=True,
        diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    lsp_client.set_configuration({"ignore": ["M102"], "beta": "high"}, section="m2lsp")
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=CAPABILITIES, initialization_options={"m2lsp": {"ignore": ["X004"]}}))
    yield
    await lsp_client.shutdown_session()


async def pulled(client: LanguageClient) -> list[str]:
    report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=URI)))
    return sorted(str(d.code) for d in report.items)


async def refreshed(client: LanguageClient, before: int) -> None:
    async with asyncio.timeout(30):
        while client.diagnostic_refresh_count <= before:
            await asyncio.sleep(0.01)


@pytest.mark.asyncio(loop_scope="module")
async def test_pull_only_with_the_clients_settings_and_their_changes(client: LanguageClient):
    await refreshed(client, 0)  # settings read at `initialized`, then a refresh
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=URI, language_id="gec-m2", version=1,
                                             text=TEXT)))
    # workspace/configuration (ignore M102) replaces initializationOptions (ignore X004)
    assert await pulled(client) == ["X004"]
    assert any("'beta'" in m.message and m.type == types.MessageType.Warning
               for m in client.log_messages)  # a bad option is logged, not fatal

    before = client.diagnostic_refresh_count
    client.set_configuration({"ignore": []}, section="m2lsp")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await refreshed(client, before)
    assert await pulled(client) == ["M102", "X004"]

    before = client.diagnostic_refresh_count
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"m2lsp": {"select": ["M"]}}))
    await refreshed(client, before)
    # settings sent with the notification; `ignore` dropped: back to the base (X004)
    assert await pulled(client) == ["M102"]
    assert URI not in client.diagnostics  # pulled, never pushed


async def _opened(client: LanguageClient, uri: str, text: str, previous: str | None
                  ) -> types.DocumentDiagnosticReport:
    """Open `uri` at version 1 with `text` and pull its diagnostics."""
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="gec-m2", version=1,
                                             text=text)))
    return await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=previous))


def _close(client: LanguageClient, uri: str) -> None:
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))


@pytest.mark.asyncio(loop_scope="module")
async def test_a_result_id_names_the_open_not_only_the_version(client: LanguageClient):
    """Closed and opened again at the same version with another text: the old resultId
    does not match it (the client would keep the old text's diagnostics)."""
    uri = "file:///work/reopened.m2"
    first = await _opened(client, uri, "S a b .\nA 0 1|||R:NOUN|||c|||REQUIRED|||-NONE-|||0\n",
                          None)
    _close(client, uri)
    second = await _opened(client, uri, TEXT, first.result_id)
    assert second.kind == "full" and second.result_id != first.result_id
    assert "X004" in {str(d.code) for d in second.items}
    _close(client, uri)
    third = await _opened(client, uri, TEXT, second.result_id)  # the same text, reopened
    assert third.kind == "full"
