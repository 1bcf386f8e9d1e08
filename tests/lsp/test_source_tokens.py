"""The S line's actions over stdio (pytest-lsp): "Insert at i…" at a gap between tokens,
"Split token i…" inside a token and "Join tokens i–j" on a selection, each edit kept on its
words; a deletion added with an empty correction; accepting an insertion in place of the
one it competes with."""

from __future__ import annotations

import ast
import asyncio
import sys
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

SERVER = [sys.executable, "-m", "m2lsp", "serve"]
TEXT = ("S I like waythismakes me feel\n"
        "A 2 3|||R:OTHER|||the way this makes|||REQUIRED|||-NONE-|||0\n"
        "A 4 5|||R:VERB|||feeling|||REQUIRED|||-NONE-|||0\n"
        "\n"
        "S need to go\n"
        "A 0 0|||M:PRON|||we ,|||REQUIRED|||-NONE-|||0\n"
        "A 0 0|||M:PRON|||we|||REQUIRED|||-NONE-|||1\n")
STATE: dict[str, Any] = {"docs": {}}


def _offset(text: str, where: types.Position) -> int:
    return sum(len(line) + 1 for line in text.split("\n")[:where.line]) + where.character


def _apply(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
    [change] = params.edit.document_changes or []
    uri = change.text_document.uri
    version, text = STATE["docs"][uri]
    for edit in change.edits:
        text = text[:_offset(text, edit.range.start)] + edit.new_text + \
            text[_offset(text, edit.range.end):]
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
                                          "adjudicator": "0"}}))
    yield
    await lsp_client.shutdown_session()


async def _open(client: LanguageClient, uri: str, text: str = TEXT) -> None:
    STATE["docs"][uri] = [1, text]
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="gec-m2", version=1,
                                             text=text)))
    await asyncio.sleep(0.2)


def _range(line: int, start: int, end: int | None = None) -> types.Range:
    return types.Range(start=types.Position(line=line, character=start),
                       end=types.Position(line=line, character=start if end is None
                                          else end))


async def _actions(client: LanguageClient, uri: str, where: types.Range
                   ) -> dict[str, types.Command]:
    found = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=where,
        context=types.CodeActionContext(diagnostics=[])))
    out = {}
    for action in found or []:
        command = action.command
        if isinstance(command, str) and command.startswith("{"):
            data = ast.literal_eval(command)  # pytest-lsp's reading of a CodeAction
            command = types.Command(title=data["title"], command=data["command"],
                                    arguments=data.get("arguments"))
        if isinstance(command, types.Command):
            out[action.title] = command
    return out


async def _command(client: LanguageClient, command: str, *arguments: Any) -> Any:
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=command, arguments=list(arguments)))


@pytest.mark.asyncio(loop_scope="module")
async def test_insert_at_a_gap_and_delete_with_an_empty_correction(client: LanguageClient):
    uri = "file:///work/insert.m2"
    await _open(client, uri)
    # "S I like ...": the cursor after "I" (column 3), between tokens 0 and 1
    actions = await _actions(client, uri, _range(0, 3))
    command = actions["Insert at 1…"]
    assert command.command == "m2lsp.addEdit"
    assert command.arguments[2:4] == [1, 1]
    where = command.arguments[8]
    assert where["sentence"].startswith("S I like")
    answer = await _command(client, "m2lsp.addEdit", uri, 0, 1, 1, "really", "0", where)
    assert answer["applied"]
    assert "A 1 1|||UNK|||really|||REQUIRED|||-NONE-|||0\n" in STATE["docs"][uri][1]
    assert "Insert at 5…" in await _actions(client, uri, _range(0, 29))  # at the end
    where = (await _actions(client, uri, _range(0, 29)))["Insert at 5…"].arguments[8]
    answer = await _command(client, "m2lsp.addEdit", uri, 0, 3, 4, "", "0", where)
    assert "A 3 4|||UNK||||||REQUIRED|||-NONE-|||0\n" in STATE["docs"][uri][1]


@pytest.mark.asyncio(loop_scope="module")
async def test_split_and_join_keep_the_edits_on_their_words(client: LanguageClient):
    uri = "file:///work/split.m2"
    await _open(client, uri)
    actions = await _actions(client, uri, _range(0, 12))  # inside "waythismakes"
    command = actions["Split token 2…"]
    where = command.arguments[5]
    assert command.arguments == [uri, 0, 2, None, "waythismakes", where]
    answer = await _command(client, command.command, uri, 0, 2, "way this makes",
                            "waythismakes", where)
    assert answer["applied"]
    assert STATE["docs"][uri][1].startswith(
        "S I like way this makes me feel\n"
        "A 2 5|||R:OTHER|||the way this makes|||REQUIRED|||-NONE-|||0\n"
        "A 6 7|||R:VERB|||feeling|||REQUIRED|||-NONE-|||0\n\nS need")
    actions = await _actions(client, uri, _range(0, 9, 23))  # "way this makes"
    command = actions["Join tokens 2–4"]
    assert (await _command(client, command.command, *command.arguments))["applied"]
    assert STATE["docs"][uri][1] == TEXT
    where = (await _actions(client, uri, _range(0, 12)))["Split token 2…"].arguments[5]
    refused = await _command(client, "m2lsp.splitToken", uri, 0, 2, "way that makes",
                             "waythismakes", where)
    assert refused["applied"] is False and "keeps the text" in refused["error"]
    stale = await _command(client, "m2lsp.joinTokens", *command.arguments)  # made before
    assert stale["applied"] is False


@pytest.mark.asyncio(loop_scope="module")
async def test_accepting_an_insertion_replaces_the_competing_one(client: LanguageClient):
    uri = "file:///work/accept.m2"
    await _open(client, uri)
    diagnostics = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert "M411" not in {d.code for d in diagnostics.items}
    actions = await _actions(client, uri, _range(6, 0))
    command = actions["Accept this edit into annotator 0"]
    assert (await _command(client, command.command, *command.arguments))["applied"]
    assert STATE["docs"][uri][1].endswith(
        "S need to go\n"
        "A 0 0|||M:PRON|||we|||REQUIRED|||-NONE-|||0\n"
        "A 0 0|||M:PRON|||we|||REQUIRED|||-NONE-|||1\n")


@pytest.mark.asyncio(loop_scope="module")
async def test_annotating_from_a_correction_keeps_the_edits_it_does_not_touch(
        client: LanguageClient):
    uri = "file:///work/realign.m2"
    split = ("S I has went to home yesterday\n"
             "A 1 2|||R:VERB:TENSE|||had|||REQUIRED|||-NONE-|||0\n"
             "A 2 3|||R:VERB:FORM|||gone|||REQUIRED|||-NONE-|||0\n")
    await _open(client, uri, split)
    answer = await _command(client, "m2lsp.annotateFromCorrection", uri, 0,
                            "I had gone to my home yesterday .", "0")
    assert answer["applied"]
    assert STATE["docs"][uri][1] == split + "A 4 4|||UNK|||my|||REQUIRED|||-NONE-|||0\n" \
        "A 6 6|||UNK|||.|||REQUIRED|||-NONE-|||0\n"
