"""`m2lsp serve --tcp HOST:PORT`: the same server over a socket, for the invoking user only:
a client passes the token, and commands read only the workspace's files."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.lsp.client import LanguageClient


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


TOKEN = "a-token-for-the-tests"


def serve(port: int, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "m2lsp", "serve", "--tcp",
                             f"127.0.0.1:{port}", *extra], stderr=subprocess.PIPE,
                            env={**os.environ, "M2LSP_TOKEN": TOKEN})


async def connected(port: int, root: Path | None = None) -> LanguageClient:
    """A client in, with the token."""
    client = LanguageClient("m2lsp-test", "1")
    while True:
        try:
            await client.start_tcp("127.0.0.1", port)
            break
        except OSError:  # not listening yet
            await asyncio.sleep(0.1)
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=root.as_uri() if root else None,
        initialization_options={"m2lsp": {"token": TOKEN}}))
    return client


async def hover_over_tcp(port: int) -> types.Hover | None:
    async with asyncio.timeout(30):
        client = await connected(port)
        client.initialized(types.InitializedParams())
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri="file:///t.m2", language_id="gec-m2", version=1,
                text="S a b\nA 0 1|||R:NOUN|||c|||REQUIRED|||-NONE-|||0\n")))
        hover = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri="file:///t.m2"),
            position=types.Position(line=1, character=0)))
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
    return hover


def test_serve_over_tcp():
    port = free_port()
    server = serve(port)
    try:
        hover = asyncio.run(hover_over_tcp(port))
        code = server.wait(timeout=30)  # the client left: the server ends by itself
    finally:
        server.kill()
        server.wait(timeout=30)
    assert hover is not None and "`a` → `c`" in hover.contents.value
    err = server.stderr.read().decode()
    assert code == 0 and "Traceback" not in err and "SystemExit" not in err, err


@pytest.mark.parametrize("where", ["127.0.0.1", "host:port"])
def test_a_bad_tcp_address_is_a_usage_error(where):
    done = subprocess.run([sys.executable, "-m", "m2lsp", "serve", "--tcp", where],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "HOST:PORT" in done.stderr


def _initialize(port: int, options: Any) -> tuple[dict, bytes]:
    """A raw initialize with these initializationOptions: the answer, and what the server
    sends after it before closing (nothing)."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": None, "rootUri": None, "capabilities": {},
        "initializationOptions": options}}).encode()
    for _ in range(300):
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
            break
        except OSError:
            asyncio.run(asyncio.sleep(0.1))
    with sock:
        sock.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    head, _, rest = received.partition(b"\r\n\r\n")
    length = int(head.split(b":")[1])
    return json.loads(rest[:length]), rest[length:]


@pytest.mark.parametrize("options", [None, {"m2lsp": {}}, {"m2lsp": {"token": "guess"}},
                                     {"token": 7}])
def test_a_client_without_the_token_is_refused(options):
    """Anyone on the machine can reach the port: without the token, initialize is refused
    and the connection closed; the user's own client still gets in afterwards."""
    port = free_port()
    server = serve(port)
    try:
        answer, after = _initialize(port, options)
        assert answer["error"]["code"] == -32600 and "token" in answer["error"]["message"]
        assert after == b""
        hover = asyncio.run(hover_over_tcp(port))
        assert hover is not None
    finally:
        server.kill()
        server.wait(timeout=30)


async def _reports(port: int, root: Path, golds: list[Path], system: Path) -> list[dict]:
    async with asyncio.timeout(60):
        client = await connected(port, root)
        client.initialized(types.InitializedParams())
        answers = [await client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="m2lsp.report", arguments=[gold.as_uri(), [str(system)],
                                               {"samples": 10}])) for gold in golds]
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
    return answers


def test_over_tcp_commands_read_only_the_workspace(tmp_path: Path):
    """m2lsp.report read any file the server's user could: over TCP only the workspace's
    (a symbolic link out of it is outside too)."""
    work, elsewhere = tmp_path / "work", tmp_path / "secret"
    work.mkdir()
    elsewhere.mkdir()
    gold = "S The cat sat .\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n"
    for folder in (work, elsewhere):
        (folder / "gold.m2").write_text(gold, encoding="utf-8")
    (work / "system.txt").write_text("The dog sat .\n", encoding="utf-8")
    (work / "link.m2").symlink_to(elsewhere / "gold.m2")
    port = free_port()
    server = serve(port, "--token-file", str(tmp_path / "token"))
    try:
        inside, outside, linked = asyncio.run(_reports(
            port, work, [work / "gold.m2", elsewhere / "gold.m2", work / "link.m2"],
            work / "system.txt"))
    finally:
        server.kill()
        server.wait(timeout=30)
    assert "html" in inside, inside
    for answer in (outside, linked):
        assert "outside the workspace" in answer["error"], answer
    assert (tmp_path / "token").read_text("ascii").strip() == TOKEN
    assert (tmp_path / "token").stat().st_mode & 0o777 == 0o600
