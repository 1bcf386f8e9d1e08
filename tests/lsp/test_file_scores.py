"""Metrics with no editor code of their own (PT-M2, GoToScorer, CGEC) in the editor through
the real server (pytest-lsp over stdio): `m2lsp.score` scores the open gold and the system
as files, as `m2lsp score` does. The answer is the API's JSON; where the metric gives
sentence scores, each S line has its hint; an open system document (`m2lsp.scoreAgainst`)
is scored by its text; a bad option is one message, and the server stays up."""

from __future__ import annotations

import asyncio
import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

import m2lsp
from tests.attribution.conftest import GOLD, SYSTEM
from tests.lsp.test_server import open_doc, published

SERVER = [sys.executable, "-m", "m2lsp", "serve"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


@pytest.mark.parametrize(("metric", "options"), [
    ("pt-m2", {"pt_m2_scorer": "self"}),  # every edit weighs 1: no model
    ("gotoscorer", {}),  # unweighted: no weight file
])
@pytest.mark.asyncio(loop_scope="module")
async def test_sentence_scores_are_hints(client: LanguageClient, tmp_path, metric, options):
    gold, system = tmp_path / "gold.m2", tmp_path / "system.txt"
    gold.write_text(GOLD, encoding="utf-8")
    system.write_text(SYSTEM, encoding="utf-8")
    uri = gold.as_uri()
    await open_doc(client, GOLD, uri=uri)
    expected = m2lsp.score(system, gold=gold, metric=metric, **options)
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.score", arguments=[uri, str(system), {"metric": metric, **options}]))
    assert answer == expected.to_dict() | {"system": str(system.resolve())}
    found = await published(client, uri, lambda ds: sum(d.source == "m2lsp-score"
                                                       for d in ds) == 3)
    hints = sorted((d for d in found if d.source == "m2lsp-score"),
                   key=lambda d: d.range.start.line)
    scores = expected.to_dict()["sentence_scores"]
    assert [(d.range.start.line, d.message) for d in hints] == [
        (line, f"{metric} {value:.4f} (sentence)") for line, value in
        zip((0, 4, 7), scores, strict=True)]


@pytest.mark.asyncio(loop_scope="module")
async def test_an_open_system_document_is_scored_by_its_text(client: LanguageClient,
                                                             tmp_path):
    """The system's unsaved text, not its file, and CGEC (no sentence scores: the corpus
    numbers alone)."""
    gold, system = tmp_path / "gold.m2", tmp_path / "system.txt"
    gold.write_text(GOLD, encoding="utf-8")
    system.write_text("x\ny\nz\n", encoding="utf-8")  # on disk: not what is scored
    await open_doc(client, GOLD, uri=gold.as_uri())
    await open_doc(client, SYSTEM, uri=system.as_uri(), language="plaintext")
    expected = m2lsp.score(SYSTEM.splitlines(), gold=gold, metric="cgec").to_dict()
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.scoreAgainst", arguments=[gold.as_uri(), system.as_uri(),
                                                 {"metric": "cgec"}]))
    assert answer == expected | {"gold": str(gold), "system": system.as_uri()}


async def said_and_still_up(client: LanguageClient, folder, options: dict, said: str
                            ) -> None:
    """`m2lsp.score` with these options on the small gold is refused: no answer, one
    message with `said`, and the server still answers."""
    gold, system = folder / "g.m2", folder / "s.txt"
    gold.write_text(GOLD, encoding="utf-8")
    system.write_text(SYSTEM, encoding="utf-8")
    await open_doc(client, GOLD, uri=gold.as_uri())
    client.messages.clear()
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.score", arguments=[gold.as_uri(), str(system), options]))
    shown = [m.message for m in client.messages]
    assert answer is None and any(said in m for m in shown), shown
    symbols = await asyncio.wait_for(client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(
            uri=gold.as_uri()))), 30)
    assert symbols  # still up


@pytest.mark.asyncio(loop_scope="module")
async def test_a_bad_option_is_said(client: LanguageClient, tmp_path):
    await said_and_still_up(client, tmp_path, {"metric": "pt-m2", "pt_m2_base": "nonsense"},
                            "nonsense")
