"""The server types what it aligns with the engine `m2lsp annotate` uses (ERRANT over a
spaCy pipeline for English), loaded once when it starts: a corrected sentence saved, an
edit added for selected tokens, a system's output loaded as suggestions.  Where the engine
cannot be loaded, the edits come typed UNK, the linter says so, and the log says why."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from m2lsp.errors import M2lspError
from m2lsp.web.app import build_app
from tests.web.project import Team, _made


def _english() -> None:
    """Skip without ERRANT and an English spaCy pipeline."""
    pytest.importorskip("errant", reason="ERRANT comes with m2lsp[errant]")
    from m2lsp.annotation.pipelines import resolve

    try:
        resolve(None)
    except M2lspError as exc:
        pytest.skip(f"no English spaCy pipeline: {exc}")


@pytest.fixture(scope="module")
def typed(tmp_path_factory) -> Team:
    """The test project served with ERRANT's types (one pipeline load for the module)."""
    _english()
    root = tmp_path_factory.mktemp("typed") / "project"
    shutil.copytree(_made(), root)
    return Team(root, build_app(root))


@pytest.mark.slow
@pytest.mark.parametrize(("number", "corrected", "edits"), [
    (2, "He goes home .", ["A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0"]),
    (1, "This is a test .", ["A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0"]),
    (1, "This is the test .", ["A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0",
                               "A 2 3|||R:DET|||the|||REQUIRED|||-NONE-|||0"]),
])
def test_a_saved_correction_is_typed_by_errant(typed, number, corrected, edits):
    bob = typed.client("bob")
    version = bob.get(f"/api/sentences/{number}").json()["version"]
    answer = bob.put(f"/api/sentences/{number}", json={"version": version,
                                                       "corrected": corrected})
    assert answer.status_code == 200, answer.text
    assert answer.json()["edits"] == edits
    assert [f["code"] for f in answer.json()["findings"]] == []  # no UNK to flag


@pytest.mark.slow
def test_an_added_edit_and_a_suggestion_are_typed_by_errant(typed):
    ann = typed.client("ann")
    version = ann.get("/api/sentences/2").json()["version"]
    added = ann.post("/api/sentences/2/edits", json={"version": version, "start": 1,
                                                     "end": 2, "correction": "goes"})
    assert added.status_code == 200, added.text
    assert added.json()["edits"] == ["A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0"]
    loaded = typed.client("boss").post("/api/suggestions", json={
        "name": "sys", "format": "text",
        "text": "This is a test .\nHe went home .\nShe likes cats .\n"})
    assert loaded.status_code == 201, loaded.text
    offered = typed.client("bob").get("/api/suggestions/3").json()["suggestions"]
    assert [(s["correction"], s["type"]) for s in offered] == [("likes", "R:VERB:SVA")]


def test_without_an_engine_the_edits_are_unk_and_the_log_says_why(tmp_path, caplog):
    root = tmp_path / "project"
    shutil.copytree(_made(), root)
    Path(tmp_path / "pyproject.toml").write_text(
        '[tool.m2lsp]\nspacy-model = "no_such_pipeline"\n', encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        site = Team(root, build_app(root))
    assert "typed UNK" in caplog.text
    ann = site.client("ann")
    version = ann.get("/api/sentences/2").json()["version"]
    answer = ann.put("/api/sentences/2", json={"version": version,
                                               "corrected": "He goes home ."})
    assert answer.json()["edits"] == ["A 1 2|||UNK|||goes|||REQUIRED|||-NONE-|||0"]
    assert "M407" in [f["code"] for f in answer.json()["findings"]]


@pytest.mark.slow
def test_a_system_output_is_typed_in_one_batch_as_one_sentence_at_a_time(typed):
    from m2lsp.authoring.edits import realigned
    from m2lsp.parsing.m2 import parse_m2
    from m2lsp.web.suggestions import _by_errant

    engines = typed.app.state.site.project.engines
    sources = ["He go home .", "She like cats .", "This are a test .", "We met yesterday ."]
    outputs = ["He goes home .", "She likes a cats.", "This is the exam !",
               "We met yesterday ."]
    blocks = parse_m2("".join(f"S {s}\n\n" for s in sources)).blocks
    one_by_one = [[x for x in realigned(b, "0", o, engines).lines if "|||noop|||" not in x]
                  for b, o in zip(blocks, outputs, strict=True)]
    assert _by_errant(blocks, outputs, engines) == one_by_one
    assert one_by_one[3] == [] and len(one_by_one[2]) == 4


def test_the_server_says_what_types_the_edits_when_it_starts(tmp_path):
    from m2lsp.annotation.from_correction import Engines
    from m2lsp.web.engines import described

    class English:
        model = "en_pipeline"

    assert described(Engines()) == "UNK, for the annotators to type"
    assert described(Engines(english=English)) == "ERRANT over en_pipeline"
