"""`m2lsp.report` over stdio: the page `m2lsp report` writes, for the VS Code webview."""

from __future__ import annotations

import json
import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from m2lsp.cli import main
from tests.conftest import shared

SERVER = [sys.executable, "-m", "m2lsp", "serve"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_the_report_page_for_the_webview(client: LanguageClient, capsys):
    gold = shared("conll2014/gold/official-2014.combined.m2")
    systems = [shared("conll2014/systems/CAMB"), shared("conll2014/systems/AMU")]
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.report",
        arguments=[gold.as_uri(), [str(p) for p in systems], {"samples": 200}]))
    assert answer["html"].startswith("<!DOCTYPE html>") and "acquireVsCodeApi" in answer["html"]
    for system, path in zip(answer["json"]["systems"], systems, strict=True):
        capsys.readouterr()
        assert main(["score", "--format", "json", str(path), str(gold)]) == 0
        scored = json.loads(capsys.readouterr().out)
        assert system["scores"]["f"] == scored["f"] and system["name"] == path.name


@pytest.mark.asyncio(loop_scope="module")
async def test_a_bad_request_is_an_answer(client: LanguageClient):
    gold = shared("conll2014/gold/official-2014.combined.m2")
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.report", arguments=[gold.as_uri(), [str(gold.parent / "missing")]]))
    assert "cannot make the report" in answer["error"]
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.report", arguments=[gold.as_uri(), []]))
    assert "at least one system" in answer["error"]
