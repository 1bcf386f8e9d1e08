"""Edit attribution in the editor through the real server (pytest-lsp over stdio):
`m2lsp.explain` on an open gold and a system file puts each system edit's share on the S
line (an inlay hint after the tokens it changes, and hover on them), equal to `m2lsp
explain`'s; an edit of the gold takes them away; a bad request is an error message and the
server stays up."""

from __future__ import annotations

import json
import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from m2lsp.cli import main
from tests.attribution.conftest import GOLD, SYSTEM
from tests.lsp.test_server import open_doc

SERVER = [sys.executable, "-m", "m2lsp", "serve"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    pytest.importorskip("spacy")
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


def _hints(client: LanguageClient, uri: str, lines: int = 20):
    whole = types.Range(start=types.Position(line=0, character=0),
                        end=types.Position(line=lines, character=0))
    return client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=whole))


@pytest.mark.asyncio(loop_scope="module")
async def test_shares_show_as_hints_and_hover(client: LanguageClient, tmp_path, capsys):
    gold, system = tmp_path / "gold.m2", tmp_path / "system.txt"
    gold.write_text(GOLD, encoding="utf-8")
    system.write_text(SYSTEM, encoding="utf-8")
    uri = gold.as_uri()
    await open_doc(client, GOLD, uri=uri)
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.explain", arguments=[uri, str(system),
                                            {"metric": "m2", "attributor": "shapley"}]))
    assert main(["explain", str(system), str(gold), "--metric", "m2", "--attributor",
                 "shapley", "--format", "json", "--top", "5"]) == 0
    expected = json.loads(capsys.readouterr().out)
    assert answer["types"] == expected["types"] and answer["edits"] == 4
    hints = [h for h in await _hints(client, uri) if h.label.startswith("→")]
    shares = [e for s in expected["sentences"] for e in s["edits"]]
    assert [h.label for h in hints] == [f"→{e['correction']} {e['attribution']:+.3f}"
                                        for e in shares]
    # "S This are a apple .": 'are' -> 'is' after "are" (columns 7-10), on line 0
    assert (hints[0].position.line, hints[0].position.character) == (0, 10)
    # "S He go to school yesterday .": the insertion of 'the' before "school" (line 4)
    assert (hints[3].position.line, hints[3].position.character) == (4, 10)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=types.Position(line=0, character=8)))
    assert "`are` → `is`" in hover.contents.value and "+0.5000" in hover.contents.value

    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=GOLD + "\n")]))
    assert not [h for h in await _hints(client, uri) if h.label.startswith("→")]


@pytest.mark.asyncio(loop_scope="module")
async def test_a_bad_request_is_said(client: LanguageClient, tmp_path):
    gold = tmp_path / "g.m2"
    gold.write_text(GOLD, encoding="utf-8")
    await open_doc(client, GOLD, uri=gold.as_uri())
    for arguments, said in (([gold.as_uri(), str(tmp_path / "none.txt"), {"metric": "m2"}],
                             "cannot explain"),
                            ([gold.as_uri(), str(gold), {"attributor": "lime"}],
                             "attributor: one of"),
                            (["file:///not/open.m2", str(gold)], "is not open")):
        client.messages.clear()
        answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="m2lsp.explain", arguments=arguments))
        shown = [m.message for m in client.messages]
        assert answer is None and any(said in m for m in shown), shown
    assert await _hints(client, gold.as_uri()) is not None  # still up


@pytest.mark.asyncio(loop_scope="module")
async def test_chinese_shares_sit_on_the_characters_they_change(client: LanguageClient):
    """`--metric cherrant` in the editor, on MuCGEC's char-level demo gold (real data,
    skipped where absent): the shares are the API's, each hint after the characters its
    ChERRANT edit changes on the S line."""
    pytest.importorskip("opencc", reason="Chinese annotation needs m2lsp[zh]")
    from m2lsp import explain
    from tests.annotation.cherrant import data
    from tests.conftest import shared

    gold, system = shared("mucgec/demo.ref.m2.char"), shared("mucgec/demo.hyp")
    text = gold.read_text(encoding="utf-8")
    options = {"metric": "cherrant", "attributor": "add", "cherrant_data": str(data())}
    expected = explain(system, gold, **options).to_dict()
    await open_doc(client, text, uri=gold.as_uri())
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.explain", arguments=[gold.as_uri(), str(system), options]))
    shares = [(s["sentence"], e) for s in expected["sentences"] for e in s["edits"]]
    assert answer["edits"] == len(shares) > 10
    hints = [h for h in await _hints(client, gold.as_uri(), lines=len(text.splitlines()))
             if h.label.startswith("→")]
    assert [h.label for h in hints] == [f"→{e['correction'] or '∅'} {e['attribution']:+.3f}"
                                        for _, e in shares]
    rows = [k for k, line in enumerate(text.splitlines()) if line.startswith("S ")]
    for hint, (sentence, edit) in zip(hints, shares, strict=True):
        # one character a token: token k starts at column 2 + 2k; a hint goes in the space
        # after the last changed character (an insertion: the space before the one it
        # precedes), either way column 1 + 2 * end
        assert (hint.position.line, hint.position.character) == (
            rows[sentence - 1], max(2, 1 + 2 * edit["end"])), edit
