"""The annotator's workbench over stdio (pytest-lsp): token numbers as inlay hints (always,
in the cursor's block, never), completion of offsets and of the types that fit, "Add an edit
for tokens i–j…" typed by ERRANT, "Re-classify this edit", the disagreements of a merged
file with next/previous and their adjudication, and each annotator's progress."""

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

SERVER = [sys.executable, "-m", "m2lsp", "serve"]
TWO = ("S He go to school yesterday .\n"
       "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n"
       "A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||1\n"
       "\n"
       "S It is fine .\n"
       "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
       "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n"
       "\n"
       "S She like cats .\n"
       "A 1 2|||R:VERB:SVA|||likes|||REQUIRED|||-NONE-|||0\n"
       "\n"
       "S Nobody here yet .\n")
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
    try:
        model = spacy_model()
    except pytest.skip.Exception:
        model = "no_such_pipeline"
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(
            workspace=types.WorkspaceClientCapabilities(apply_edit=True)),
        initialization_options={"m2lsp": {"spacyModel": model, "adjudicator": "1"}}))
    yield
    await lsp_client.shutdown_session()


async def _open(client: LanguageClient, uri: str, text: str = TWO) -> None:
    STATE["docs"][uri] = [1, text]
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="gec-m2", version=1,
                                             text=text)))
    await asyncio.sleep(0.2)


def _doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def _range(line: int, start: int, end: int | None = None, last: int | None = None
           ) -> types.Range:
    return types.Range(start=types.Position(line=line, character=start),
                       end=types.Position(line=line if last is None else last,
                                          character=start if end is None else end))


async def _numbers(client: LanguageClient, uri: str) -> list[tuple[int, int, str]]:
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=_doc(uri), range=_range(0, 0, 0, 12)))
    return [(h.position.line, h.position.character, h.label) for h in hints if h.kind]


async def _command(client: LanguageClient, command: str, *arguments: Any) -> Any:
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=command, arguments=list(arguments)))


async def _actions(client: LanguageClient, uri: str, where: types.Range
                   ) -> dict[str, types.Command]:
    found = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=_doc(uri), range=where, context=types.CodeActionContext(diagnostics=[])))
    out = {}
    for action in found or []:
        command = action.command
        if isinstance(command, str) and command.startswith("{"):
            # pytest-lsp reads a CodeAction carrying a command back as a Command whose
            # `command` is that command's text
            data = ast.literal_eval(command)
            command = types.Command(title=data["title"], command=data["command"],
                                    arguments=data.get("arguments"))
        if isinstance(command, types.Command):
            out[action.title] = command
    return out


def _where(uri: str, line: int, row: int = 0) -> dict[str, Any]:
    """The anchor a code action on row `row` of the block at `line` carries now."""
    version, text = STATE["docs"][uri]
    lines = text.split("\n")
    edit = {"row": row, "edit": lines[line + row]} if row else {}
    return {"version": version, "line": line, "sentence": lines[line], **edit}


def _change(client: LanguageClient, uri: str, text: str) -> None:
    """The user edits the document: its whole text replaced, the next version."""
    version = STATE["docs"][uri][0] + 1
    STATE["docs"][uri] = [version, text]
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


def _settings(client: LanguageClient, **values: Any) -> None:
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"m2lsp": values}))


@pytest.mark.asyncio(loop_scope="module")
async def test_token_numbers_always_in_the_cursors_block_or_never(client: LanguageClient):
    uri = "file:///work/numbers.m2"
    await _open(client, uri)
    await client.text_document_hover_async(types.HoverParams(
        text_document=_doc(uri), position=types.Position(line=8, character=3)))
    assert await _numbers(client, uri) == [(8, 2, "0"), (8, 6, "1"), (8, 11, "2"),
                                           (8, 16, "3")]  # S She like cats .
    _settings(client, tokenNumbers="always")
    await asyncio.sleep(0.2)
    found = await _numbers(client, uri)
    assert {line for line, _, _ in found} == {0, 4, 8, 11} and len(found) == 6 + 4 + 4 + 4
    _settings(client, tokenNumbers="never")
    await asyncio.sleep(0.2)
    assert await _numbers(client, uri) == []
    _settings(client, tokenNumbers="block")
    await asyncio.sleep(0.2)


async def _complete(client: LanguageClient, uri: str, line: int, character: int
                    ) -> list[types.CompletionItem]:
    found = await client.text_document_completion_async(types.CompletionParams(
        text_document=_doc(uri), position=types.Position(line=line, character=character)))
    return list(found.items) if found is not None else []  # type: ignore[union-attr]


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_of_offsets_and_of_the_types_that_fit(client: LanguageClient):
    uri = "file:///work/complete.m2"
    text = TWO.replace("S Nobody here yet .\n", "S Nobody here yet .\nA \nA 1 \n"
                       "A 2 2|||\nA 1 2|||R:NOUN|||x|||\nA -1 -1|||")
    await _open(client, uri, text)
    starts = await _complete(client, uri, 12, 2)
    assert [(i.label, i.detail) for i in starts] == [
        ("0", "Nobody here yet ."), ("1", "here yet ."), ("2", "yet ."), ("3", "."),
        ("4", "(the end)")]
    ends = await _complete(client, uri, 13, 4)
    assert [(i.label, i.detail) for i in ends] == [
        ("1", "(insert before token 1)"), ("2", "here"), ("3", "here yet"),
        ("4", "here yet .")]
    assert ends[0].text_edit.range == _range(13, 4)  # type: ignore[union-attr]
    inserted = [i.label for i in await _complete(client, uri, 14, 8)]
    assert "M:DET" in inserted and {t.partition(":")[0] for t in inserted} == {"M", "UNK"}
    required = await _complete(client, uri, 15, 21)
    assert [i.label for i in sorted(required, key=lambda i: i.sort_text or "")] == [
        "REQUIRED", "OPTIONAL"]
    assert [i.label for i in await _complete(client, uri, 16, 10)] == ["noop"]


@pytest.mark.slow
@pytest.mark.asyncio(loop_scope="module")
async def test_add_an_edit_for_selected_tokens_typed_by_errant(client: LanguageClient):
    uri = "file:///work/add.m2"
    await _open(client, uri)
    actions = await _actions(client, uri, _range(11, 9, 13))  # "here" of the last S line
    command = actions["Add an edit for token 1…"]
    where = {"version": 1, "line": 11, "sentence": "S Nobody here yet ."}
    assert command.arguments == [uri, 11, 1, 2, None, None, ["0", "1"], "here", where]
    answer = await _command(client, command.command, uri, 11, 1, 2, "there", "0", where)
    assert answer["applied"] and answer["engine"].startswith("errant")
    assert STATE["docs"][uri][1].endswith(
        "S Nobody here yet .\nA 1 2|||R:ADV|||there|||REQUIRED|||-NONE-|||0\n")
    # a hand-set type, typed again by ERRANT
    await _command(client, "m2lsp.adopt", uri, 0, "0", "1", _where(uri, 0))
    text = STATE["docs"][uri][1].replace("R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||1",
                                         "M:DET|||goes|||REQUIRED|||-NONE-|||1")
    await _open(client, uri, text)
    actions = await _actions(client, uri, _range(2, 0))
    assert actions["Re-classify this edit"].arguments == [uri, 2, _where(uri, 0, 2)]
    assert (await _command(client, "m2lsp.retypeEdit", uri, 2, _where(uri, 0, 2)))["applied"]
    assert "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||1" in STATE["docs"][uri][1]


@pytest.mark.asyncio(loop_scope="module")
async def test_disagreements_next_and_adjudication(client: LanguageClient):
    uri = "file:///work/adjudicate.m2"
    await _open(client, uri)
    listed = await _command(client, "m2lsp.disagreements", uri)
    assert [(d["sentence"], d["line"]) for d in listed["disagreements"]] == [(1, 1), (3, 9)]
    assert await _command(client, "m2lsp.nextDisagreement", uri, 1, "next") == {
        "line": 8, "sentence": 3}
    assert await _command(client, "m2lsp.nextDisagreement", uri, 8, "next") == {
        "line": 0, "sentence": 1}  # round the end
    assert await _command(client, "m2lsp.nextDisagreement", uri, 0, "previous") == {
        "line": 8, "sentence": 3}
    actions = await _actions(client, uri, _range(0, 0))
    assert {"Adopt annotator 0's edits as annotator 1", "Keep only annotator 0",
            "Keep only annotator 1"} <= set(actions)
    command = actions["Adopt annotator 0's edits as annotator 1"]
    assert (await _command(client, command.command, *command.arguments))["applied"]
    assert STATE["docs"][uri][1].startswith(
        "S He go to school yesterday .\n"
        "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n"
        "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||1\n\n")
    actions = await _actions(client, uri, _range(9, 0))  # annotator 0's edit, 1 has none
    command = actions["Accept this edit into annotator 1"]
    assert (await _command(client, command.command, *command.arguments))["applied"]
    assert "A 1 2|||R:VERB:SVA|||likes|||REQUIRED|||-NONE-|||1\n" in STATE["docs"][uri][1]
    assert (await _command(client, "m2lsp.disagreements", uri))["disagreements"] == []
    progress = await _command(client, "m2lsp.progress", uri)
    assert [p["text"] for p in progress] == ["annotator 0: 3 of 4 sentences",
                                             "annotator 1: 3 of 4 sentences"]
    await _command(client, "m2lsp.keepOnly", uri, 0, "0", _where(uri, 0))
    assert STATE["docs"][uri][1].startswith(
        "S He go to school yesterday .\n"
        "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n")


NEW = "S A new first sentence .\nA 0 1|||U:DET||||||REQUIRED|||-NONE-|||0\n\n"


@pytest.mark.asyncio(loop_scope="module")
async def test_a_command_finds_its_sentence_again_after_the_text_changed(
        client: LanguageClient):
    """"Keep only annotator 1", made on the first sentence, run after a block was put
    above it: the sentence it was made for changes, not the new block at its old line."""
    uri = "file:///work/moved.m2"
    await _open(client, uri)
    keep = (await _actions(client, uri, _range(0, 0)))["Keep only annotator 1"]
    accept = (await _actions(client, uri, _range(9, 0)))["Accept this edit into annotator 1"]
    _change(client, uri, NEW + TWO)
    await asyncio.sleep(0.2)
    answer = await _command(client, keep.command, *(keep.arguments or []))
    assert answer["applied"], answer
    assert STATE["docs"][uri][1].startswith(NEW + "S He go to school yesterday .\n"
                                            "A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||"
                                            "-NONE-|||1\n\nS It is fine .")
    answer = await _command(client, accept.command, *(accept.arguments or []))
    assert answer["applied"], answer
    assert "S She like cats .\nA 1 2|||R:VERB:SVA|||likes|||REQUIRED|||-NONE-|||0\n" \
        "A 1 2|||R:VERB:SVA|||likes|||REQUIRED|||-NONE-|||1\n" in STATE["docs"][uri][1]


SHE = "S She like cats .\nA 1 2|||R:VERB:SVA|||likes|||REQUIRED|||-NONE-|||0\n\n"
FILLER = ("S Filler .\nA 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n"
          "A 0 1|||R:NOUN|||y|||REQUIRED|||-NONE-|||1\n"
          "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||2\n\n")


@pytest.mark.parametrize(("line", "changed", "why"), [
    (0, lambda text: text.replace("S He go to", "S He goes to"), "no longer in the document"),
    (0, lambda text: "\n".join(text.split("\n")[4:]), "no longer in the document"),
    # the sentence of line 8 now at lines 4 and 12
    (8, lambda text: text[:text.index("S It")] + SHE + FILLER + SHE, "twice as near"),
])
@pytest.mark.asyncio(loop_scope="module")
async def test_a_command_whose_sentence_is_gone_is_refused(client: LanguageClient,
                                                            line: int, changed, why: str):
    uri = "file:///work/gone.m2"
    await _open(client, uri)
    keep = (await _actions(client, uri, _range(line, 0)))["Keep only annotator 1"]
    _change(client, uri, changed(TWO))
    await asyncio.sleep(0.2)
    before = STATE["docs"][uri][1]
    answer = await _command(client, keep.command, *(keep.arguments or []))
    assert not answer["applied"] and why in answer["error"], answer
    assert STATE["docs"][uri][1] == before


COMMANDS = [  # (command, arguments after the uri and line, what the refusal names)
    ("m2lsp.keepOnly", ["1"], "no document version"),  # no anchor
    ("m2lsp.addEdit", [1, 2, "x|||y", "0", "ANCHOR"], "'|||'"),
    ("m2lsp.addEdit", [1, 2, "goes", "0\nS evil", "ANCHOR"], "not an annotator id"),
    ("m2lsp.addEdit", [1, 2, "goes", "zero", "ANCHOR"], "not an annotator id"),
    ("m2lsp.keepOnly", ["1\nS evil", "ANCHOR"], "not an annotator id"),
    ("m2lsp.adopt", ["0 |||", "1", "ANCHOR"], "not an annotator id"),
    ("m2lsp.adopt", ["0", "-1", "ANCHOR"], "not an annotator id"),
    ("m2lsp.acceptEdit", ["A", "ANCHOR"], "not an annotator id"),
    ("m2lsp.keepOnly", ["1", {"version": "1", "sentence": 2}], "not {version"),
    ("m2lsp.annotateFromCorrection", ["He goes to school .", "0\nS evil"],
     "not an annotator id"),
]


@pytest.mark.parametrize(("command", "arguments", "why"), COMMANDS)
@pytest.mark.asyncio(loop_scope="module")
async def test_what_a_command_would_write_wrong_is_refused(client: LanguageClient,
                                                           command: str, arguments, why: str):
    uri = "file:///work/refused.m2"
    await _open(client, uri)
    line = 1 if command == "m2lsp.acceptEdit" else 0
    anchor = _where(uri, 0, line)
    arguments = [anchor if a == "ANCHOR" else a for a in arguments]
    answer = await _command(client, command, uri, line, *arguments)
    assert not answer["applied"] and why in answer["error"], answer
    assert STATE["docs"][uri][1] == TWO
