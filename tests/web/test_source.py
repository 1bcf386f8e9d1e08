"""POST /api/source: a manager makes a project's sentences in the page, from raw sentences
(one a line, tokenised as `m2lsp skeleton` tokenises them, or tokenised already) or an M2
file's S lines, as `m2lsp web init --from` takes them; once only, into a project made
without sentences (`m2lsp web init PROJECT`)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")

from m2lsp.cli import main
from m2lsp.web.accounts import add_user
from m2lsp.web.app import build_app
from m2lsp.web.db import connect
from m2lsp.web.project import add_layer, open_project
from tests.web.project import PEOPLE, Team, password, team

RAW = "He go home .\n\n  She like cats .  \n"
EDITED = "S He go home .\nA 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n\n"


def empty(tmp_path: Path) -> Team:
    """A project made by `m2lsp web init PROJECT` (no --from), its people added."""
    root = tmp_path / "empty"
    assert main(["web", "init", str(root)]) == 0
    assert (root / "source.m2").read_text() == ""
    project, db = open_project(root), connect(root / "m2lsp-web.sqlite3")
    for name, role in PEOPLE.items():
        add_user(db, name, role, password(name))
        if role == "annotator":
            add_layer(project, name)
    db.close()
    return Team(root, build_app(root))


def test_a_manager_loads_raw_sentences_and_assigns_them(tmp_path):
    site = empty(tmp_path)
    boss = site.client("boss")
    assert boss.get("/api/progress").json()["sentences"] == 0
    answer = boss.post("/api/source", json={"text": RAW, "tokenised": True})
    assert answer.status_code == 201, answer.text
    assert answer.json()["sentences"] == 2
    assert answer.json()["skipped"].startswith("a blank line was skipped")
    made = "S He go home .\n\nS She like cats .\n\n"
    assert (site.root / "source.m2").read_text() == made
    for name in ("ann", "bob"):
        assert (site.root / f"layers/{name}.m2").read_text() == made
    assert main(["check", str(site.root / "source.m2")]) == 0
    assert boss.get("/api/progress").json()["sentences"] == 2
    assert boss.post("/api/assignments", json={"user": "ann", "first": 1, "last": 2}
                     ).status_code == 201
    assert [s["text"] for s in site.client("ann").get("/api/sentences").json()["sentences"]] \
        == ["He go home .", "She like cats ."]


def test_an_m2_file_gives_its_sentences_as_web_init_takes_them(tmp_path):
    site = empty(tmp_path)
    answer = site.client("boss").post("/api/source", json={"text": EDITED + "S Yes .\n"})
    assert answer.status_code == 201, answer.text
    assert (site.root / "source.m2").read_text() == "S He go home .\n\nS Yes .\n\n"


@pytest.mark.slow  # loads the spaCy pipeline
def test_raw_sentences_are_tokenised_as_m2lsp_skeleton_tokenises_them(tmp_path, capsys):
    pytest.importorskip("spacy")
    raw = tmp_path / "raw.txt"
    raw.write_text("He didn't go home.\nShe likes cats, dogs.\n")
    capsys.readouterr()
    if main(["skeleton", str(raw)]) != 0:
        pytest.skip("no spaCy pipeline for English")
    printed = capsys.readouterr().out
    site = empty(tmp_path)
    answer = site.client("boss").post("/api/source", json={"text": raw.read_text()})
    assert answer.status_code == 201, answer.text
    assert (site.root / "source.m2").read_text() == printed
    assert "S He did n't go home .\n" in printed


def _layer_with_an_edit(root: Path) -> None:
    (root / "layers/ann.m2").write_text(EDITED)


def _gold(root: Path) -> None:
    (root / "gold.m2").write_text("")


# (what the project holds, the body, what the refusal says)
REFUSED = [
    ("sentences already", None, {"text": RAW}, "has its sentences"),
    ("a layer with an edit", _layer_with_an_edit, {"text": RAW}, "layers/ann.m2 has edits"),
    ("a gold", _gold, {"text": RAW}, "gold.m2"),
    ("no sentence in the text", None, {"text": "\n  \n"}, "no sentence"),
    ("no text", None, {"sentences": ["a"]}, "text"),
    ("tokenised not a boolean", None, {"text": RAW, "tokenised": "yes"}, "tokenised"),
    ("not an object", None, ["He go home ."], "text"),
]


@pytest.mark.parametrize(("case", "given", "body", "said"), REFUSED,
                         ids=[c[0] for c in REFUSED])
def test_a_source_that_cannot_be_loaded_is_refused_and_nothing_changes(tmp_path, case, given,
                                                                      body, said):
    site = team(tmp_path) if case == "sentences already" else empty(tmp_path)
    if given is not None:
        given(site.root)
    boss = site.client("boss")
    before = site.state()
    answer = boss.post("/api/source", json=body)
    assert answer.status_code == 400 and said in answer.json()["error"], answer.text
    assert site.state() == before


def test_the_other_pages_hear_of_the_sentences(tmp_path):
    site = empty(tmp_path)
    hub = site.app.state.site.events
    with hub.listening("cur", "curator") as curator, hub.listening("ann", "annotator") as ann:
        assert site.client("boss").post("/api/source", json={"text": RAW, "tokenised": True}
                                        ).status_code == 201
        heard = [curator.queue.get_nowait() for _ in range(curator.queue.qsize())]
        assert [(e.kind, e.data) for e in heard] == [("source", {"sentences": 2})]
        assert ann.queue.qsize() == 1


def test_two_loads_at_once_make_one_source(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    from m2lsp.errors import UsageError
    from m2lsp.web.source import load

    site = empty(tmp_path)
    project = open_project(site.root)
    bodies = [{"text": f"Load {n} .\n", "tokenised": True} for n in range(4)]

    def loading(body):
        try:
            return load(project, body)
        except UsageError:
            return None

    with ThreadPoolExecutor(4) as pool:
        made = list(pool.map(loading, bodies))
    loaded = {"sentences": 1, "skipped": ""}
    assert made.count(loaded) == 1 and made.count(None) == 3
    won = made.index(loaded)
    for path in ("source.m2", "layers/ann.m2", "layers/bob.m2"):
        assert (site.root / path).read_text() == f"S Load {won} .\n\n"


@pytest.mark.parametrize(("text", "said"), [
    ("He go home .\n\nShe like cats .\n", "a blank line was skipped: sentence numbers count"),
    ("\nHe go home .\n \n\nShe like cats .\n", "3 blank lines were skipped"),
])
def test_blank_lines_skipped_are_said(tmp_path, capsys, text, said):
    """Sentence numbers count the non-blank lines: a manager whose file has blank lines is
    told, in the page and by `web init --from`."""
    answer = empty(tmp_path / "page").client("boss").post(
        "/api/source", json={"text": text, "tokenised": True})
    assert answer.status_code == 201 and answer.json()["sentences"] == 2
    assert answer.json()["skipped"].startswith(said)
    raw = tmp_path / "raw.txt"
    raw.write_text(text, encoding="utf-8")
    assert main(["web", "init", str(tmp_path / "cli"), "--from", str(raw), "--no-tok"]) == 0
    assert f"m2lsp: {said}" in capsys.readouterr().err
