"""Suggestions (INCEpTION's recommenders): a manager loads a system's output or an M2 file
as suggested edits; an annotator accepts or rejects them one by one; nothing enters a
layer without acceptance."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from tests.web.project import team

OUTPUT = "This is a test .\nHe goes home .\nShe likes cats .\n"
M2 = ("S This are a test .\nA 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0\n"
      "A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||1\n"
      "A 3 4|||R:NOUN|||exam|||REQUIRED|||-NONE-|||1\n\n"
      "S He go home .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
      "S She like cats .\n\n")


@pytest.fixture
def site(tmp_path):
    return team(tmp_path)


def _layers(site):
    return {p.name: p.read_bytes() for p in (site.root / "layers").iterdir()}


def _load(site, **body):
    answer = site.client("boss").post("/api/suggestions", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_a_system_output_is_offered_and_nothing_enters_a_layer_unaccepted(site):
    before = _layers(site)
    assert _load(site, name="sys", format="text", text=OUTPUT) == {
        "name": "sys", "sentences": 3, "edits": 3}
    assert _layers(site) == before
    ann = site.client("ann")
    assert ann.get("/api/suggestions").json() == {"sets": ["sys"]}
    offered = ann.get("/api/suggestions/2").json()["suggestions"]
    assert [(s["start"], s["end"], s["correction"], s["from"]) for s in offered] == [
        (1, 2, "goes", "sys")]
    assert (site.root / "suggestions/sys.m2").is_file()


def test_an_accepted_suggestion_is_saved_into_the_annotators_layer_only(site):
    _load(site, name="sys", format="text", text=OUTPUT)
    ann = site.client("ann")
    [one] = ann.get("/api/suggestions/1").json()["suggestions"]
    version = ann.get("/api/sentences/1").json()["version"]
    answer = ann.post("/api/suggestions/1", json={"id": one["id"], "decision": "accept",
                                                   "version": version})
    assert answer.status_code == 200, answer.text
    assert answer.json()["sentence"]["edits"] == [one["line"]]
    assert answer.json()["suggestions"] == []  # in the layer now: not offered again
    assert one["line"] in (site.root / "layers/ann.m2").read_text()
    assert one["line"] not in (site.root / "layers/bob.m2").read_text()
    assert site.client("bob").get("/api/suggestions/1").json()["suggestions"] == [one]


def test_an_accepted_suggestion_undone_is_offered_again(site):
    _load(site, name="sys", format="text", text=OUTPUT)
    ann = site.client("ann")
    [one] = ann.get("/api/suggestions/1").json()["suggestions"]
    version = ann.get("/api/sentences/1").json()["version"]
    accepted = ann.post("/api/suggestions/1", json={"id": one["id"], "decision": "accept",
                                                     "version": version}).json()
    undone = ann.put("/api/sentences/1", json={"version": accepted["sentence"]["version"],
                                                "edits": []})  # the page's undo
    assert undone.status_code == 200, undone.text
    assert ann.get("/api/suggestions/1").json()["suggestions"] == [one]


def test_a_rejected_suggestion_changes_nothing_and_is_not_offered_again(site):
    _load(site, name="sys", format="text", text=OUTPUT)
    ann = site.client("ann")
    [one] = ann.get("/api/suggestions/2").json()["suggestions"]
    before = _layers(site)
    answer = ann.post("/api/suggestions/2", json={"id": one["id"], "decision": "reject"})
    assert answer.status_code == 200 and answer.json()["suggestions"] == []
    assert _layers(site) == before
    again = ann.post("/api/suggestions/2", json={"id": one["id"], "decision": "accept",
                                                  "version": "x"})
    assert again.status_code == 400 and _layers(site) == before


def test_an_m2_file_offers_every_annotators_edits_once(site):
    assert _load(site, name="two", format="m2", text=M2)["edits"] == 2
    offered = site.client("ann").get("/api/suggestions/1").json()["suggestions"]
    assert [(s["correction"], s["type"]) for s in offered] == [("is", "R:VERB:SVA"),
                                                              ("exam", "R:NOUN")]
    assert all(s["line"].endswith("|||0") for s in offered)


def test_a_stale_acceptance_is_refused_and_nothing_is_written(site):
    _load(site, name="sys", format="text", text=OUTPUT)
    ann = site.client("ann")
    [one] = ann.get("/api/suggestions/1").json()["suggestions"]
    before = _layers(site)
    answer = ann.post("/api/suggestions/1", json={"id": one["id"], "decision": "accept",
                                                   "version": "0000000000000000"})
    assert answer.status_code == 409 and _layers(site) == before


@pytest.mark.parametrize(("body", "said"), [
    ({"name": "sys", "format": "text", "text": "one line\n"}, "3 sentences"),
    ({"name": "sys", "format": "m2", "text": "S Other words .\n\n" * 3}, "not the project"),
    ({"name": "sys", "format": "m2", "text": "S Other words .\n\n"},
     "has 1 sentences but the project 3"),
    ({"name": "../sys", "format": "text", "text": OUTPUT}, "a name for suggestions"),
    ({"name": "sys", "format": "docx", "text": OUTPUT}, "format"),
])
def test_a_set_that_is_not_the_projects_is_refused(site, body, said):
    answer = site.client("boss").post("/api/suggestions", json=body)
    assert answer.status_code == 400 and said in answer.json()["error"]
    assert not (site.root / "suggestions").exists()
