"""Live ERRANT and ChERRANT through the real server (pytest-lsp over stdio) on a plain-text
hypothesis: CoNLL-2014's gold with CAMB's output open beside it, scored with ERRANT (its
first score reports progress), equal to `m2lsp score --metric errant`; typing in the output
changes the score, which after random edits still equals the command's on the same texts;
MuCGEC's demo with ChERRANT; a missing pipeline said, and the server still up."""

from __future__ import annotations

import random
import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.annotation.cherrant import data
from tests.annotation.conftest import spacy_model
from tests.conftest import shared
from tests.lsp.test_live_score import (
    cli_json,
    plain,
    random_system_edit,
    replace_line,
    report,
)
from tests.lsp.test_server import open_doc, published

SERVER = [sys.executable, "-m", "m2lsp", "serve"]
STATUS: list[dict] = []
GOLD, SYSTEM = "conll2014/gold/official-2014.combined.m2", "conll2014/systems/CAMB"
SYSTEM_URI = "file:///work/CAMB.txt"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    @lsp_client.feature("m2lsp/scoreChanged")
    def score_changed(params):
        STATUS.append(plain(params))

    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(
            window=types.WindowClientCapabilities(work_done_progress=True)),
        initialization_options={"m2lsp": {"spacyModel": _model()}}))
    yield
    await lsp_client.shutdown_session()


def _model() -> str:
    try:
        return spacy_model()
    except pytest.skip.Exception:
        return "en_core_web_sm"


@pytest.mark.slow
@pytest.mark.asyncio(loop_scope="module")
async def test_errant_on_a_plain_text_output_is_live(client: LanguageClient, tmp_path):
    model = spacy_model()
    gold, system = shared(GOLD), shared(SYSTEM)
    uri = gold.as_uri()
    await open_doc(client, gold.read_text("utf-8"), uri=uri)
    text = system.read_text("utf-8")
    await open_doc(client, text, uri=SYSTEM_URI, language="plaintext")
    before = set(client.progress_reports)
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.scoreAgainst", arguments=[uri, SYSTEM_URI, {"metric": "errant"}]))
    expected = cli_json("--metric", "errant", "--spacy-model", model, str(system), str(gold))
    assert result["live"] and result["f"] == expected["f"]
    assert result["signature"] == expected["signature"]
    assert len(set(client.progress_reports) - before) == 1  # 1,312 sentences: progress
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    lenses = [lens for lens in lenses if " agree: " not in lens.command.title]  # scores'
    assert len(lenses) == 1312
    rows = plain(await report(client, uri))["sentences"]
    assert sum(r["tp"] for r in rows) == expected["counts"]["true_positives"]
    assert sum(r["fp"] for r in rows) == expected["counts"]["false_positives"]
    assert sum(r["fn"] for r in rows) == expected["counts"]["false_negatives"]

    marks = await published(client, SYSTEM_URI,
                            lambda ds: any(d.source == "m2lsp-score" for d in ds))
    wrote = [d for d in marks if str(d.code) in ("FP", "TP")]
    assert {str(d.code) for d in marks} <= {"TP", "FP", "FN"} and wrote
    lines = text.split("\n")
    for d in wrote:  # on the words the system wrote: those the message quotes after the arrow
        words = lines[d.range.start.line][d.range.start.character:d.range.end.character]
        after = d.message.split(" → ")[1].split(" (")[0]
        assert words in after, (words, d.message)
    assert len(wrote) > 200  # within the diagnostics cap (1,000), FN among them

    rng, version = random.Random(7), 1
    first_status = STATUS[-1]
    for _ in range(12):
        row, new = random_system_edit(rng, lines)
        version += 1
        replace_line(client, SYSTEM_URI, version, row, lines[row], new)
        lines[row] = new
    data_now = plain(await report(client, uri))
    assert STATUS[-1] != first_status  # typing in the output changed the score
    (tmp_path / "edited.txt").write_text("\n".join(lines), "utf-8")
    after = cli_json("--metric", "errant", "--spacy-model", model, str(tmp_path / "edited.txt"),
                     str(gold))
    assert (data_now["precision"], data_now["recall"], data_now["f"]) == (
        after["precision"], after["recall"], after["f"])


@pytest.mark.asyncio(loop_scope="module")
async def test_cherrant_on_a_plain_text_output(client: LanguageClient):
    folder = data()
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"m2lsp": {"spacyModel": _model(), "cherrantData": str(folder)}}))
    ref, hyp = shared("mucgec/demo.ref.m2.char"), shared("mucgec/demo.hyp")
    uri = ref.as_uri()
    await open_doc(client, ref.read_text("utf-8"), uri=uri)
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.score", arguments=[uri, str(hyp), {"metric": "cherrant"}]))
    expected = cli_json("--metric", "cherrant", "--cherrant-data", str(folder), str(hyp),
                        str(ref))
    assert result["live"] and result["f"] == expected["f"]
    assert result["signature"] == expected["signature"]


@pytest.mark.asyncio(loop_scope="module")
async def test_a_missing_pipeline_is_said_and_the_server_stays(client: LanguageClient):
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"m2lsp": {"spacyModel": "no_such_pipeline"}}))
    ref = shared("mucgec/demo.ref.m2.char")
    uri = ref.as_uri()
    await open_doc(client, ref.read_text("utf-8"), uri=uri)
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.score", arguments=[uri, str(shared("mucgec/demo.hyp")),
                                          {"metric": "errant"}]))
    assert result is None
    assert "no_such_pipeline" in client.messages[-1].message
    assert "--spacy-model" in client.messages[-1].message or "spacy" in \
        client.messages[-1].message
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert lenses is not None  # the server still answers
