"""`m2lsp.report` over stdio: the page `m2lsp report` writes, for the VS Code webview."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from m2lsp.cli import main
from tests.conftest import shared
from tests.lsp.raw import RawClient

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


GOLD = ("S The cat sat on mat .\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n\n"
        "S It was happy .\nA 2 3|||R:ADJ|||glad|||REQUIRED|||-NONE-|||0\n\n") * 20


def _files(folder: Path) -> tuple[Path, list[Path]]:
    """A gold of 40 sentences and two systems' outputs in `folder`."""
    gold = folder / "gold.m2"
    gold.write_text(GOLD, encoding="utf-8")
    systems = [folder / "a.txt", folder / "b.txt"]
    systems[0].write_text("The dog sat on mat .\nIt was happy .\n" * 20, encoding="utf-8")
    systems[1].write_text("The cat sat on mat .\nIt was glad .\n" * 20, encoding="utf-8")
    return gold, systems


@pytest.mark.parametrize("options", [
    {"samples": "abc"}, {"samples": -5}, {"samples": 0}, {"samples": 1.5}, {"samples": True},
    {"samples": 10**8}, {"samples": None}, {"names": "a"}, {"names": ["a", 3]},
    {"metric": 7},
])
@pytest.mark.asyncio(loop_scope="module")
async def test_bad_report_options_are_an_answer(client: LanguageClient, tmp_path: Path,
                                                options: dict[str, Any]):
    gold, systems = _files(tmp_path)
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.report",
        arguments=[gold.as_uri(), [str(p) for p in systems], options]))
    assert answer["error"].startswith("m2lsp.report: " + next(iter(options))), answer
    assert not any("Traceback" in m.message for m in client.log_messages)


def test_a_cancelled_report_stops(tmp_path: Path):
    """A report of ten million resamples, cancelled: its thread stops at the next one
    (it would compute for minutes)."""
    gold, systems = _files(tmp_path)
    raw = RawClient()
    try:
        raw.initialize()
        raw.request(1, "workspace/executeCommand", {"command": "m2lsp.report", "arguments": [
            gold.as_uri(), [str(p) for p in systems], {"samples": 10**7}]})
        for attempt in range(600):  # until it runs
            if raw.stats(f"running-{attempt}")["working"]:
                break
        time.sleep(0.5)
        raw.notify("$/cancelRequest", {"id": 1})
        assert raw.answer(1)["error"]["code"] == -32800  # RequestCancelled
        for attempt in range(100):
            if not raw.stats(f"stopped-{attempt}")["working"]:
                break
            time.sleep(0.1)
        assert raw.stats("last")["working"] == []
    finally:
        raw.close()
