"""A real `m2lsp web` server (uvicorn on 127.0.0.1) killed with SIGKILL right after it
acknowledged a save: the acknowledged content is on disk, the layer whole."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("starlette")
httpx = pytest.importorskip("httpx2")

from m2lsp.parsing.m2 import parse_m2  # noqa: E402
from tests.conftest import ROOT  # noqa: E402
from tests.web.project import password, team  # noqa: E402


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _started(port: int, server: subprocess.Popen) -> httpx.Client:
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
    for _ in range(200):
        if server.poll() is not None:
            pytest.fail(f"the server ended: {server.stderr.read() if server.stderr else ''}")
        try:
            client.get("/api/me")
            return client
        except httpx.TransportError:
            time.sleep(0.05)
    pytest.fail("the server did not start")


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_an_acknowledged_save_survives_kill_9(tmp_path):
    root = team(tmp_path).root
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # --no-types: the server up in a moment, without loading a spaCy pipeline
    server = subprocess.Popen([sys.executable, "-m", "m2lsp", "web", str(root), "--no-types",
                               "--port", str(port)], env=env, stderr=subprocess.PIPE, text=True)
    try:
        client = _started(port, server)
        csrf = client.post("/login", json={"name": "ann",
                                           "password": password("ann")}).json()["csrf"]
        client.headers["X-CSRF-Token"] = csrf
        acknowledged = []
        for n, word in enumerate(["is", "was", "be"] * 3):
            number = n % 2 + 1
            version = client.get(f"/api/sentences/{number}").json()["version"]
            line = f"A 1 2|||R:VERB|||{word}|||REQUIRED|||-NONE-|||0"
            answer = client.put(f"/api/sentences/{number}",
                                json={"version": version, "edits": [line]})
            assert answer.status_code == 200
            acknowledged.append((number, line))
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
    blocks = parse_m2((root / "layers/ann.m2").read_text()).blocks
    assert len(blocks) == 3
    last = dict(acknowledged)
    for number, line in last.items():
        assert [e.text.rstrip() for e in blocks[number - 1].edits] == [line]


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM")
def test_a_stopped_server_ends_with_pages_still_listening(tmp_path):
    """A page's live updates never end by themselves: a server told to stop (SIGTERM, as
    Ctrl+C or a service manager does) closes them after a few seconds, not never."""
    import threading

    from m2lsp.cli.web import STOPPING

    root = team(tmp_path).root
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-m", "m2lsp", "web", str(root), "--no-types",
                               "--port", str(port)], env=env, stderr=subprocess.PIPE, text=True)
    listening = threading.Event()

    def listen(client: httpx.Client) -> None:
        try:
            with client.stream("GET", "/api/events", timeout=None) as stream:
                listening.set()
                for _ in stream.iter_bytes():
                    pass
        except httpx.HTTPError:
            pass

    try:
        client = _started(port, server)
        client.post("/login", json={"name": "ann", "password": password("ann")})
        threading.Thread(target=listen, args=(client,), daemon=True).start()
        assert listening.wait(10)
        os.kill(server.pid, signal.SIGTERM)
        server.wait(STOPPING + 10)  # TimeoutExpired: it waited for the page
        said = server.stderr.read() if server.stderr else ""
        assert said.startswith("m2lsp: serving") and "ERROR" not in said, said
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
