"""Every extra installs together, and in any order: pip's resolver (`--dry-run`, the
package index) finds one set of versions for `m2lsp[all]`, and installing `[evaluate]` into
an environment that has `[neural]` (this one) keeps huggingface-hub where transformers
accepts it (it took a 1.x that transformers 4.x refuses, and the learned metrics broke)."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from importlib import metadata

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from tests.conftest import ROOT

USER_EXTRAS = {"errant", "zh", "report", "dask", "meta-eval", "evaluate", "multigec",
               "neural", "web"}


def test_all_names_every_user_extra() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"][
        "optional-dependencies"]
    assert set(extras) - {"all", "test", "docs"} == USER_EXTRAS
    (everything,) = extras["all"]
    assert set(Requirement(everything).extras) == USER_EXTRAS


def _resolved(*requirements: str) -> dict[str, str]:
    """What pip would install for the requirements here (name: version), by its resolver
    over the package index, nothing installed."""
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--quiet",
                           "--report", "-", "--disable-pip-version-check", *requirements],
                          capture_output=True, text=True, cwd=ROOT, timeout=900)
    if done.returncode and ("Could not fetch" in done.stderr or "NewConnectionError"
                            in done.stderr or "No matching distribution" in done.stderr):
        pytest.skip(f"the package index cannot be reached: {done.stderr.strip()[-300:]}")
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    return {item["metadata"]["name"].lower().replace("_", "-"): item["metadata"]["version"]
            for item in report["install"]}


# nightly: a resolution against the package index (a minute of CI); its answer changes with
# the index and pyproject.toml, not with the code: `pytest -m nightly` before a release
@pytest.mark.nightly
@pytest.mark.slow
def test_every_extra_resolves_together() -> None:
    found = _resolved("--ignore-installed", ".[all]")
    assert {"errant", "pypinyin", "jinja2", "distributed", "trueskill", "evaluate",
            "syntok", "torch", "transformers"} <= set(found)
    assert Version(found["huggingface-hub"]) < Version("1")


# nightly: as the test above
@pytest.mark.nightly
@pytest.mark.slow
def test_evaluate_alone_keeps_huggingface_hub_for_transformers() -> None:
    """`[evaluate]` resolved on its own (what it brings into an environment that has
    `[neural]`): its datasets would take huggingface-hub 2.x, which transformers 4.x
    refuses; the extra holds it where transformers wants it."""
    pytest.importorskip("transformers")
    found = _resolved("--ignore-installed", ".[evaluate]")
    wanted = next(Requirement(r) for r in metadata.requires("transformers") or []
                  if Requirement(r).name == "huggingface-hub" and not Requirement(r).marker)
    assert Version(found["huggingface-hub"]) in wanted.specifier, (found, str(wanted))
