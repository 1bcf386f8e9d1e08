"""Annotating from a correction over stdio: the code action on S and A lines, the command
`m2lsp.annotateFromCorrection`, one versioned workspace edit the client applies."""

from __future__ import annotations

import ast
import asyncio
import sys
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.annotation.conftest import spacy_model
from tests.conftest import shared

SERVER = [sys.executable, "-m", "m2lsp", "serve"]
ANNOTATE = "m2lsp.annotateFromCorrection"
TEXT = ("S He go to school yesterday .\n"
        "A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||0\n"
        "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||1\n"
        "A 4 5|||U:ADV||||||REQUIRED|||-NONE-|||1\n"
        "A 5 5|||M:PUNCT|||!|||REQUIRED|||-NONE-|||2\n"
        "\n"
        "S It is fine .\n")
# what the client holds: uri -> [version, text]; the edits it applied; whether it refuses
STATE: dict[str, Any] = {"docs": {}, "applied": [], "refuse": False}


def _offset(text: str, where: types.Position) -> int:
    lines = text.split("\n")
    return sum(len(line) + 1 for line in lines[:where.line]) + where.character


def _apply(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
    STATE["applied"].append(params)
    [change] = params.edit.document_changes or []
    version, text = STATE["docs"][change.text_document.uri]
    if STATE["refuse"] or change.text_document.version != version:
        return types.ApplyWorkspaceEditResult(applied=False, failure_reason="version")
    for edit in change.edits:
        start, end = _offset(text, edit.range.start), _offset(text, edit.range.end)
        text = text[:start] + edit.new_text + text[end:]
    uri = change.text_document.uri
    STATE["docs"][uri] = [version + 1, text]
    STATE["client"].text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version + 1),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
    return types.ApplyWorkspaceEditResult(applied=True)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    STATE["client"] = lsp_client
    lsp_client.feature(types.WORKSPACE_APPLY_EDIT)(_apply)
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(
            workspace=types.WorkspaceClientCapabilities(apply_edit=True)),
        initialization_options={"m2lsp": {"spacyModel": "no_such_pipeline",
                                          "annotationType": "OTHER"}}))
    yield
    await lsp_client.shutdown_session()


async def _open(client: LanguageClient, uri: str, text: str = TEXT) -> None:
    STATE["docs"][uri] = [1, text]
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="gec-m2", version=1,
                                             text=text)))
    await asyncio.sleep(0.2)


async def _actions(client: LanguageClient, uri: str, line: int) -> list[dict[str, Any]]:
    """The annotate actions at `line` ({title, command, arguments}).  pytest-lsp reads a
    CodeAction carrying a command back as a Command whose `command` is that dict's text."""
    found = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=line, character=0),
                          end=types.Position(line=line, character=0)),
        context=types.CodeActionContext(diagnostics=[])))
    out = []
    for action in found or []:
        command = action.command
        if isinstance(command, str) and command.startswith("{"):
            command = ast.literal_eval(command)
        if isinstance(command, dict) and command.get("command") == ANNOTATE:
            out.append({"title": action.title, **command})
        elif isinstance(command, types.Command) and command.command == ANNOTATE:
            out.append({"title": action.title, "command": command.command,
                        "arguments": command.arguments})
    return out


async def _run(client: LanguageClient, *arguments: Any) -> dict[str, Any]:
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=ANNOTATE, arguments=list(arguments)))


TABLE = [
    # line the action is asked on -> the annotator it names and its current correction
    (0, "0", "He went to school yesterday ."),
    (2, "1", "He goes to school ."),
    (4, "2", "He go to school yesterday ! ."),
]


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize(("line", "annotator", "current"), TABLE)
async def test_the_action_on_s_and_a_lines(client: LanguageClient, line: int, annotator: str,
                                           current: str):
    uri = f"file:///work/action{line}.m2"
    await _open(client, uri)
    [action] = await _actions(client, uri, line)
    assert action["title"] == f"Annotate from a correction… (annotator {annotator})"
    assert action["arguments"] == [uri, 0, None, annotator, current]
    assert await _actions(client, uri, 5) == []  # the blank line between blocks


@pytest.mark.asyncio(loop_scope="module")
async def test_the_command_replaces_one_annotators_lines(client: LanguageClient):
    uri = "file:///work/annotate.m2"
    await _open(client, uri)
    STATE["applied"].clear()
    answer = await _run(client, uri, 2, "He goes to the school yesterday .", "1")
    # no spaCy pipeline of that name: the plain alignment, typed with the setting's type
    assert answer["applied"] and answer["engine"] == "alignment"
    assert "OTHER" in answer["note"] and "no_such_pipeline" in answer["note"]
    # the edit whose span and correction stay keeps its line as typed by hand
    assert answer["lines"] == ["A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||1",
                               "A 3 3|||OTHER|||the|||REQUIRED|||-NONE-|||1"]
    [params] = STATE["applied"]
    [change] = params.edit.document_changes  # one text edit, one undo step
    assert change.text_document.version == 1 and len(change.edits) == 1
    assert STATE["docs"][uri][1] == TEXT.replace(
        "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||1\n"
        "A 4 5|||U:ADV||||||REQUIRED|||-NONE-|||1\n",
        "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||1\n"
        "A 3 3|||OTHER|||the|||REQUIRED|||-NONE-|||1\n")


@pytest.mark.asyncio(loop_scope="module")
async def test_a_new_annotator_and_a_block_without_edits(client: LanguageClient):
    uri = "file:///work/new.m2"
    await _open(client, uri)
    assert (await _run(client, uri, 6, "It is fine .", None))["applied"]
    assert (await _run(client, uri, 0, "He go to school .", "5"))["applied"]
    assert STATE["docs"][uri][1] == TEXT.replace(
        "|||2\n", "|||2\nA 4 5|||OTHER||||||REQUIRED|||-NONE-|||5\n").replace(
        "S It is fine .\n", "S It is fine .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n")


@pytest.mark.asyncio(loop_scope="module")
async def test_errors_are_answers_and_the_server_stays(client: LanguageClient):
    uri = "file:///work/errors.m2"
    await _open(client, uri)
    assert "needs the corrected sentence" in (await _run(client, uri, 0, None))["error"]
    assert "no M2 sentence at line 6" in (await _run(client, uri, 5, "x"))["error"]
    assert "expects [uri, line" in (await _run(client, uri))["error"]
    STATE["refuse"] = True
    try:
        answer = await _run(client, uri, 0, "He went .")
    finally:
        STATE["refuse"] = False
    assert not answer["applied"] and "did not apply the edit (version)" in answer["error"]
    assert STATE["docs"][uri][1] == TEXT
    assert (await _run(client, uri, 0, "He goes .", "0"))["applied"]


@pytest.mark.asyncio(loop_scope="module")
async def test_errant_types_the_edits(client: LanguageClient):
    model = spacy_model()
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"m2lsp": {"spacyModel": model}}))
    uri = "file:///work/errant.m2"
    await _open(client, uri)
    answer = await _run(client, uri, 0, "He went to the school yesterday .", "1")
    assert answer["engine"].startswith("errant-3.0.2") and "note" not in answer
    assert answer["lines"] == ["A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||1",
                               "A 3 3|||M:DET|||the|||REQUIRED|||-NONE-|||1"]


@pytest.mark.asyncio(loop_scope="module")
async def test_cherrant_char_level_with_target_lines(client: LanguageClient):
    pytest.importorskip("opencc")
    pytest.importorskip("pypinyin")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"m2lsp": {"cherrantData": str(shared("mucgec/ChERRANT/data"))}}))
    uri = "file:///work/zh.m2"
    text = ("S 我 喜 欢 吃 苹 果 了 。\n"
            "T0-A0 我 很 喜 欢 吃 苹 果 。\n"
            "A 1 1|||M|||很|||REQUIRED|||-NONE-|||0\n"
            "A 6 7|||R|||-NONE-|||REQUIRED|||-NONE-|||0\n"
            "T1 没有错误\n"
            "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n")
    await _open(client, uri, text)
    answer = await _run(client, uri, 2, "我喜欢吃苹果。")
    assert answer["engine"] == "cherrant-char"
    assert STATE["docs"][uri][1] == text.replace(
        "T0-A0 我 很 喜 欢 吃 苹 果 。\nA 1 1|||M|||很|||REQUIRED|||-NONE-|||0\n",
        "T0-A0 我 喜 欢 吃 苹 果 。\n")
    assert (await _run(client, uri, 0, "我喜欢吃苹果了。", "0"))["applied"]
    assert STATE["docs"][uri][1] == (
        "S 我 喜 欢 吃 苹 果 了 。\nT0 没有错误\n"
        "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
        "T1 没有错误\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n")


AGREEMENT = [
    # line of the S line -> its lens (none where fewer than two annotators wrote lines)
    (0, "annotators 0 and 1 agree: F0.5 1.00 (1.00 and 1.00 each way)"),
    (4, "annotators 0 and 1 agree: F0.5 0.69 (0.83 and 0.56 each way)"),
    (9, "annotators 0 and 1 agree: F0.5 1.00 (1.00 and 1.00 each way)"),
    (16, "annotators 0 and 1 agree: F0.5 0.00 (0.00 and 0.00 each way)"),
    (20, "3 annotators agree: mean F0.5 0.33 over 3 pairs; least 0 and 2: 0.00"),
]


@pytest.mark.asyncio(loop_scope="module")
async def test_agreement_lenses(client: LanguageClient):
    from tests.test_agreement import HAND

    uri = "file:///work/agree.m2"
    text = HAND + ("\nS A b .\nA 0 1|||Mec|||a|||REQUIRED|||-NONE-|||0\n"
                   "A 0 1|||Mec|||a|||REQUIRED|||-NONE-|||1\n"
                   "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||2\n")
    await _open(client, uri, text)
    found: list = []
    # each request computes lenses for at most 50 ms (more on a loaded machine: fewer per
    # request) and the server asks for the rest: ask until they are all there
    async with asyncio.timeout(60):
        while len(found) < len(AGREEMENT):
            lenses = await client.text_document_code_lens_async(types.CodeLensParams(
                text_document=types.TextDocumentIdentifier(uri=uri)))
            found = [(lens.range.start.line, lens.command.title) for lens in lenses or []
                     if lens.command and "agree" in lens.command.title]
    assert found == AGREEMENT


@pytest.mark.asyncio(loop_scope="module")
async def test_agreement_lenses_of_a_large_file_come_in_slices(client: LanguageClient):
    gold = shared("conll2014/gold/official-2014.combined.m2")
    uri = gold.as_uri()
    await _open(client, uri, gold.read_text("utf-8"))
    counts = []
    for _ in range(200):
        lenses = await client.text_document_code_lens_async(types.CodeLensParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))
        counts.append(sum(" agree: " in lens.command.title for lens in lenses or []))
        if counts[-1] == 1088:  # the blocks where both annotators wrote lines
            break
    assert counts[0] < 1088 and counts[-1] == 1088  # each request bounded, none lost
    assert counts == sorted(counts)
