"""What the pages ask of the server beyond the JSON API, driven in process: the page and
its bundle (served from the package, nothing from the network), a sentence as the page
shows it (the corrected text, the edits as rows with the types that fit first), an edit's
type set by hand, notes and "unsure" kept beside the layer as `m2lsp note` keeps them, and
the curator's overview (open first) and side-by-side sentence."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("starlette")

from m2lsp.cli import main
from tests.web.project import team


@pytest.fixture
def site(tmp_path):
    return team(tmp_path)


def _corrected(client, number, text):
    version = client.get(f"/api/sentences/{number}").json()["version"]
    answer = client.put(f"/api/sentences/{number}", json={"version": version,
                                                          "corrected": text})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_the_page_and_its_bundle_are_served_without_a_session(site):
    client = site.client()
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for name, kind in (("app.js", "javascript"), ("app.css", "css")):
        asset = client.get(f"/static/{name}")
        assert asset.status_code == 200 and kind in asset.headers["content-type"]
    # nothing is fetched from elsewhere: no absolute URL in the page or its bundle
    for text in (page.text, client.get("/static/app.js").text,
                 client.get("/static/app.css").text):
        assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/", text)
    assert client.get("/static/../project.toml").status_code == 404


def test_a_sentence_shows_its_correction_and_edits_as_rows(site):
    ann = site.client("ann")
    shown = ann.get("/api/sentences/1").json()
    assert shown["corrected"] == "This are a test ." and shown["changes"] == []
    shown = _corrected(ann, 1, "This is a test")
    assert shown["corrected"] == "This is a test"
    rows = [(r["start"], r["end"], r["original"], r["correction"]) for r in shown["changes"]]
    assert rows == [(1, 2, "are", "is"), (4, 5, ".", "")]
    replaced, deleted = shown["changes"]
    assert replaced["fit"][0].startswith("R:") and all(t.startswith("U:")
                                                       for t in deleted["fit"])
    inserted = _corrected(ann, 1, "This are a good test .")["changes"][0]
    assert inserted["original"] == "" and inserted["fit"][0].startswith("M:")
    assert _corrected(ann, 1, "This are a test .")["changes"][0]["noop"] is True


@pytest.mark.parametrize(("path", "body", "said"), [
    ("type", {"edit": 0, "type": "NOT:A:TYPE"}, "types"),
    ("type", {"edit": 5, "type": "R:VERB:SVA"}, "index"),
    ("type", {"edit": "0", "type": "R:VERB:SVA"}, "index"),
    ("type", {"edit": 0, "type": "noop"}, "types"),
    ("required", {"edit": 0, "required": "no"}, "required (true or false)"),
    ("required", {"edit": 0}, "required (true or false)"),
    ("required", {"edit": 7, "required": False}, "index"),
])
def test_a_retype_or_a_required_flag_that_is_not_one_is_refused(site, path, body, said):
    ann = site.client("ann")
    version = _corrected(ann, 1, "This is a test .")["version"]
    before = (site.root / "layers/ann.m2").read_bytes()
    answer = ann.post(f"/api/sentences/1/{path}", json={"version": version, **body})
    assert answer.status_code == 400 and said in answer.json()["error"]
    assert (site.root / "layers/ann.m2").read_bytes() == before


@pytest.mark.parametrize(("required", "field"), [(False, "OPTIONAL"), (True, "REQUIRED")])
def test_an_edit_is_made_optional_or_required(site, required, field):
    ann = site.client("ann")
    version = _corrected(ann, 1, "This is a test .")["version"]
    if required:  # back from OPTIONAL
        version = ann.post("/api/sentences/1/required", json={
            "version": version, "edit": 0, "required": False}).json()["version"]
    answer = ann.post("/api/sentences/1/required", json={"version": version, "edit": 0,
                                                          "required": required})
    assert answer.status_code == 200, answer.text
    assert answer.json()["changes"][0]["required"] == field
    assert f"|||{field}|||" in (site.root / "layers/ann.m2").read_text(encoding="utf-8")
    assert main(["check", str(site.root / "layers/ann.m2"), "--select", "M1"]) == 0


def test_a_type_set_by_hand_is_kept_when_the_correction_changes(site):
    ann = site.client("ann")
    version = _corrected(ann, 1, "This is a test .")["version"]
    answer = ann.post("/api/sentences/1/type", json={"version": version, "edit": 0,
                                                      "type": "R:VERB:SVA"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["changes"][0]["type"] == "R:VERB:SVA"
    stale = ann.post("/api/sentences/1/type", json={"version": version, "edit": 0,
                                                     "type": "R:VERB"})
    assert stale.status_code == 409
    again = _corrected(ann, 1, "This is a good test .")
    assert next(r["type"] for r in again["changes"]) == "R:VERB:SVA"
    assert main(["check", str(site.root / "layers/ann.m2"), "--select", "M1"]) == 0


def test_notes_are_kept_beside_the_layer_as_m2lsp_note_keeps_them(site, capsys):
    ann = site.client("ann")
    _corrected(ann, 2, "He goes home .")
    on_sentence = ann.post("/api/sentences/2/notes", json={"text": "tense?", "unsure": True})
    assert on_sentence.status_code == 200, on_sentence.text
    on_edit = ann.post("/api/sentences/2/notes", json={"text": "or went", "edit": 0})
    assert [(n["text"], n["unsure"], n["edit"]) for n in on_edit.json()["notes"]] == [
        ("tense?", True, None), ("or went", False, "1 2|||UNK|||goes")]
    # the edit noted, as the pages show an edit
    assert [n["change"] for n in on_edit.json()["notes"]] == [None, {
        "key": "1 2|||UNK|||goes", "start": 1, "end": 2, "type": "UNK", "original": "go",
        "correction": "goes", "required": True}]
    assert ann.get("/api/sentences/2").json()["notes"][1]["text"] == "or went"
    # the edit typed (UNK no more): the note stays on it, shown with its type now, and
    # check finds no orphaned note
    version = ann.get("/api/sentences/2").json()["version"]
    assert ann.post("/api/sentences/2/type", json={"version": version, "edit": 0,
                                                   "type": "R:VERB:SVA"}).status_code == 200
    assert ann.get("/api/sentences/2").json()["notes"][1]["change"]["type"] == "R:VERB:SVA"
    capsys.readouterr()
    assert main(["check", str(site.root / "layers/ann.m2"), "--select", "N002"]) == 0
    _corrected(ann, 2, "He went home .")  # another correction: another edit, the note left
    assert main(["check", str(site.root / "layers/ann.m2"), "--select", "N002"]) == 1
    assert ann.get("/api/sentences/2").json()["notes"][1]["change"]["correction"] == "goes"
    _corrected(ann, 2, "He goes home .")
    assert ann.post("/api/sentences/2/notes", json={"text": " "}).status_code == 400
    assert site.client("bob").get("/api/sentences/2/notes").json()["notes"] == []
    capsys.readouterr()
    assert main(["note", str(site.root / "layers/ann.m2")]) == 0
    listed = capsys.readouterr().out
    assert "sentence 2: ann [unsure]: tense?" in listed and "or went" in listed


SVA = "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0"
NOOP = "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"


@pytest.mark.parametrize(("lines", "code", "after"), [
    ([SVA.replace("|||goes|||", "|||goes |||")], "M404", [SVA]),  # safe
    ([SVA, SVA], "M402", [SVA]),  # the duplicate line removed
    ([SVA, NOOP], "M201", [SVA]),  # the noop beside an edit removed
    ([SVA.replace("R:VERB:SVA|||goes", "U:VERB|||goes")], "M409",  # to be checked
     [SVA.replace("R:VERB:SVA", "R:VERB")]),
])
def test_a_finding_s_quick_fix_is_applied_and_saved(site, lines, code, after):
    ann = site.client("ann")
    version = ann.get("/api/sentences/2").json()["version"]
    shown = ann.put("/api/sentences/2", json={"version": version, "edits": lines}).json()
    index = next(k for k, f in enumerate(shown["findings"]) if f["code"] == code)
    assert shown["findings"][index]["fix"]
    assert shown["findings"][index]["safe"] is (code != "M409")
    assert shown["findings"][index]["severity"] in ("error", "warning", "info", "hint")
    fixed = ann.post("/api/sentences/2/fix", json={"version": shown["version"],
                                                   "finding": index})
    assert fixed.status_code == 200, fixed.text
    assert fixed.json()["edits"] == after
    assert code not in [f["code"] for f in fixed.json()["findings"]]
    assert fixed.json()["version"] != shown["version"]
    stale = ann.post("/api/sentences/2/fix", json={"version": shown["version"],
                                                   "finding": index})
    assert stale.status_code == 409  # based on the sentence before the fix: refused


@pytest.mark.parametrize(("body", "said"), [
    ({"finding": 5}, "finding is the index of one of the sentence's findings"),
    ({"finding": "0"}, "finding is the index"),
    ({"finding": 0}, "M403 has no fix the page can apply"),
])
def test_a_quick_fix_that_cannot_be_made_is_refused(site, body, said):
    ann = site.client("ann")
    version = ann.get("/api/sentences/2").json()["version"]
    same = "A 1 2|||R:VERB|||go|||REQUIRED|||-NONE-|||0"  # M403: changes nothing, no fix
    shown = ann.put("/api/sentences/2", json={"version": version, "edits": [same]}).json()
    assert [f["code"] for f in shown["findings"]][:1] == ["M403"]
    before = site.state()
    answer = ann.post("/api/sentences/2/fix", json={"version": shown["version"], **body})
    assert answer.status_code == 400 and said in answer.json()["error"], answer.text
    assert site.state() == before


def test_a_fix_of_the_source_sentence_is_not_the_page_s():
    """The S line is every annotator's: a fix that changes it (M007's) is not offered."""
    from m2lsp.parsing.m2 import parse_m2
    from m2lsp.web.layers import diagnostics, findings, fixable

    found = parse_m2(f"S He  go home .\n{SVA}\n").blocks[0]
    [spaces] = [d for d in diagnostics(found) if d.code == "M007"]
    assert spaces.fix is not None and not fixable(spaces)
    assert [f["fix"] for f in findings(found) if f["code"] == "M007"] == [None]


@pytest.mark.slow
def test_the_curator_sees_open_sentences_first_and_versions_side_by_side(site):
    ann, bob, cur = site.client("ann"), site.client("bob"), site.client("cur")
    assert cur.get("/api/curating").json()["outcomes"][0]["state"] == "open"
    for client, text in ((ann, "He goes home ."), (bob, "He goes home !")):
        version = _corrected(client, 2, text)["version"]
        typed = client.post("/api/sentences/2/type", json={"version": version, "edit": 0,
                                                            "type": "R:VERB:SVA"})
        assert typed.status_code == 200, typed.text
    for client in (ann, bob):
        _corrected(client, 1, "This are a test .")
    ann.post("/api/sentences/2/notes", json={"text": "sure", "unsure": False})
    overview = cur.get("/api/curating").json()
    assert overview["names"] == ["ann", "bob"]
    assert [(o["number"], o["state"]) for o in overview["outcomes"]] == [
        (2, "open"), (3, "open"), (1, "auto")]
    two = cur.get("/api/curating/2").json()
    ann_rows = [(r["original"], r["correction"], r["agreed"]) for r in two["versions"]["ann"]]
    assert ann_rows == [("go", "goes", True)]
    assert len(two["versions"]["bob"]) == 2 and two["gold"] == []
    assert two["notes"] == [{"who": "ann", "time": two["notes"][0]["time"], "text": "sure",
                             "unsure": False, "edit": None, "change": None, "by": "ann"}]
    accepted = cur.post("/api/curation", json={"action": "accept-agreed"})
    assert accepted.status_code == 200, accepted.text
    after = cur.get("/api/curating/2").json()
    assert after["state"] == "in progress" and [g["correction"] for g in after["gold"]] == [
        "goes"]
    assert cur.get("/api/curating/9").status_code == 404
    assert ann.get("/api/curating").status_code == 403


@pytest.mark.parametrize(("span", "correction", "line"), [
    ((2, 2), "good", "A 2 2|||UNK|||good|||"),  # a click between two tokens: an insertion
    ((2, 3), "", "A 2 3|||UNK||||||"),  # selected tokens, no text: a deletion
    ((3, 4), "good test", "A 3 3|||UNK|||good|||"),  # the words kept are set apart
])
def test_an_edit_for_selected_tokens(site, span, correction, line):
    ann = site.client("ann")
    version = _corrected(ann, 1, "This are a test .")["version"]  # a noop: replaced
    answer = ann.post("/api/sentences/1/edits", json={"version": version, "start": span[0],
                                                       "end": span[1],
                                                       "correction": correction})
    assert answer.status_code == 200, answer.text
    assert [e[:len(line)] for e in answer.json()["edits"]] == [line]


@pytest.mark.parametrize(("body", "said"), [
    ({"start": 4, "end": 9, "correction": "x"}, "not a span"),
    ({"start": 2, "end": 2, "correction": " "}, "needs a correction"),
    ({"start": 1, "end": 2, "correction": "a|||b"}, "without |"),
    ({"start": "1", "end": 2, "correction": "is"}, "token numbers"),
])
def test_an_edit_that_is_not_one_is_refused(site, body, said):
    ann = site.client("ann")
    version = ann.get("/api/sentences/1").json()["version"]
    before = (site.root / "layers/ann.m2").read_bytes()
    answer = ann.post("/api/sentences/1/edits", json={"version": version, **body})
    assert answer.status_code == 400 and said in answer.json()["error"]
    assert (site.root / "layers/ann.m2").read_bytes() == before


def test_the_same_edit_twice_is_refused(site):
    ann = site.client("ann")
    version = _corrected(ann, 1, "This are a test .")["version"]
    body = {"start": 2, "end": 3, "correction": ""}
    first = ann.post("/api/sentences/1/edits", json={"version": version, **body})
    assert first.status_code == 200, first.text
    before = (site.root / "layers/ann.m2").read_bytes()
    again = ann.post("/api/sentences/1/edits", json={"version": first.json()["version"],
                                                     **body})
    assert again.status_code == 400 and "this edit already" in again.json()["error"]
    assert (site.root / "layers/ann.m2").read_bytes() == before


def test_a_note_on_a_repeated_sentence_stays_on_its_copy(tmp_path):
    from m2lsp.web.accounts import add_user
    from m2lsp.web.app import build_app
    from m2lsp.web.assignments import assign
    from m2lsp.web.db import connect
    from m2lsp.web.project import add_layer, init_project
    from tests.web.project import Team, password

    project = init_project(tmp_path / "p", [s.split() for s in ("Hi .", "Yes .", "Hi .")],
                           "en")
    db = connect(project.database)
    add_user(db, "ann", "annotator", password("ann"))
    add_layer(project, "ann")
    assign(db, project, {"user": "ann", "first": 1, "last": 3})
    db.close()
    ann = Team(project.root, build_app(project.root, types=False)).client("ann")
    assert ann.post("/api/sentences/3/notes", json={"text": "the second"}).status_code == 200
    assert [n["text"] for n in ann.get("/api/sentences/3").json()["notes"]] == ["the second"]
    assert ann.get("/api/sentences/1").json()["notes"] == []


V = {"version": "0" * 16}
REFUSED = [  # what, who, method, path, body, csrf sent, status
    ("no session: retype", None, "POST", "/api/sentences/1/type",
     {**V, "edit": 0, "type": "R:VERB"}, True, 401),
    ("no session: types", None, "GET", "/api/types", None, True, 401),
    ("curator adds an edit", "cur", "POST", "/api/sentences/1/edits",
     {**V, "start": 0, "end": 1, "correction": "x"}, True, 403),
    ("an unassigned sentence's note", "ann", "POST", "/api/sentences/3/notes",
     {"text": "x"}, True, 403),
    ("an unassigned sentence's notes", "ann", "GET", "/api/sentences/3/notes", None, True,
     403),
    ("a note without CSRF", "ann", "POST", "/api/sentences/1/notes", {"text": "x"}, False,
     403),
    ("an edit without CSRF", "ann", "POST", "/api/sentences/1/edits",
     {**V, "start": 0, "end": 1, "correction": "x"}, False, 403),
    ("an annotator's curation overview", "ann", "GET", "/api/curating", None, True, 403),
    ("a manager's curation sentence", "boss", "GET", "/api/curating/1", None, True, 403),
    ("no session: curation sentence", None, "GET", "/api/curating/1", None, True, 401),
    ("a stale retype", "ann", "POST", "/api/sentences/1/type",
     {**V, "edit": 0, "type": "R:VERB"}, True, 409),
    ("no session: required", None, "POST", "/api/sentences/1/required",
     {**V, "edit": 0, "required": False}, True, 401),
    ("curator sets required", "cur", "POST", "/api/sentences/1/required",
     {**V, "edit": 0, "required": False}, True, 403),
    ("required without CSRF", "ann", "POST", "/api/sentences/1/required",
     {**V, "edit": 0, "required": False}, False, 403),
    ("an unassigned sentence's required", "ann", "POST", "/api/sentences/3/required",
     {**V, "edit": 0, "required": False}, True, 403),
    ("a stale required", "ann", "POST", "/api/sentences/1/required",
     {**V, "edit": 0, "required": False}, True, 409),
    ("a stale edit", "ann", "POST", "/api/sentences/1/edits",
     {**V, "start": 0, "end": 1, "correction": "x"}, True, 409),
    ("a file beside the bundle", None, "GET", "/static/index.html", None, True, 404),
    ("path traversal", None, "GET", "/static/..%2Fproject.toml", None, True, 404),
]


@pytest.fixture(scope="module")
def shared_site(tmp_path_factory):
    return team(tmp_path_factory.mktemp("pages"))


@pytest.mark.parametrize(("who", "method", "path", "body", "csrf", "status"),
                         [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_refused_and_nothing_changed(shared_site, who, method, path, body, csrf, status):
    client = shared_site.client(who) if who else shared_site.client()
    if not csrf:
        del client.headers["X-CSRF-Token"]
    before = shared_site.state()
    answer = client.request(method, path, **({} if body is None else {"json": body}))
    assert answer.status_code == status, answer.text
    assert shared_site.state() == before
