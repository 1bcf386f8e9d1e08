"""The annotator's list marks a done sentence the linter still flags: its findings counted
as its page lists them, remembered by version, and within a time budget per list."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from m2lsp.web import flags, layers
from m2lsp.web.project import open_project
from tests.web.project import team

GOES = "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0"
UNK = "A 1 2|||UNK|||goes|||REQUIRED|||-NONE-|||0"  # M407: choose its type
NOOP = "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"


@pytest.fixture
def site(tmp_path, monkeypatch):
    monkeypatch.setattr(flags, "_known", type(flags._known)())  # nothing remembered
    return team(tmp_path)


def _save(client, number, lines):
    version = client.get(f"/api/sentences/{number}").json()["version"]
    answer = client.put(f"/api/sentences/{number}", json={"version": version, "edits": lines})
    assert answer.status_code == 200, answer.text
    return answer.json()


def _marks(answer):
    return [(r["number"], r["state"], r.get("findings")) for r in answer["sentences"]]


def test_a_done_sentence_with_findings_is_marked(site):
    bob = site.client("bob")
    shown = _save(bob, 2, [UNK])
    assert [f["code"] for f in shown["findings"]] == ["M407"]
    _save(bob, 1, [NOOP])
    listed = bob.get("/api/sentences").json()
    assert _marks(listed) == [(1, "done", 0), (2, "done", 1), (3, "new", None)]
    assert listed["unchecked"] == 0
    assert "findings" not in listed["sentences"][2]  # a sentence not done: no claim
    _save(bob, 2, [GOES])  # typed: the mark goes
    assert _marks(bob.get("/api/sentences").json())[1] == (2, "done", 0)


def test_findings_not_known_are_counted_within_the_budget(site, monkeypatch):
    """Forgotten (a restart), a list counts what it can in its budget and says how many
    it left (none counted in none); what it counted is remembered."""
    bob = site.client("bob")
    _save(bob, 2, [UNK])
    _save(bob, 3, [GOES])
    monkeypatch.setattr(flags, "_known", type(flags._known)())
    project = open_project(site.root)
    nothing = layers.listed(project, "bob", [1, 2, 3], budget=0)
    assert _marks(nothing) == [(1, "new", None), (2, "done", None), (3, "done", None)]
    assert nothing["unchecked"] == 2
    counted = layers.listed(project, "bob", [1, 2, 3])
    assert _marks(counted) == [(1, "new", None), (2, "done", 1), (3, "done", 0)]
    assert counted["unchecked"] == 0
    assert layers.listed(project, "bob", [1, 2, 3], budget=0) == counted  # remembered


def test_what_is_remembered_is_bounded(monkeypatch):
    monkeypatch.setattr(flags, "_known", type(flags._known)())
    monkeypatch.setattr(flags, "MOST", 2)
    for k, version in enumerate(("a", "b", "a", "c")):
        flags.remember(version, k)
    assert (flags.known("a"), flags.known("b"), flags.known("c")) == (2, None, 3)
