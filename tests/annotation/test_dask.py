"""`annotate --scheduler`: a local Dask cluster on loopback (two worker processes, one
thread each) writes what one process writes; a scheduler that is not there is a clear
error."""

from __future__ import annotations

import os
import struct
import threading

import pytest

from tests.annotation.conftest import m2lsp, spacy_model
from tests.conftest import shared

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """Two workers whose annotation cache starts empty."""
    spacy_model()
    cache = tmp_path_factory.mktemp("worker-cache")
    old = os.environ.get("M2LSP_CACHE_DIR")
    os.environ["M2LSP_CACHE_DIR"] = str(cache)  # the workers inherit it
    try:
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      host="127.0.0.1", dashboard_address=None) as local:
            yield local
    finally:
        if old is None:
            os.environ.pop("M2LSP_CACHE_DIR", None)
        else:
            os.environ["M2LSP_CACHE_DIR"] = old


@pytest.mark.slow
def test_same_as_one_process(cluster, tmp_path) -> None:
    model = spacy_model()
    gold = shared("conll2014/gold/official-2014.combined.m2")
    sources = [line[2:] for line in gold.read_text("utf-8").splitlines() if line[:2] == "S "]
    camb = shared("conll2014/systems/CAMB").read_text("utf-8").splitlines()
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("".join(f"{s}\t{c}\n" for s, c in list(zip(sources, camb, strict=True))[:700]),
                     encoding="utf-8")
    local = {**os.environ, "M2LSP_CACHE_DIR": str(tmp_path / "local-cache")}
    alone = m2lsp("annotate", "--pairs", str(pairs), "--spacy-model", model, "--jobs", "1",
                  env=local)
    assert alone.returncode == 0, alone.stderr
    client_cache = {**os.environ, "M2LSP_CACHE_DIR": str(tmp_path / "client-cache")}
    out = tmp_path / "out.m2"
    spread = m2lsp("annotate", "--pairs", str(pairs), "--spacy-model", model, "-o", str(out),
                   "--scheduler", cluster.scheduler_address, env=client_cache)
    assert spread.returncode == 0, spread.stderr
    assert out.read_text("utf-8") == alone.stdout
    assert alone.stdout.count("\nA ") > 100


def test_no_scheduler(tmp_path) -> None:
    spacy_model()
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("a b\ta c\n", encoding="utf-8")
    done = m2lsp("annotate", "--pairs", str(pairs), "--scheduler", "tcp://127.0.0.1:9",
                 "--scheduler-timeout", "2",
                 env={**os.environ, "M2LSP_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in done.stderr


class Peer:
    """A TCP service on loopback that is not a Dask scheduler: `http` (answers only when
    asked, as an HTTP server does), `silent` (accepts and says nothing), `banner` (speaks
    first, as SSH does), `half` (the 8 bytes of a handshake's size, then nothing) or
    `zeros` (zero bytes without end)."""

    def __init__(self, kind: str) -> None:
        import socket

        self.kind = kind
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.held: list = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                link, _ = self.server.accept()
            except OSError:
                return
            self.held.append(link)
            if self.kind == "banner":
                link.sendall(b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n")
            elif self.kind == "half":
                link.sendall(struct.pack("<Q", 200))
            elif self.kind == "zeros":
                threading.Thread(target=self._flood, args=(link,), daemon=True).start()
            elif self.kind == "http":
                link.settimeout(60)
                try:
                    if link.recv(4096):  # a request: an answer
                        link.sendall(b"HTTP/1.0 400 Bad Request\r\n\r\n")
                except OSError:
                    pass

    @staticmethod
    def _flood(link) -> None:
        try:
            while True:
                link.sendall(bytes(1 << 16))
        except OSError:
            pass

    def close(self) -> None:
        self.server.close()
        for link in self.held:
            link.close()


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "said"), [
    ("http", "no Dask scheduler answered at tcp://127.0.0.1:{port} within 3 s"),
    ("silent", "no Dask scheduler answered at tcp://127.0.0.1:{port} within 3 s"),
    ("banner", "tcp://127.0.0.1:{port} answered, but not as a Dask scheduler (it began "
               "b'SSH-2.0-'"),
    ("half", "no Dask scheduler answered at tcp://127.0.0.1:{port} within 3 s"),
    ("zeros", "tcp://127.0.0.1:{port} answered, but not as a Dask scheduler"),
])
def test_the_timeout_bounds_the_handshake(tmp_path, kind, said) -> None:
    """Against an HTTP server it printed nothing and still ran after 200 s; a banner gave
    a traceback (2.82 EiB to allocate).  Now: exit 2 within the timeout, one line."""
    import time

    peer = Peer(kind)
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("a b\ta c\n", encoding="utf-8")
    began = time.monotonic()
    try:
        done = m2lsp("annotate", "--pairs", str(pairs), "--scheduler",
                     f"tcp://127.0.0.1:{peer.port}", "--scheduler-timeout", "3",
                     env={**os.environ, "M2LSP_CACHE_DIR": str(tmp_path / "cache")})
    finally:
        peer.close()
    assert time.monotonic() - began < 3 + 30  # the timeout, and the command's start-up
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    said_lines = [line for line in done.stderr.splitlines() if not line.startswith(
        "m2lsp: note:")]  # (which pipeline, when the address is checked after it loads)
    assert len(said_lines) == 1
    assert said.format(port=peer.port) in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("address", ["garbage://x", "tcp://", "tcp://host", "tcp://h:99999",
                                     "http://127.0.0.1:8787/status"])
def test_the_address_is_checked_before_the_cache(tmp_path, address) -> None:
    """A run whose every block is cached never asked the scheduler: `garbage://x` exited
    0.  The address is checked first."""
    cache = {**os.environ, "M2LSP_CACHE_DIR": str(tmp_path / "cache")}
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("a b\ta c\n", encoding="utf-8")
    model = spacy_model()
    assert m2lsp("annotate", "--pairs", str(pairs), "--spacy-model", model,
                 env=cache).returncode == 0  # now every block is cached
    done = m2lsp("annotate", "--pairs", str(pairs), "--spacy-model", model, "--scheduler",
                 address, env=cache)
    assert done.returncode == 2, done.stderr
    assert "is not a scheduler address: give tcp://HOST:PORT" in done.stderr
