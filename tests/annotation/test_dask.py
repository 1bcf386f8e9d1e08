"""`annotate --scheduler`: a local Dask cluster on loopback (two worker processes, one
thread each) writes what one process writes; a scheduler that is not there is a clear
error."""

from __future__ import annotations

import os

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
