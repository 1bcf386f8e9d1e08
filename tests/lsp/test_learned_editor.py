"""The learned metrics in the editor through the real server (pytest-lsp over stdio), with
models the test makes (no hub here): `m2lsp.score` with IMPARA (reference-free: the S
lines are the sources) and BERTScore (the references each annotator's corrected sentence)
against an open M2 gold.  The answer is the API's corpus score and signature, each S line's
hint its sentence score; the server answers other requests while the models run (in a
thread); a model that cannot be loaded is one message, and the server stays up."""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

import m2lsp
from tests.attribution.conftest import GOLD, SYSTEM
from tests.lsp.test_file_scores import said_and_still_up
from tests.lsp.test_server import open_doc, published
from tests.run_once import shared_folder

SERVER = [sys.executable, "-m", "m2lsp", "serve"]
# the server's own cache of sentence scores (the test's models are scored, not remembered)
CACHE = tempfile.mkdtemp(prefix="m2lsp-lsp-learned-")


@pytest_lsp.fixture(config=ClientServerConfig(
    server_command=SERVER, server_env={**os.environ, "M2LSP_CACHE_DIR": CACHE}))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, Path]:
    """The models, made once for the run's workers (tests/run_once.py)."""
    for name in ("torch", "transformers", "bert_score"):
        pytest.importorskip(name, reason=f"{name} (m2lsp[neural]) is not installed")
    root = shared_folder(tmp_path_factory, "editor-models", _make)
    return {name: root / name for name in ("qe", "se", "bs", "gpt2")} | {
        "baseline": root / "bs.tsv"}


def _make(root: Path) -> None:
    from tests.learned import models

    texts = [*GOLD.splitlines(), *SYSTEM.splitlines()]
    models.bert(root / "qe", texts, seed=1, head="classifier")
    models.bert(root / "se", texts, seed=2)
    models.bert(root / "bs", texts, seed=7, lower=True)
    models.gpt2(root / "gpt2", texts, seed=5)
    (root / "bs.tsv").write_text("LAYER,P,R,F\n0,0.1,0.2,0.3\n1,0.31,0.32,0.33\n"
                                 "2,0.4,0.5,0.45\n")


def _options(made: dict[str, Path], metric: str) -> dict[str, object]:
    if metric == "impara":
        return {"impara_model_qe": str(made["qe"]), "impara_model_se": str(made["se"])}
    return {"bertscore_model_type": str(made["bs"]), "bertscore_num_layers": 2,
            "bertscore_baseline_path": str(made["baseline"])}


@pytest.mark.slow
@pytest.mark.parametrize("metric", ["impara", "bertscore"])
@pytest.mark.asyncio(loop_scope="module")
async def test_sentence_scores_are_hints_on_the_s_lines(client: LanguageClient, made,
                                                        tmp_path, metric):
    gold, system = tmp_path / "gold.m2", tmp_path / "system.txt"
    gold.write_text(GOLD, encoding="utf-8")
    system.write_text(SYSTEM, encoding="utf-8")
    uri = gold.as_uri()
    await open_doc(client, GOLD, uri=uri)
    options = _options(made, metric)
    expected = m2lsp.score(system, gold=gold, metric=metric, **options)
    scoring = asyncio.ensure_future(client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="m2lsp.score",
                                   arguments=[uri, str(system), {"metric": metric,
                                                                 **options}])))
    await asyncio.sleep(0)  # the request is sent
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    if metric == "impara":  # the first: the server imports torch and loads two models (s)
        # answered while the models load and run (on its loop, the answer would come after)
        assert symbols and not scoring.done()
    answer = await scoring
    assert answer[metric] == expected.score and answer["signature"] == expected.signature
    assert answer["sentence_scores"] == expected.data["sentence_scores"]
    found = await published(client, uri, lambda ds: sum(d.source == "m2lsp-score"
                                                       for d in ds) == 3)
    hints = sorted((d for d in found if d.source == "m2lsp-score"),
                   key=lambda d: d.range.start.line)
    label = "IMPARA" if metric == "impara" else "BERTScore"
    assert [(d.range.start.line, d.message) for d in hints] == [
        (line, f"{label} {score:.4f} (sentence)") for line, score in
        zip((0, 4, 7), expected.data["sentence_scores"], strict=True)]


@pytest.mark.slow
@pytest.mark.asyncio(loop_scope="module")
async def test_an_llm_judge_rates_each_sentence(client: LanguageClient, made, tmp_path):
    """LLM-S in the editor: the S lines' sources, one hypothesis a prompt, each rating a
    hint (the replies cached in the file given)."""
    gold, system = tmp_path / "gold.m2", tmp_path / "system.txt"
    gold.write_text(GOLD, encoding="utf-8")
    system.write_text(SYSTEM, encoding="utf-8")
    uri = gold.as_uri()
    await open_doc(client, GOLD, uri=uri)
    options = {"llm_model": str(made["gpt2"]), "llm_cache": str(tmp_path / "replies")}
    expected = m2lsp.score(system, gold=gold, metric="llm-s", **options)
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.score", arguments=[uri, str(system), {"metric": "llm-s", **options}]))
    assert answer["llm-s"] == expected.score and answer["signature"] == expected.signature
    found = await published(client, uri, lambda ds: sum(d.source == "m2lsp-score"
                                                       for d in ds) == 3)
    hints = sorted((d for d in found if d.source == "m2lsp-score"),
                   key=lambda d: d.range.start.line)
    assert [(d.range.start.line, d.message) for d in hints] == [
        (line, f"LLM-S {score:g} (sentence)") for line, score in
        zip((0, 4, 7), expected.data["sentence_scores"], strict=True)]


@pytest.mark.asyncio(loop_scope="module")
async def test_a_model_that_cannot_load_is_said(client: LanguageClient, tmp_path):
    await said_and_still_up(client, tmp_path, {
        "metric": "impara", "impara_model_qe": str(tmp_path / "no-such-model")},
        "no-such-model")


@pytest.mark.parametrize(("options", "said"), [
    ({"impara_model_qe": 5}, "impara_model_qe: an int; give a str"),
    ({"impara_threshold": "high"}, "impara_threshold"),
])
@pytest.mark.asyncio(loop_scope="module")
async def test_an_option_of_the_wrong_type_is_said(client: LanguageClient, tmp_path,
                                                    options, said):
    await said_and_still_up(client, tmp_path, {"metric": "impara", **options}, said)
