"""Live CLEME through the real server (pytest-lsp over stdio): CoNLL-2014's gold with CAMB's
plain-text output open beside it, scored with `{metric: cleme}`: the numbers and signature
of `m2lsp score --metric cleme`; the system's chunks marked correct, wrong or missed on its
words, the references in the message; typing in the output keeps the command's numbers."""

from __future__ import annotations

import random
import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.annotation.conftest import spacy_model
from tests.conftest import shared
from tests.lsp.test_live_errant import _model
from tests.lsp.test_live_score import (
    cli_json,
    plain,
    random_system_edit,
    replace_line,
    report,
)
from tests.lsp.test_server import open_doc, published

SERVER = [sys.executable, "-m", "m2lsp", "serve"]
GOLD, SYSTEM = "conll2014/gold/official-2014.combined.m2", "conll2014/systems/CAMB"
SYSTEM_URI = "file:///work/CAMB.txt"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(),
        initialization_options={"m2lsp": {"spacyModel": _model()}}))
    yield
    await lsp_client.shutdown_session()


@pytest.mark.slow
@pytest.mark.asyncio(loop_scope="module")
async def test_cleme_on_a_plain_text_output_is_live(client: LanguageClient, tmp_path):
    model = spacy_model()
    gold, system = shared(GOLD), shared(SYSTEM)
    uri = gold.as_uri()
    await open_doc(client, gold.read_text("utf-8"), uri=uri)
    text = system.read_text("utf-8")
    await open_doc(client, text, uri=SYSTEM_URI, language="plaintext")
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.scoreAgainst", arguments=[uri, SYSTEM_URI, {"metric": "cleme"}]))
    expected = cli_json("--metric", "cleme", "--spacy-model", model, str(system), str(gold))
    assert result["live"] and (result["precision"], result["recall"], result["f"]) == (
        expected["precision"], expected["recall"], expected["f"])
    assert result["signature"] == expected["signature"]

    marks = await published(client, SYSTEM_URI,
                            lambda ds: any(d.source == "m2lsp-score" for d in ds))
    assert {str(d.code) for d in marks} <= {"TP", "FP", "FN"}
    chunks = [d for d in marks if "chunk:" in d.message]
    assert chunks and all("references: " in d.message for d in chunks)
    lines = text.split("\n")
    for d in chunks:
        if str(d.code) in ("TP", "FP") and d.range.start != d.range.end:
            words = lines[d.range.start.line][d.range.start.character:d.range.end.character]
            assert words in d.message.split(" -> ")[1], (words, d.message)

    rng, version = random.Random(11), 1
    for _ in range(10):
        row, new = random_system_edit(rng, lines)
        version += 1
        replace_line(client, SYSTEM_URI, version, row, lines[row], new)
        lines[row] = new
    now = plain(await report(client, uri))
    (tmp_path / "edited.txt").write_text("\n".join(lines), "utf-8")
    after = cli_json("--metric", "cleme", "--spacy-model", model, str(tmp_path / "edited.txt"),
                     str(gold))
    assert (now["precision"], now["recall"], now["f"]) == (after["precision"], after["recall"],
                                                           after["f"])
