"""`m2lsp serve --tcp HOST:PORT`: the same server over a socket (for debugging)."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys

import pytest
from lsprotocol import types
from pygls.lsp.client import LanguageClient


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def hover_over_tcp(port: int) -> types.Hover | None:
    client = LanguageClient("m2lsp-test", "1")
    async with asyncio.timeout(30):
        while True:
            try:
                await client.start_tcp("127.0.0.1", port)
                break
            except OSError:  # not listening yet
                await asyncio.sleep(0.1)
        await client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities()))
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
    server = subprocess.Popen([sys.executable, "-m", "m2lsp", "serve", "--tcp",
                               f"127.0.0.1:{port}"], stderr=subprocess.PIPE)
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
