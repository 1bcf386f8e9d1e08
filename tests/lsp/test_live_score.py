"""Live scoring through the real server (pytest-lsp over stdio) on the full CoNLL-2014 gold
with CAMB: marks within the diagnostics cap, the report holding every edit, summaries above
the S lines, plain-word hovers, next-edit navigation, and -- after 200 random edits of the
gold and the system -- the same counts as `m2lsp score` on the saved texts."""

from __future__ import annotations

import contextlib
import io
import json
import random
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from m2lsp.cli import main
from tests.conftest import shared
from tests.lsp.test_server import open_doc, published

SERVER = [sys.executable, "-m", "m2lsp", "serve"]
GOLD = "conll2014/gold/official-2014.combined.m2"
STATUS: list[dict] = []


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    @lsp_client.feature("m2lsp/scoreChanged")
    def score_changed(params):
        STATUS.append(plain(params))

    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


def cli_json(*args: str | Path) -> dict:
    """What `m2lsp score --format json ARGS` prints."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["score", "--format", "json", *map(str, args)])
    return json.loads(out.getvalue())


async def report(client: LanguageClient, uri: str, **options) -> dict:
    return await client.protocol.send_request_async("m2lsp/scoreReport",
                                                    {"uri": uri, **options})


def plain(value):
    """pygls hands custom messages over as named tuples: as plain JSON data."""
    if hasattr(value, "_asdict"):
        return {k: plain(v) for k, v in value._asdict().items()}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


async def score_camb(client: LanguageClient) -> tuple[str, dict]:
    gold = shared(GOLD)
    uri = gold.as_uri()
    await open_doc(client, gold.read_text("utf-8"), uri=uri)
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.score", arguments=[uri, str(shared("conll2014/systems/CAMB"))]))
    return uri, result


# nightly: the whole CoNLL-2014 test set live (24 s of CI); the tests above score it in parts
@pytest.mark.nightly
@pytest.mark.slow
@pytest.mark.asyncio(loop_scope="module")
async def test_whole_test_set_within_the_cap_and_every_edit_in_the_report(
        client: LanguageClient):
    uri, result = await score_camb(client)
    expected = cli_json(shared("conll2014/systems/CAMB"), shared(GOLD))
    assert result["f"] == expected["f"] and result["live"]
    found = await published(client, uri, lambda ds: any(d.source == "m2lsp-score"
                                                        for d in ds))
    assert len(found) <= 1000  # VS Code's marker cap: nothing is cut by the client
    kinds = {str(d.code) for d in found if d.source == "m2lsp-score"}
    assert kinds <= {"FP", "FN", "max-diagnostics"} and {"FP", "FN"} <= kinds
    assert all(d.severity == types.DiagnosticSeverity.Information for d in found
               if d.source == "m2lsp-score")
    data = plain(await report(client, uri))
    rows = data["sentences"]
    assert len(rows) == 1312
    for key in ("correct", "proposed", "gold"):
        assert sum(r[key] for r in rows) == data["counts"][key]
    assert data["counts"]["correct"] == 772 and data["counts"]["gold"] == 2565
    fp = sum(r["fp"] for r in rows)
    fn = sum(r["fn"] for r in rows)
    assert (fp, fn) == (1172, 1793)  # all of them, though the panel shows fewer
    assert [r["f"] for r in rows] == sorted(r["f"] for r in rows)  # worst first
    by_fp = plain(await report(client, uri, sort="fp"))["sentences"]
    assert by_fp[0]["fp"] == max(r["fp"] for r in rows)
    det = plain(await report(client, uri, type="ArtOrDet"))
    assert det["sentences"] and all(e["type"] == "ArtOrDet" for r in det["sentences"]
                                    for e in r["edits"])
    message = next(e["message"] for r in rows for e in r["edits"] if e["kind"] == "FP")
    assert message.startswith("system: \"") and " → " in message


@pytest.mark.asyncio(loop_scope="module")
async def test_summaries_hover_and_next_edit(client: LanguageClient):
    uri, _ = await score_camb(client)
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    lenses = [lens for lens in lenses if " agree: " not in lens.command.title]  # scores'
    assert len(lenses) == 1312
    titles = [lens.command.title for lens in lenses]
    assert titles[0] == "nothing to correct, and the system changed nothing"
    assert titles[1].startswith("F0.5 0.0000 · P 0.0000") and "1 wrong" in titles[1]
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        position=lenses[1].range.start))
    assert "system: What is the genetic risk ?" in hover.contents.value
    assert 'no annotator inserts "the" here' in hover.contents.value
    first = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.nextScoreMark", arguments=[uri, {"line": 0, "character": 0}, "FP"]))
    assert first["kind"] == "FP" and first["range"]["start"]["line"] == lenses[1].range.start.line
    after = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.nextScoreMark", arguments=[uri, first["range"]["start"], "FN"]))
    assert after["kind"] == "FN"
    assert after["range"]["start"]["line"] >= first["range"]["start"]["line"]


def random_system_edit(rng: random.Random, lines: list[str]) -> tuple[int, str]:
    """Insert, delete or replace one token of a random system line."""
    row = rng.randrange(len(lines) - 1)  # the last line is the empty one after the final LF
    tokens = lines[row].split(" ")
    choice = rng.random()
    at = rng.randrange(len(tokens))
    if choice < 0.4:
        tokens.insert(at, rng.choice(["the", "a", "is", "are", ","]))
    elif choice < 0.7 and len(tokens) > 1:
        del tokens[at]
    else:
        tokens[at] = rng.choice(["the", "an", "have", "has", "."])
    return row, " ".join(tokens)


def random_gold_edit(rng: random.Random, lines: list[str]) -> tuple[int, str]:
    """Change the correction of a random A line, or its span within the sentence."""
    rows = [i for i, line in enumerate(lines) if line.startswith("A ") and "noop" not in line]
    row = rng.choice(rows)
    head, kind, correction, *rest = lines[row].split("|||")
    if rng.random() < 0.5:
        correction = rng.choice(["the", "a", "-NONE-", "have", "is"])
    else:
        sentence = next(lines[i] for i in range(row, -1, -1) if lines[i].startswith("S "))
        length = len(sentence.split()) - 1
        start = rng.randrange(length + 1)
        head = f"A {start} {min(length, start + rng.randrange(2))}"
    return row, "|||".join([head, kind, correction, *rest])


def replace_line(client: LanguageClient, uri: str, version: int, row: int, old: str,
                 new: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=row, character=0),
                              end=types.Position(line=row, character=len(old))),
            text=new)]))


@pytest.mark.slow
@pytest.mark.asyncio(loop_scope="module")
async def test_two_hundred_random_edits_keep_the_counts_of_the_command_line(
        client: LanguageClient, tmp_path: Path):
    gold_text = shared(GOLD).read_text("utf-8")
    system_text = shared("conll2014/systems/CAMB").read_text("utf-8")
    gold_uri, system_uri = "file:///work/live-gold.m2", "file:///work/live-system.txt"
    await open_doc(client, gold_text, uri=gold_uri)
    await open_doc(client, system_text, uri=system_uri, language="plaintext")
    await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.scoreAgainst", arguments=[gold_uri, system_uri]))
    rng = random.Random(14)
    texts = {gold_uri: gold_text.split("\n"), system_uri: system_text.split("\n")}
    versions = {gold_uri: 1, system_uri: 1}
    for step in range(200):
        uri = gold_uri if step % 2 else system_uri
        lines = texts[uri]
        edit = random_gold_edit if uri == gold_uri else random_system_edit
        row, new = edit(rng, lines)
        versions[uri] += 1
        replace_line(client, uri, versions[uri], row, lines[row], new)
        lines[row] = new
    data = plain(await report(client, gold_uri, sort="line"))
    gold_path, system_path = tmp_path / "gold.m2", tmp_path / "system.txt"
    gold_path.write_text("\n".join(texts[gold_uri]), encoding="utf-8")
    system_path.write_text("\n".join(texts[system_uri]), encoding="utf-8")
    expected = cli_json(system_path, gold_path)
    rows = data["sentences"]
    for key in ("correct", "proposed", "gold"):
        assert sum(r[key] for r in rows) == data["counts"][key] == expected["counts"][key]
    assert (data["precision"], data["recall"], data["f"]) == (
        expected["precision"], expected["recall"], expected["f"])
    assert expected["counts"] != {"correct": 772, "proposed": 1944, "gold": 2565}
    # what the status bar shows: the last m2lsp/scoreChanged before the report's answer
    assert [s for s in STATUS if s["uri"] == gold_uri][-1]["f"] == expected["f"]


@pytest.mark.asyncio(loop_scope="module")
async def test_opening_and_editing_the_scored_system_file_rescores(client: LanguageClient,
                                                                    tmp_path: Path):
    """Scored with a path, the system file's open document wins over the saved text: editing
    it re-scores the gold, and the status follows."""
    import asyncio

    gold = tmp_path / "gold.m2"
    gold.write_bytes(shared(GOLD).read_bytes())
    system = tmp_path / "camb.txt"
    system.write_bytes(shared("conll2014/systems/CAMB").read_bytes())
    await open_doc(client, gold.read_text("utf-8"), uri=gold.as_uri())
    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.score", arguments=[gold.as_uri(), str(system)]))
    lines = system.read_text("utf-8").split("\n")
    lines[1] = "What is genetic risk ?"  # the system's false positive undone
    edited = "\n".join(lines)
    await open_doc(client, edited, uri=system.as_uri(), language="plaintext")
    changed = tmp_path / "edited.txt"
    changed.write_text(edited, encoding="utf-8")
    expected = cli_json(changed, gold)
    assert expected["f"] != result["f"]
    async with asyncio.timeout(30):
        while not any(s.get("uri") == gold.as_uri() and s.get("f") == expected["f"]
                      for s in STATUS):
            await asyncio.sleep(0.05)


@pytest.mark.slow
@pytest.mark.asyncio(loop_scope="module")
async def test_the_report_takes_a_text_document_and_says_why_scoring_failed(
        client: LanguageClient, tmp_path_factory):
    """LSP's usual `{"textDocument": {"uri"}}` works as `{"uri"}` does; after a failed
    request to score, the report says the real reason, not 'no live score'."""
    uri, _ = await score_camb(client)
    by_text_document = plain(await client.protocol.send_request_async(
        "m2lsp/scoreReport", {"textDocument": {"uri": uri}, "sort": "fp"}))
    assert by_text_document["sentences"] == plain(await report(client, uri, sort="fp"))[
        "sentences"]
    short = tmp_path_factory.mktemp("short") / "short.txt"
    short.write_text("just one line\n", encoding="utf-8")
    await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.clearScores", arguments=[uri]))
    failed = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.score", arguments=[uri, str(short)]))
    assert failed is None
    data = plain(await client.protocol.send_request_async(
        "m2lsp/scoreReport", {"textDocument": {"uri": uri}}))
    assert data["error"] == ("cannot score: the gold has 1312 sentences but the system has "
                             "1 line")
    missing = plain(await report(client, "file:///not/open.m2"))
    assert missing["error"] == "the document file:///not/open.m2 is not open"
