"""Fixing the source's tokens from the annotator's page: POST /api/sentences/N/split and
/join rewrite the sentence in source.m2, every layer (each one's edits carried) and every
suggestion set, move its notes, move the others' versions on (their stale tabs get 409),
and are refused once a curation has started."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from tests.web.project import team

# sentence 2 is "He go home ."; bob's edit on "home", ann's on "go"
ANN = "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0"
BOB = "A 2 3|||R:NOUN|||house|||REQUIRED|||-NONE-|||0"
EDIT_1 = "A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0"  # on sentence 1


@pytest.fixture
def site(tmp_path):
    site = team(tmp_path)
    for name, line in (("ann", ANN), ("bob", BOB)):
        client = site.client(name)
        version = client.get("/api/sentences/2").json()["version"]
        assert client.put("/api/sentences/2", json={"version": version, "edits": [line]}
                          ).status_code == 200
    return site


def _block(site, path, number=2):
    return (site.root / path).read_text(encoding="utf-8").split("\n\n")[number - 1]


# (what, path, body, sentence 2 of source.m2, ann's layer, bob's layer)
CASES = [
    ("split a token, the edits after it move", "split", {"token": 0, "pieces": "H e"},
     "S H e go home .", "A 2 3|||R:VERB:SVA|||goes", "A 3 4|||R:NOUN|||house"),
    ("split the edited token: its edit covers the pieces", "split",
     {"token": 2, "pieces": "ho me"},
     "S He go ho me .", "A 1 2|||R:VERB:SVA|||goes", "A 2 4|||R:NOUN|||house"),
    ("join two tokens, the edits after them move", "join", {"start": 0, "end": 2},
     "S Hego home .", "A 0 1|||R:VERB:SVA|||goes", "A 1 2|||R:NOUN|||house"),
    ("join at the end", "join", {"start": 2, "end": 4},
     "S He go home.", "A 1 2|||R:VERB:SVA|||goes", "A 2 3|||R:NOUN|||house"),
]


@pytest.mark.parametrize(("path", "body", "source", "ann", "bob"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_retokenisation_rewrites_the_source_and_every_layer(site, path, body, source,
                                                              ann, bob):
    client = site.client("ann")
    version = client.get("/api/sentences/2").json()["version"]
    answer = client.post(f"/api/sentences/2/{path}", json={"version": version, **body})
    assert answer.status_code == 200, answer.text
    assert answer.json()["tokens"] == source[2:].split()
    assert _block(site, "source.m2") == source
    rest = "|||REQUIRED|||-NONE-|||0"
    assert _block(site, "layers/ann.m2").split("\n") == [source, ann + rest]
    assert _block(site, "layers/bob.m2").split("\n") == [source, bob + rest]
    for other in ("source.m2", "layers/ann.m2", "layers/bob.m2"):
        assert _block(site, other, 1).startswith("S This are a test .")


def test_the_others_versions_move_on_and_their_stale_tabs_are_refused(site):
    bob = site.client("bob")
    old = bob.get("/api/sentences/2").json()["version"]
    ann = site.client("ann")
    version = ann.get("/api/sentences/2").json()["version"]
    assert ann.post("/api/sentences/2/split", json={"version": version, "token": 0,
                                                      "pieces": "H e"}).status_code == 200
    stale = bob.put("/api/sentences/2", json={"version": old, "edits": [BOB]})
    assert stale.status_code == 409
    assert stale.json()["current"]["edits"] == [BOB.replace("A 2 3", "A 3 4")]
    assert bob.get("/api/sentences").json()["sentences"][1]["version"] != old


def test_a_suggestion_set_and_the_notes_follow_the_sentence(site):
    boss = site.client("boss")
    m2 = f"S This are a test .\n\nS He go home .\n{ANN}\n{BOB}\n\nS She like cats .\n\n"
    assert boss.post("/api/suggestions", json={"name": "sys", "format": "m2",
                                               "text": m2}).status_code == 201
    bob = site.client("bob")
    noted = bob.post("/api/sentences/2/notes", json={"text": "house or home?", "edit": 0})
    assert noted.status_code == 200, noted.text
    ann = site.client("ann")
    version = ann.get("/api/sentences/2").json()["version"]
    assert ann.post("/api/sentences/2/split", json={"version": version, "token": 0,
                                                      "pieces": "H e"}).status_code == 200
    assert _block(site, "suggestions/sys.m2").startswith("S H e go home .\nA 2 3|||")
    offered = ann.get("/api/suggestions/2").json()["suggestions"]
    assert [(s["start"], s["end"]) for s in offered] == [(3, 4)]  # "go" is in ann's layer
    notes = bob.get("/api/sentences/2").json()["notes"]
    assert [(n["text"], n["edit"]) for n in notes] == [("house or home?",
                                                        "3 4|||R:NOUN|||house")]


# (what, who, path, body, status, said)
REFUSED = [
    ("a token out of the sentence", "ann", "split", {"token": 9, "pieces": "a b"}, 400,
     "not one of"),
    ("pieces that are not the token", "ann", "split", {"token": 0, "pieces": "H x"}, 400,
     "keeps the text"),
    ("one token is no join", "ann", "join", {"start": 1, "end": 2}, 400, "two or more"),
    ("no token number", "ann", "split", {"token": "0", "pieces": "H e"}, 400, "token"),
    ("a stale version", "ann", "split", {"token": 0, "pieces": "H e", "version": "0" * 16},
     409, "changed since"),
]


@pytest.mark.parametrize(("who", "path", "body", "status", "said"),
                         [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_a_retokenisation_that_is_not_one_is_refused_and_nothing_changes(
        site, who, path, body, status, said):
    before = site.state()
    client = site.client(who)
    version = client.get("/api/sentences/2").json()["version"]
    answer = client.post(f"/api/sentences/2/{path}", json={"version": version, **body})
    assert answer.status_code == status and said in answer.json()["error"], answer.text
    assert site.state()[0] == before[0]


def test_once_a_curation_has_started_the_tokens_stay(site):
    """Refused, and the page is told beforehand (`retokenisable`: it shows no form)."""
    ann, cur = site.client("ann"), site.client("cur")
    assert ann.get("/api/sentences/2").json()["retokenisable"] is True
    assert cur.post("/api/curation", json={"action": "accept-agreed"}).status_code == 200
    assert (site.root / "gold.m2").exists()
    before = site.state()[0]
    assert ann.get("/api/sentences/2").json()["retokenisable"] is False
    version = ann.get("/api/sentences/2").json()["version"]
    answer = ann.post("/api/sentences/2/split", json={"version": version, "token": 0,
                                                        "pieces": "H e"})
    assert answer.status_code == 400 and "curation has started" in answer.json()["error"]
    assert site.state()[0] == before


def test_a_layer_an_editor_changed_refuses_it_whole(site):
    layer = site.root / "layers/bob.m2"
    layer.write_text(layer.read_text().replace("S He go home .", "S He go home !"))
    before = site.state()[0]
    ann = site.client("ann")
    version = ann.get("/api/sentences/2").json()["version"]
    answer = ann.post("/api/sentences/2/join", json={"version": version, "start": 0,
                                                       "end": 2})
    assert answer.status_code == 400 and "bob.m2 is not the source's" in answer.json()["error"]
    assert site.state()[0] == before


def test_each_annotator_hears_that_their_own_version_moved_on(site):
    import asyncio

    from tests.web.test_events import Stream, _cookie, _login

    async def run():
        ann, bob = await _login(site.app, "ann"), await _login(site.app, "bob")
        heard = Stream(site.app, _cookie(bob))
        await heard.start()
        version = (await ann.get("/api/sentences/2")).json()["version"]
        answer = await ann.post("/api/sentences/2/split", json={
            "version": version, "token": 0, "pieces": "H e"})
        assert answer.status_code == 200, answer.text
        await heard.until("event: saved")
        await heard.leave()
        now = (await bob.get("/api/sentences/2")).json()["version"]
        return heard.events(), now

    events, now = asyncio.run(run())
    assert events == [("saved", {"user": "bob", "sentence": 2, "version": now, "done": True,
                                 "retokenised": True})]  # not who did it: blind


def test_a_join_names_only_the_annotators_own_straddling_edits(site):
    bob = site.client("bob")
    version = bob.get("/api/sentences/2").json()["version"]
    joined = bob.post("/api/sentences/2/join", json={"version": version, "start": 1,
                                                       "end": 3})  # "go home": both edits
    assert joined.status_code == 200, joined.text
    [said] = joined.json()["straddled"]
    assert "edit 2 3 straddled" in said  # his edit on "home" only; never ann's on "go"


def test_two_retokenisations_of_one_version_the_second_is_stale(site):
    ann, bob = site.client("ann"), site.client("bob")
    mine = ann.get("/api/sentences/2").json()["version"]
    his = bob.get("/api/sentences/2").json()["version"]
    assert ann.post("/api/sentences/2/split", json={"version": mine, "token": 0,
                                                      "pieces": "H e"}).status_code == 200
    late = bob.post("/api/sentences/2/join", json={"version": his, "start": 0, "end": 2})
    assert late.status_code == 409
    assert _block(site, "source.m2") == "S H e go home ."


def test_a_rejected_suggestion_stays_rejected_after_a_split(site):
    boss = site.client("boss")
    m2 = f"S This are a test .\n\nS He go home .\n{BOB}\n\nS She like cats .\n\n"
    assert boss.post("/api/suggestions", json={"name": "sys", "format": "m2",
                                               "text": m2}).status_code == 201
    ann = site.client("ann")
    [one] = ann.get("/api/suggestions/2").json()["suggestions"]
    assert ann.post("/api/suggestions/2", json={"id": one["id"], "decision": "reject"}
                    ).status_code == 200
    version = ann.get("/api/sentences/2").json()["version"]
    assert ann.post("/api/sentences/2/split", json={"version": version, "token": 0,
                                                      "pieces": "H e"}).status_code == 200
    assert ann.get("/api/suggestions/2").json()["suggestions"] == []  # its id moved too


def test_a_layer_saved_during_the_rewrite_is_read_again_and_keeps_both(site, monkeypatch):
    store = site.app.state.site.project.store
    layer = site.root / "layers/bob.m2"
    real, saved = store.replace, []

    def meanwhile(path, old, number, lines, head=None):
        if path == layer and not saved:  # bob saves sentence 1 just before the rewrite
            saved.append(real(path, store.get(path), 1, [EDIT_1]))
        return real(path, old, number, lines, head=head)

    monkeypatch.setattr(store, "replace", meanwhile)
    ann = site.client("ann")
    version = ann.get("/api/sentences/2").json()["version"]
    answer = ann.post("/api/sentences/2/split", json={"version": version, "token": 0,
                                                        "pieces": "H e"})
    assert answer.status_code == 200, answer.text
    blocks = layer.read_text(encoding="utf-8").split("\n\n")
    assert blocks[0].endswith(EDIT_1) and blocks[1].startswith("S H e go home .\nA 3 4|||")
