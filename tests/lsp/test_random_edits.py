"""A thousand random edits through the real server: after each, its diagnostics equal what
`m2lsp check --output-format json` prints for the same text."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from m2lsp.cli import main as m2lsp_main
from m2lsp.parsing.source import SourceText
from tests.conftest import shared
from tests.lsp.test_server import published
from tests.test_live import expected_text, random_change

SERVER = [sys.executable, "-m", "m2lsp", "serve"]
URI = "file:///work/random.m2"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


def utf16(line: str, col: int) -> int:
    """A code-point column in UTF-16 units (columns past the end stay as they are)."""
    return len(line[:col].encode("utf-16-le")) // 2 + max(0, col - len(line))


def from_server(found: list[types.Diagnostic]) -> list[tuple]:
    return sorted((str(d.code), d.range.start.line, d.range.start.character,
                   d.range.end.line, d.range.end.character, d.message) for d in found)


def from_check(text: str, path: Path, capsys: pytest.CaptureFixture[str]) -> list[tuple]:
    """What `m2lsp check` says about `text`, in LSP coordinates (0-based, UTF-16)."""
    path.write_bytes(text.encode("utf-8"))
    capsys.readouterr()
    m2lsp_main(["check", "--output-format", "json", "--exit-zero", "-q", "--format", "m2",
                str(path)])
    lines = SourceText(text).lines or [""]
    rows = []
    for item in json.loads(capsys.readouterr().out):
        (l0, c0), (l1, c1) = [(loc["row"] - 1, loc["column"] - 1)
                              for loc in (item["location"], item["end_location"])]
        rows.append((item["code"], l0, utf16(lines[min(l0, len(lines) - 1)], c0),
                     l1, utf16(lines[min(l1, len(lines) - 1)], c1), item["message"]))
    return sorted(rows)


# over the wire, 300 edits (37 s of CI at 1,000); tests/test_live.py makes 1,000 in process,
# where the incremental re-lint is the same code
STEPS = 300


def lsp_change(lines: list[str], change, version: int) -> types.DidChangeTextDocumentParams:
    (l0, c0), (l1, c1) = change.start, change.end
    where = types.Range(start=types.Position(line=l0, character=utf16(lines[l0], c0)),
                        end=types.Position(line=l1, character=utf16(lines[l1], c1)))
    return types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=version),
        content_changes=[types.TextDocumentContentChangePartial(range=where,
                                                                text=change.text)])


@pytest.mark.slow
@pytest.mark.asyncio(loop_scope="module")
async def test_random_edits_keep_the_servers_diagnostics_equal_to_check(
        client: LanguageClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    gold = shared("conll2014/gold/official-2014.combined.m2").read_text("utf-8")
    text = "\n".join(gold.split("\n")[:300]) + "\n"
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=URI, language_id="gec-m2", version=1,
                                             text=text)))
    assert from_server(await published(client, URI)) == from_check(text, tmp_path / "a.m2",
                                                                   capsys)
    rng = random.Random(4)
    seen = set()
    for step in range(STEPS):
        lines = SourceText(text).lines
        change = random_change(rng, lines)
        text = expected_text(text, change)
        client.diagnostics.pop(URI)
        client.text_document_did_change(lsp_change(lines, change, version=step + 2))
        served = from_server(await published(client, URI))
        assert served == from_check(text, tmp_path / "a.m2", capsys), (step, change)
        seen.update(row[0] for row in served)
    assert len(seen) >= 10  # the edits exercised many rules, not one
