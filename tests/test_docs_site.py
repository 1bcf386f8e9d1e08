"""The documentation site: `mkdocs build --strict` passes (every link and anchor checked),
its pages cover what a newcomer needs, every metric's options are on a page (generated from
the command line's parser: docs/hooks.py), and the README stays a short front door."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import yaml

from m2lsp.scoring.metric import declared, names
from tests.conftest import ROOT

PAGES = ("index.md", "annotating.md", "checking.md", "rules.md", "scoring/index.md",
         "learned.md", "languages.md", "formats.md", "editors.md", "api.md", "reference.md",
         "meta-eval.md", "benchmarks.md", "reliability.md")


def _nav() -> list[str]:
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text("utf-8"), Loader=Loader)
    found: list[str] = []

    def walk(item: object) -> None:
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            for value in item.values():
                walk(value)
        elif isinstance(item, list):
            for value in item:
                walk(value)
    walk(config["nav"])
    return found


def test_the_site_has_the_pages_a_newcomer_needs() -> None:
    nav = _nav()
    assert set(PAGES) <= set(nav) and len(nav) >= 10
    assert all((ROOT / "docs" / page).is_file() for page in nav)


def test_every_metrics_options_are_on_a_page() -> None:
    text = "\n".join(p.read_text("utf-8") for p in (ROOT / "docs").rglob("*.md"))
    placed = set(re.findall(r"<!-- options: ([a-z0-9-]+) -->", text))
    assert {n for n in names() if declared(n).flags} | {"common"} <= placed


# the submodules docs/api.md documents as public beside `m2lsp.__all__`
SUBMODULES = ("m2lsp.trainer", "m2lsp.metrics")


def test_the_reference_renders_the_submodules_the_docs_document() -> None:
    api = (ROOT / "docs" / "api.md").read_text("utf-8")
    reference = (ROOT / "docs" / "reference.md").read_text("utf-8")
    for module in SUBMODULES:
        assert f"`{module}`" in api and f"::: {module}\n" in reference
    assert "postprocess=tokenise" in api  # the trainer's hook, with an example


def test_the_readme_is_a_front_door() -> None:
    lines = (ROOT / "README.md").read_text("utf-8").splitlines()
    assert len(lines) <= 200
    assert any("pip install" in line for line in lines[:30])


@pytest.mark.slow
def test_the_site_builds_strict(tmp_path) -> None:
    pytest.importorskip("mkdocs", reason="the docs extra: pip install 'm2lsp[docs]'")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d",
                           str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    page = (tmp_path / "site" / "learned" / "index.html").read_text("utf-8")
    assert "--impara-model-qe" in page and "<!-- options" not in page
    reference = (tmp_path / "site" / "reference" / "index.html").read_text("utf-8")
    assert "Scorer" in reference and "score" in reference
    for module in SUBMODULES:  # rendered, not only named
        assert f'id="{module}"' in reference
    assert "postprocess" in reference and "corpus_score" in reference
    api = (tmp_path / "site" / "api" / "index.html").read_text("utf-8")
    assert "postprocess=tokenise" in re.sub(r"<[^>]+>", "", api)  # (highlighted code)


def test_next_to_all_the_install_lines_say_how_to_get_a_cpu_only_torch() -> None:
    """`[all]` installed 6.3 GB of CUDA wheels on a machine without a GPU."""
    cpu = "pip install torch --index-url https://download.pytorch.org/whl/cpu"
    for page in (ROOT / "README.md", ROOT / "docs" / "index.md"):
        text = page.read_text("utf-8")
        at = text.index("`all`" if page.name == "README.md" else "m2lsp[all]")
        assert cpu in text[at:at + 700], page
