"""A Chinese project in the annotator's page: its tokens are characters, the corrected
sentence is shown and typed as Chinese is written (without spaces) and aligned character
by character, the
types offered are ChERRANT's, and characters are split from a token but never joined."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from m2lsp.web.accounts import add_user
from m2lsp.web.app import build_app
from m2lsp.web.assignments import assign
from m2lsp.web.db import connect
from m2lsp.web.project import add_layer, init_project

SENTENCE = list("我喜欢吃平果。")
WHOLE = ["他", "说", "OK吧", "。"]  # a token a tokeniser left whole


@pytest.fixture
def ann(tmp_path):
    project = init_project(tmp_path / "zh", [SENTENCE, WHOLE], "zh")
    db = connect(project.database)
    add_user(db, "ann", "annotator", "annann-pw")
    add_layer(project, "ann")
    assign(db, project, {"user": "ann", "first": 1, "last": 2})
    db.close()
    client = TestClient(build_app(project.root))
    answer = client.post("/login", json={"name": "ann", "password": "annann-pw"})
    client.headers["X-CSRF-Token"] = answer.json()["csrf"]
    return client


# (what, the corrected sentence typed, the edits' spans and corrections)
CORRECTED = [
    ("a character replaced", "我喜欢吃苹果。", [(4, 5, "苹")]),
    ("a character inserted", "我喜欢吃了平果。", [(4, 4, "了")]),
    ("a character deleted", "我喜吃平果。", [(2, 3, "")]),
    ("two apart", "我喜欢吃苹果！", [(4, 5, "苹"), (6, 7, "！")]),
    ("typed with spaces as shown", "我 喜 欢 吃 苹 果 。", [(4, 5, "苹")]),
]


@pytest.mark.parametrize(("typed", "edits"), [c[1:] for c in CORRECTED],
                         ids=[c[0] for c in CORRECTED])
def test_a_typed_correction_is_aligned_character_by_character(ann, typed, edits):
    shown = ann.get("/api/sentences/1").json()
    assert shown["tokens"] == SENTENCE and shown["corrected"] == "我喜欢吃平果。"
    saved = ann.put("/api/sentences/1", json={"version": shown["version"],
                                               "corrected": typed})
    assert saved.status_code == 200, saved.text
    assert [(r["start"], r["end"], r["correction"]) for r in saved.json()["changes"]] == edits
    assert saved.json()["corrected"] == "".join(typed.split())  # as it is written


def test_the_types_offered_are_cherrants(ann):
    assert ann.get("/api/types").json()["taxonomy"].startswith("ChERRANT")


def test_a_token_is_split_into_characters_but_characters_are_never_joined(ann):
    version = ann.get("/api/sentences/2").json()["version"]
    split = ann.post("/api/sentences/2/split", json={"version": version, "token": 2,
                                                       "pieces": "O K 吧"})
    assert split.status_code == 200, split.text
    assert split.json()["tokens"] == ["他", "说", "O", "K", "吧", "。"]
    joined = ann.post("/api/sentences/2/join", json={"version": split.json()["version"],
                                                       "start": 0, "end": 2})
    assert joined.status_code == 400 and "characters" in joined.json()["error"]
