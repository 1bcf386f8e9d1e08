"""Curating from the editor over stdio: the commands `m2lsp.curationStatus` and
`m2lsp.curate` write the gold and its log as `m2lsp curate` does, never an annotator's
file."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from m2lsp.cli import main
from tests.curation.test_curate import A, B
from tests.lsp.test_workbench import _actions as workbench_actions

SERVER = [sys.executable, "-m", "m2lsp", "serve"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


async def _run(client: LanguageClient, command: str, *arguments: object) -> dict:
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=command, arguments=list(arguments)))


@pytest.mark.asyncio(loop_scope="module")
async def test_three_disagreements_curated_from_the_editor(client: LanguageClient,
                                                           tmp_path: Path) -> None:
    for name, text in (("A.m2", A), ("B.m2", B)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    gold = tmp_path / "gold.m2"
    assert main(["curate", str(tmp_path / "A.m2"), str(tmp_path / "B.m2"), "-o", str(gold),
                 "--who", "cara"]) == 0
    status = await _run(client, "m2lsp.curationStatus", gold.as_uri())
    assert (status["curated"], status["sentences"]) == (2, 5)
    assert [o["number"] for o in status["outcomes"] if o["state"] == "open"] == [3, 4, 5]
    for asked in ({"action": "take", "sentence": "3", "value": "1"},
                  {"action": "accept", "sentence": "4", "value": "0 0|||M:PRON|||We"},
                  {"action": "done", "sentence": "4"},
                  {"action": "correct", "sentence": status["outcomes"][4]["key"]}):
        answer = await _run(client, "m2lsp.curate", gold.as_uri(), {**asked, "who": "dee"})
        assert "error" not in answer, answer
    assert answer == {"curated": 5, "sentences": 5, "complete": True,
                      "counts": {"auto": 2, "decided": 3, "in progress": 0, "open": 0}}
    assert (tmp_path / "A.m2").read_text(encoding="utf-8") == A
    assert (tmp_path / "B.m2").read_text(encoding="utf-8") == B
    log = (tmp_path / "gold.m2.curation.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(log) == 5 and all('"who": "dee"' in line for line in log[1:])
    refused = await _run(client, "m2lsp.curate", gold.as_uri(),
                         {"action": "take", "sentence": "3", "value": "7"})
    assert "there is no annotator 7" in refused["error"]
    missing = await _run(client, "m2lsp.curationStatus", (tmp_path / "none.m2").as_uri())
    assert "has no curation yet" in missing["error"]


@pytest.mark.asyncio(loop_scope="module")
async def test_a_bad_request_is_an_answer(client: LanguageClient, tmp_path: Path) -> None:
    for arguments in ([], [None], [2**40, "x"], ["\ud800", {"action": "take"}]):
        for command in ("m2lsp.curate", "m2lsp.curationStatus"):
            answer = await _run(client, command, *arguments)
            assert "error" in answer, (command, arguments)


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_shows_every_annotators_version_and_the_notes(client: LanguageClient,
                                                                   tmp_path: Path) -> None:
    for name, text in (("A.m2", A), ("B.m2", B)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    gold = tmp_path / "gold.m2"
    assert main(["curate", str(tmp_path / "A.m2"), str(tmp_path / "B.m2"), "-o", str(gold),
                 "--who", "cara"]) == 0
    assert main(["note", str(gold), "3", "--text", "on or at?", "--unsure", "--who",
                 "cara"]) == 0
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=gold.as_uri(), language_id="m2", version=1,
        text=gold.read_text(encoding="utf-8"))))
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(gold.as_uri()), types.Position(6, 2)))
    assert hover is not None
    text = hover.contents.value
    assert text.startswith("**curation: open**, sentence 3 `s")
    assert "- annotator 0: `1 2|||R:VERB:SVA|||arrives`; `2 3|||R:PREP|||on`" in text
    assert "- annotator 1: `1 2|||R:VERB:SVA|||arrives`\n- gold: noop" in text
    assert "- note by cara (unsure): on or at?" in text
    # annotators' files and other lines keep their hover
    plain = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(gold.as_uri()), types.Position(1, 2)))
    assert plain is None or "curation:" not in plain.contents.value


@pytest.mark.asyncio(loop_scope="module")
async def test_lenses_offer_each_annotators_version_of_an_open_sentence(
        client: LanguageClient, tmp_path: Path) -> None:
    for name, text in (("A.m2", A), ("B.m2", B)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    gold = tmp_path / "gold.m2"
    assert main(["curate", str(tmp_path / "A.m2"), str(tmp_path / "B.m2"), "-o", str(gold),
                 "--who", "cara"]) == 0
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=gold.as_uri(), language_id="m2", version=1,
        text=gold.read_text(encoding="utf-8"))))
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        types.TextDocumentIdentifier(gold.as_uri())))
    titles = [(lens.range.start.line, lens.command.title) for lens in lenses
              if lens.command and lens.command.title.startswith(("curated", "take",
                                                                 "annotator", "done"))]
    assert titles == [
        (0, "curated 2 of 5 sentences"),
        (6, "take annotator 0's: She arrives on Monday ."),
        (6, "take annotator 1's: She arrives at Monday ."),
        (9, "take annotator 0's: we need more time ."),
        (9, "take annotator 1's: We need more time ."),
        (12, "take annotator 0's: It rains ."),
        (12, "annotator 1: no line yet")]
    take = next(lens for lens in lenses if lens.command.title.startswith("take annotator 1"))
    answer = await _run(client, take.command.command, *take.command.arguments)
    assert answer["curated"] == 3


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_shows_the_notes_on_an_annotators_file(client: LanguageClient,
                                                           tmp_path: Path) -> None:
    ana = tmp_path / "A.m2"
    ana.write_text(A, encoding="utf-8")
    assert main(["note", str(ana), "3", "--edit", "2 3|||R:PREP|||on", "--text", "on or at?",
                 "--unsure", "--who", "ana"]) == 0
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=ana.as_uri(), language_id="m2", version=1, text=A)))
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(ana.as_uri()), types.Position(6, 2)))
    assert hover is not None
    assert hover.contents.value == ("- note by ana on `2 3|||R:PREP|||on` (unsure): "
                                    "on or at?")


@pytest.mark.asyncio(loop_scope="module")
async def test_progress_and_the_disagreements_view_on_a_curated_gold(
        client: LanguageClient, tmp_path: Path) -> None:
    for name, text in (("A.m2", A), ("B.m2", B)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    gold = tmp_path / "gold.m2"
    assert main(["curate", str(tmp_path / "A.m2"), str(tmp_path / "B.m2"), "-o", str(gold),
                 "--who", "cara"]) == 0
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=gold.as_uri(), language_id="m2", version=1,
        text=gold.read_text(encoding="utf-8"))))
    progress = await _run(client, "m2lsp.progress", gold.as_uri())
    assert [p["text"] for p in progress] == ["curated 2 of 5"]
    view = await _run(client, "m2lsp.disagreements", gold.as_uri())
    assert (view["annotators"], view["sentences"]) == (["0", "1"], 5)
    assert [(d["sentence"], d["line"]) for d in view["disagreements"]] == [
        (3, 7), (4, 10), (5, 13)]
    assert view["disagreements"][0]["only"] == {
        "0": [{"start": 2, "end": 3, "type": "R:PREP", "corrections": ["on"],
               "line": "A 2 3|||R:PREP|||on|||REQUIRED|||-NONE-|||0"}], "1": []}
    # an annotator's own file keeps its annotators' progress
    ana = await _run(client, "m2lsp.progress", (tmp_path / "A.m2").as_uri())
    assert ana is None or all("curated" not in p["text"] for p in ana)


@pytest.mark.asyncio(loop_scope="module")
async def test_next_disagreement_goes_to_the_next_open_sentence(client: LanguageClient,
                                                                tmp_path: Path) -> None:
    for name, text in (("A.m2", A), ("B.m2", B)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    gold = tmp_path / "gold.m2"
    assert main(["curate", str(tmp_path / "A.m2"), str(tmp_path / "B.m2"), "-o", str(gold),
                 "--who", "cara", "--sentence", "4", "--take", "1"]) == 0
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=gold.as_uri(), language_id="m2", version=1,
        text=gold.read_text(encoding="utf-8"))))
    found = await _run(client, "m2lsp.nextDisagreement", gold.as_uri(), 6, "next")
    assert found == {"line": 12, "sentence": 5}
    found = await _run(client, "m2lsp.nextDisagreement", gold.as_uri(), 12, "previous")
    assert found == {"line": 6, "sentence": 3}


async def _actions(client: LanguageClient, path: Path, line: int) -> dict[str, types.Command]:
    """The code actions at `line`, by title (their commands)."""
    return await workbench_actions(client, path.as_uri(), types.Range(
        types.Position(line, 2), types.Position(line, 2)))


async def _reopened(client: LanguageClient, path: Path, version: int) -> None:
    """The editor's copy of the gold follows the file on disk, as VS Code reloads it."""
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
        [types.TextDocumentContentChangeWholeDocument(path.read_text(encoding="utf-8"))]))


@pytest.mark.asyncio(loop_scope="module")
async def test_actions_on_a_curated_gold_are_decisions_written_into_it_alone(
        client: LanguageClient, tmp_path: Path) -> None:
    for name, text in (("A.m2", A), ("B.m2", B)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    gold = tmp_path / "gold.m2"
    assert main(["curate", str(tmp_path / "A.m2"), str(tmp_path / "B.m2"), "-o", str(gold),
                 "--who", "cara"]) == 0
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=gold.as_uri(), language_id="gec-m2", version=1,
        text=gold.read_text(encoding="utf-8"))))
    # sentence 3: the annotators' versions, no edit of the gold's text by hand
    actions = await _actions(client, gold, 6)
    assert list(actions) == [
        "Take annotator 0's edits", "Take annotator 1's edits",
        "Accept 1 2|||R:VERB:SVA|||arrives (annotators 0, 1)",
        "Accept 2 3|||R:PREP|||on (annotator 0)", "Correct as it is (no edit)"]
    assert {a.command for a in actions.values()} == {"m2lsp.curate"}
    accept = await _run(client, "m2lsp.curate",
                        *actions["Accept 2 3|||R:PREP|||on (annotator 0)"].arguments)
    assert accept["counts"]["in progress"] == 1
    await _reopened(client, gold, 2)
    assert list(await _actions(client, gold, 6)) == [
        "Take annotator 0's edits", "Take annotator 1's edits",
        "Accept 1 2|||R:VERB:SVA|||arrives (annotators 0, 1)", "Reject 2 3|||R:PREP|||on",
        "Done: keep the gold's edits", "Correct as it is (no edit)",
        "Reopen: forget the decisions on this sentence"]
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        types.TextDocumentIdentifier(gold.as_uri())))
    done = next(lens for lens in lenses if lens.command.title.startswith("done"))
    assert (done.range.start.line, done.command.title) == (6, "done: She arrive on Monday .")
    # on the gold's A line: reject that edit
    reject = await _actions(client, gold, 7)
    assert list(reject) == ["Reject this edit (2 3|||R:PREP|||on)"]
    for command in (*reject.values(), done.command):
        answer = await _run(client, "m2lsp.curate", *command.arguments)
        assert "error" not in answer, answer
    status = await _run(client, "m2lsp.curationStatus", gold.as_uri())
    assert (status["outcomes"][2]["state"], status["outcomes"][2]["edits"]) == ("decided", [])
    assert (tmp_path / "A.m2").read_text(encoding="utf-8") == A
    assert (tmp_path / "B.m2").read_text(encoding="utf-8") == B
