"""The curator's page on the server, driven in process: the curator's own edit (typed from
the taxonomy, refused with the linter's reason), a sentence's decision history read from
the log, and which layer is which annotator when layers begin late, are added or are
removed."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")

from m2lsp.cli import main
from tests.web.project import team

GOES = "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0"
NOOP = "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"


@pytest.fixture
def site(tmp_path, monkeypatch):
    monkeypatch.setenv("M2LSP_NOW", "2026-11-29T12:00:00Z")
    return team(tmp_path)


def _save(client, number, lines):
    version = client.get(f"/api/sentences/{number}").json()["version"]
    answer = client.put(f"/api/sentences/{number}", json={"version": version, "edits": lines})
    assert answer.status_code == 200, answer.text


def _log(site):
    text = (site.root / "gold.m2.curation.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize(("body", "line"), [
    ({"start": 1, "end": 2, "correction": "goes", "type": "R:VERB:SVA"},
     "A 1 2|||R:VERB:SVA|||goes|||"),
    ({"start": 3, "end": 3, "correction": " right  now ", "type": "M:ADV"},
     "A 3 3|||M:ADV|||right now|||"),  # an insertion at the gap before token 3
    ({"start": 2, "end": 3, "correction": "", "type": "U:NOUN"},
     "A 2 3|||U:NOUN||||||"),  # a deletion
    ({"value": "1 2|||R:VERB:SVA|||goes"}, "A 1 2|||R:VERB:SVA|||goes|||"),  # as a key
])
def test_the_curator_writes_their_own_edit(site, body, line):
    cur = site.client("cur")
    answer = cur.post("/api/curation/2", json={"action": "edit", **body})
    assert answer.status_code == 200, answer.text
    assert answer.json()["state"] == "in progress"
    gold = (site.root / "gold.m2").read_text(encoding="utf-8").split("\n\n")[1]
    assert [g[:len(line)] for g in gold.splitlines()[1:]] == [line]
    assert _log(site)[-1]["action"] == "edit"
    assert main(["check", str(site.root / "gold.m2"), "--select", "M"]) == 0


@pytest.mark.parametrize(("body", "said"), [
    ({"start": 1, "end": 2, "correction": "goes", "type": "NOT:A:TYPE"}, "types"),
    ({"start": 1, "end": 2, "correction": "goes", "type": "noop"}, "types"),
    ({"start": 2, "end": 1, "correction": "x", "type": "R:NOUN"}, "start <= end"),
    ({"start": "1", "end": 2, "correction": "x", "type": "R:NOUN"}, "token numbers"),
    ({"start": 1, "end": 2, "correction": "a|||b", "type": "R:NOUN"}, "without |"),
    ({"start": 2, "end": 2, "correction": " ", "type": "M:NOUN"}, "needs a correction"),
    ({"start": 3, "end": 9, "correction": "x", "type": "R:NOUN"}, "ends after"),
    # the linter would flag it: a deletion typed as a replacement
    ({"start": 1, "end": 2, "correction": "", "type": "R:VERB"}, "rules flag"),
])
def test_an_own_edit_that_cannot_be_made_is_refused_with_the_reason(site, body, said):
    cur = site.client("cur")
    before = site.state()
    answer = cur.post("/api/curation/2", json={"action": "edit", **body})
    assert answer.status_code == 400 and said in answer.json()["error"], answer.text
    assert site.state() == before


def test_a_sentence_shows_its_decision_history(site):
    ann, bob, cur = site.client("ann"), site.client("bob"), site.client("cur")
    _save(ann, 2, [GOES])
    _save(bob, 2, [GOES, "A 2 3|||R:NOUN|||house|||REQUIRED|||-NONE-|||0"])
    assert cur.get("/api/curating/2").json()["history"] == []
    cur.post("/api/curation", json={"action": "accept-agreed"})
    cur.post("/api/curation/2", json={"action": "accept", "value": "2 3|||R:NOUN|||house",
                                      "from": "bob"})
    cur.post("/api/curation/2", json={"action": "edit", "start": 3, "end": 3,
                                      "correction": "now", "type": "M:ADV"})
    cur.post("/api/curation/2", json={"action": "take", "value": "ann"})
    cur.post("/api/curation/1", json={"action": "correct"})
    shown = cur.get("/api/curating/2").json()["history"]
    at = "2026-11-29T12:00:00Z"
    assert [(h["action"], h["who"], h["time"], h["from"], h["edit"]) for h in shown] == [
        ("accept", "cur", at, ["ann", "bob"], "1 2|||R:VERB:SVA|||goes"),
        ("accept", "cur", at, ["bob"], "2 3|||R:NOUN|||house"),
        ("edit", "cur", at, [], "3 3|||M:ADV|||now"),
        ("take", "cur", at, ["ann"], None)]
    assert shown[-1]["edits"] == ["1 2|||R:VERB:SVA|||goes"]
    # each key as the page shows an edit: where, what it becomes, its type
    assert shown[2]["change"] == {"key": "3 3|||M:ADV|||now", "start": 3, "end": 3,
                                  "type": "M:ADV", "original": "", "correction": "now",
                                  "required": True}
    assert [c["original"] for c in shown[-1]["changes"]] == ["go"] and shown[-1]["change"] is None
    assert [h["action"] for h in cur.get("/api/curating/1").json()["history"]] == ["correct"]


def test_a_layer_not_begun_is_not_taken_for_another(site):
    """ann has written nothing yet: bob's edits are bob's, and taking ann's is refused."""
    bob, cur = site.client("bob"), site.client("cur")
    _save(bob, 2, [GOES])
    two = cur.get("/api/curating/2").json()
    assert two["versions"]["ann"] is None
    assert [r["correction"] for r in two["versions"]["bob"]] == ["goes"]
    assert cur.post("/api/curation/2", json={"action": "take", "value": "ann"}
                    ).status_code == 400
    took = cur.post("/api/curation/2", json={"action": "take", "value": "bob"})
    assert took.status_code == 200, took.text
    assert "|||goes|||" in (site.root / "gold.m2").read_text(encoding="utf-8")
    assert cur.get("/api/curating/2").json()["history"][0]["from"] == ["bob"]


def test_a_layer_added_later_keeps_every_annotator_s_number(site):
    """A layer added once the curation began (its name first in order) comes after the
    others, and history still names whom each decision took from."""
    from m2lsp.web.project import add_layer, open_project

    ann, bob, cur = site.client("ann"), site.client("bob"), site.client("cur")
    _save(ann, 2, [GOES])
    _save(bob, 2, [NOOP])
    assert cur.post("/api/curation/2", json={"action": "take", "value": "bob"}
                    ).status_code == 200
    add_layer(open_project(site.root), "aaron")
    layer = site.root / "layers/aaron.m2"
    layer.write_text(layer.read_text().replace("S He go home .\n",
                                                f"S He go home .\n{GOES}\n"))
    overview = cur.get("/api/curating").json()
    assert overview["names"] == ["ann", "bob", "aaron"]
    two = cur.get("/api/curating/2").json()
    assert [r["correction"] for r in two["versions"]["aaron"]] == ["goes"]
    assert two["versions"]["bob"] == []  # aaron's line came after bob's was taken:
    assert two["rule"] == "took bob (aaron has changed it since)"  # a look again
    assert two["changed"] == ["aaron"]
    assert cur.post("/api/curation/2", json={"action": "take", "value": "aaron"}
                    ).status_code == 200
    assert [h["from"] for h in cur.get("/api/curating/2").json()["history"]] == [
        ["bob"], ["aaron"]]
    assert _log(site)[-2]["inputs"] == ["layers/ann.m2", "layers/bob.m2", "layers/aaron.m2"]


def test_a_removed_layer_leaves_the_others_and_the_decisions(site):
    ann, bob, cur = site.client("ann"), site.client("bob"), site.client("cur")
    _save(ann, 2, [GOES])
    _save(bob, 2, [NOOP])
    assert cur.post("/api/curation/2", json={"action": "take", "value": "bob"}
                    ).status_code == 200
    (site.root / "layers/ann.m2").unlink()
    two = cur.get("/api/curating/2").json()
    assert list(two["versions"]) == ["bob"] and two["versions"]["bob"] == []
    assert two["state"] == "decided" and two["gold"] == []
    assert [h["from"] for h in two["history"]] == [["bob"]]
    assert cur.post("/api/curation/2", json={"action": "reopen"}).status_code == 200
    assert _log(site)[-2]["inputs"] == ["layers/bob.m2"]


IS = "A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0"
LIKES = "A 1 2|||R:VERB:SVA|||likes|||REQUIRED|||-NONE-|||0"
STEPS = [  # who, sentence (None: accept-agreed), what: A lines saved, or a decision
    ("ann", 1, [IS]), ("bob", 1, [IS]), ("ann", 2, [GOES]),
    ("bob", 2, [GOES, "A 2 3|||R:NOUN|||house|||REQUIRED|||-NONE-|||0"]),
    ("cur", 2, {"action": "take", "value": "ann"}),
    ("cur", 3, {"action": "take", "value": "ann"}),  # refused: ann has no sentence 3
    ("cur", 2, {"action": "accept", "value": "2 3|||R:NOUN|||house", "from": "bob"}),
    ("bob", 1, [NOOP]),  # sentence 1 is no longer agreed: the gold follows
    ("cur", 3, {"action": "edit", "start": 1, "end": 2, "correction": "likes",
                "type": "R:VERB:SVA"}),
    ("bob", 3, [LIKES]),
    ("cur", 3, {"action": "edit", "start": 1, "end": 2, "correction": "",
                "type": "R:VERB"}),  # refused: the rules flag it
    ("cur", 2, {"action": "reject", "value": "1 2|||R:VERB:SVA|||goes"}),
    ("cur", 1, {"action": "correct"}), ("ann", 1, [NOOP]), ("bob", 1, [IS]),
    ("cur", 2, {"action": "done"}), ("cur", 1, {"action": "reopen"}),
    ("cur", None, {"action": "accept-agreed"}),
    ("cur", 3, {"action": "done"}), ("cur", 2, {"action": "reopen"}),
    ("cur", 2, {"action": "take", "value": "bob"}),
]


def test_a_decision_on_one_sentence_writes_what_the_whole_curation_writes(
        tmp_path, monkeypatch):
    """Two servers, one deciding on (and showing) the sentence alone once it wrote the
    gold, and listing the sentences from their last outcomes, one opening the whole
    curation each time, write the same gold and log, and answer and show the same."""
    import m2lsp.files.curation as whole
    import m2lsp.web.deciding as deciding

    monkeypatch.setenv("M2LSP_NOW", "2026-11-29T12:00:00Z")
    quick, slow = team(tmp_path / "quick"), team(tmp_path / "slow")
    clients = {id(site): {name: site.client(name) for name in ("ann", "bob", "cur")}
               for site in (quick, slow)}
    opened, made, read, listed = [], deciding.quick, deciding.read_one, deciding.outcomes
    monkeypatch.setattr(whole, "open_curation", _counted(whole.open_curation, opened))
    answers = {}
    for step, (who, number, what) in enumerate(STEPS):
        for site in (quick, slow):
            monkeypatch.setattr(deciding, "quick", made if site is quick else
                                lambda *_: None)
            monkeypatch.setattr(deciding, "read_one", read if site is quick else
                                lambda *_: None)
            before = len(opened)
            client = clients[id(site)][who]
            if who != "cur":
                _save(client, number, what)
                continue
            path = "/api/curation" if number is None else f"/api/curation/{number}"
            answer = client.post(path, json=what)
            answers[site is quick] = (answer.status_code, answer.json())
            if site is quick and step > 4 and number is not None:
                assert len(opened) == before, f"step {step} opened the whole curation"
        if who == "cur":
            assert answers[True] == answers[False], f"step {step}"
        shown = []
        for site in (quick, slow):
            monkeypatch.setattr(deciding, "outcomes", listed if site is quick else
                                lambda *_: None)
            before = len(opened)
            shown.append(clients[id(site)]["cur"].get("/api/curating").json())
            assert site is slow or step == 0 or len(opened) == before  # no whole curation
        assert shown[0] == shown[1], f"step {step}: the list"
        for number in (1, 2, 3):
            shown = []
            for site in (quick, slow):
                monkeypatch.setattr(deciding, "read_one", read if site is quick else
                                    lambda *_: None)
                before = len(opened)
                shown.append(clients[id(site)]["cur"].get(f"/api/curating/{number}").json())
                assert site is slow or len(opened) == before  # the sentence alone
            assert shown[0] == shown[1], f"step {step}: sentence {number}"
        for name in ("gold.m2", "gold.m2.curation.jsonl"):
            assert _bytes(quick.root / name) == _bytes(slow.root / name), f"step {step}: {name}"
    assert main(["curate", str(quick.root / "gold.m2")]) == 0
    assert (quick.root / "gold.m2").read_bytes() == (slow.root / "gold.m2").read_bytes()


def _bytes(path):
    return path.read_bytes() if path.exists() else None


def _counted(function, calls):
    def counted(*args, **kwargs):
        calls.append(args)
        return function(*args, **kwargs)
    return counted


def test_a_gold_changed_on_disk_is_decided_on_the_whole_curation(site):
    """A hand edit since the server wrote the gold: the whole curation decides, and
    refuses to write over it."""
    cur = site.client("cur")
    _decided_then_edited_by_hand(site, cur)
    answer = cur.post("/api/curation/3", json={"action": "correct"})
    assert answer.status_code == 400 and "edited by hand" in answer.json()["error"]


def _decided_then_edited_by_hand(site, cur, by_hand=True):
    """ann and bob annotate sentence 2 apart, the curator takes bob's, and (`by_hand`)
    the gold is then edited by hand to ann's; the gold's path."""
    _save(site.client("ann"), 2, [GOES])
    _save(site.client("bob"), 2, [NOOP])
    assert cur.post("/api/curation/2", json={"action": "take", "value": "bob"}
                    ).status_code == 200
    gold = site.root / "gold.m2"
    if by_hand:
        gold.write_text(gold.read_text().replace("S He go home .\n" + NOOP,
                                                 "S He go home .\n" + GOES))
    return gold


def _restarted(site):
    """The same project served again (a new app, nothing remembered), once the start's
    opening of the curation is over."""
    from m2lsp.web.app import build_app

    again = type(site)(site.root, build_app(site.root, types=False))
    again.app.state.curation_warm.join(60)
    return again


@pytest.mark.parametrize(("hand_edit", "whole_openings"), [
    (False, 0),  # the gold is what the layers and the log give: the sentence alone
    (True, 1),  # edited by hand since: the whole curation, which refuses to write over it
])
def test_after_a_restart_the_first_decision_costs_its_sentence(
        site, monkeypatch, hand_edit, whole_openings):
    import m2lsp.files.curation as whole

    gold = _decided_then_edited_by_hand(site, site.client("cur"), hand_edit)
    again = _restarted(site)
    opened: list = []
    monkeypatch.setattr(whole, "open_curation", _counted(whole.open_curation, opened))
    answer = again.client("cur").post("/api/curation/3", json={"action": "correct"})
    assert len(opened) == whole_openings
    if hand_edit:
        assert answer.status_code == 400 and "edited by hand" in answer.json()["error"]
    else:
        assert answer.status_code == 200, answer.text
        written = gold.read_bytes()
        assert main(["curate", str(gold)]) == 0  # written again from the whole curation
        assert gold.read_bytes() == written


def test_after_a_restart_a_decision_on_one_sentence_names_whom_it_took_from(site):
    """The layers' order changed while the server was down (ann took back her only
    sentence: her layer has no line, and comes last): the log's last `start` no longer
    numbers them as the server does, so the first decision after the restart writes a
    `start` before it, and history names bob, whom it took from."""
    ann, bob, cur = site.client("ann"), site.client("bob"), site.client("cur")
    _save(ann, 2, [GOES])
    _save(bob, 2, [NOOP])
    _save(bob, 3, [GOES])
    assert cur.post("/api/curation/2", json={"action": "take", "value": "bob"}
                    ).status_code == 200
    version = ann.get("/api/sentences/2").json()["version"]
    assert ann.put("/api/sentences/2", json={"version": version, "edits": [],
                                             "untouched": True}).status_code == 200
    again = _restarted(site)
    took = again.client("cur").post("/api/curation/3", json={"action": "take", "value": "bob"})
    assert took.status_code == 200, took.text
    assert _log(site)[-2]["inputs"] == ["layers/bob.m2", "layers/ann.m2"]
    assert again.client("cur").get("/api/curating/3").json()["history"][0]["from"] == ["bob"]


def test_the_list_follows_a_save_made_while_a_decision_is_written(site, monkeypatch):
    """bob saves sentence 2 while the curator's reopening of it is being written, and the
    list is read meanwhile (it replays the sentence bob changed): the list then shows
    sentence 2 as the whole curation does (open: ann and bob no longer agree), not as the
    decision found it before bob's save (auto-merged)."""
    import threading

    import m2lsp.web.deciding as deciding
    from m2lsp.web.curator import overview
    from m2lsp.web.layers import Change, save
    from m2lsp.web.project import open_project

    ann, bob, cur = site.client("ann"), site.client("bob"), site.client("cur")
    _save(ann, 2, [GOES])
    _save(bob, 2, [GOES])
    assert cur.post("/api/curation/1", json={"action": "correct"}).status_code == 200
    assert cur.get("/api/curating").json()["counts"]["auto"] == 1
    project = site.app.state.site.project
    write = deciding._write

    listing = threading.Thread(target=overview, args=(project,))

    def meanwhile(*args):  # a save, and the list read in another thread, as it writes
        monkeypatch.setattr(deciding, "_write", write)
        version = bob.get("/api/sentences/2").json()["version"]
        save(project, "bob", 2, Change(version, (NOOP,)))
        listing.start()
        listing.join(0.5)  # done by then, unless it waits for the decision
        write(*args)

    monkeypatch.setattr(deciding, "_write", meanwhile)
    assert cur.post("/api/curation/2", json={"action": "reopen"}).status_code == 200
    listing.join()
    listed = {o["number"]: o["state"] for o in cur.get("/api/curating").json()["outcomes"]}
    fresh = overview(open_project(site.root))  # nothing remembered: the whole curation
    assert listed == {o["number"]: o["state"] for o in fresh["outcomes"]}


def test_the_curator_sees_which_edits_are_optional(site):
    """ann marks her edit OPTIONAL; bob makes it REQUIRED: each version shows its own
    flag, and the gold's after a take is REQUIRED (not every annotator made it OPTIONAL)."""
    optional = GOES.replace("|||REQUIRED|||", "|||OPTIONAL|||")
    _save(site.client("ann"), 2, [optional])
    _save(site.client("bob"), 2, [GOES])
    cur = site.client("cur")
    assert cur.post("/api/curation/2", json={"action": "take", "value": "ann"}
                    ).status_code == 200
    shown = cur.get("/api/curating/2").json()
    assert [e["required"] for e in shown["versions"]["ann"]] == [False]
    assert [e["required"] for e in shown["versions"]["bob"]] == [True]
    assert [e["required"] for e in shown["gold"]] == [True]
    _save(site.client("bob"), 2, [optional])  # now both: OPTIONAL in the gold
    assert cur.post("/api/curation/2", json={"action": "take", "value": "bob"}
                    ).status_code == 200
    assert [e["required"] for e in cur.get("/api/curating/2").json()["gold"]] == [False]
    assert optional in (site.root / "gold.m2").read_text()


def test_a_decided_sentence_an_annotator_changed_since_is_flagged(site):
    """A decision records what the curator saw; a later save by an annotator leaves the
    gold as decided, and the list (quick path and whole curation alike) says who changed
    it, after the unfinished sentences; Done settles it."""
    ann, bob, cur = site.client("ann"), site.client("bob"), site.client("cur")
    _save(ann, 2, [GOES])
    _save(bob, 2, [NOOP])
    assert cur.post("/api/curation/2", json={"action": "correct"}).status_code == 200
    assert _log(site)[-1]["seen"] == {"0": ["1 2|||R:VERB:SVA|||goes"], "1": []}
    gold = (site.root / "gold.m2").read_text(encoding="utf-8")
    _save(bob, 2, ["A 1 2|||R:VERB:SVA|||went|||REQUIRED|||-NONE-|||0"])
    overview = cur.get("/api/curating").json()
    assert overview["changed"] == 1
    row = next(o for o in overview["outcomes"] if o["number"] == 2)
    assert (row["state"], row["changed"]) == ("decided", ["bob"])
    states = [("changed" if o["changed"] else o["state"]) for o in overview["outcomes"]]
    assert states.index("changed") == sum(s in ("open", "in progress") for s in states)
    two = cur.get("/api/curating/2").json()
    assert two["changed"] == ["bob"]
    assert two["rule"] == "correct as it is (bob has changed it since)"  # named
    assert (site.root / "gold.m2").read_text(encoding="utf-8") == gold
    assert cur.post("/api/curation/2", json={"action": "done"}).status_code == 200
    assert cur.get("/api/curating/2").json()["changed"] == []
    assert cur.get("/api/curating").json()["changed"] == 0


def test_a_renumbering_flags_no_decided_sentence_nobody_touched(site):
    """ann undoes her only line back to untouched: she has not begun any more, so the
    annotators' numbers change. Sentence 3, decided and touched by nobody since, is not
    flagged (a decision's `seen` is matched as versions, not by number)."""
    ann, bob, cur = site.client("ann"), site.client("bob"), site.client("cur")
    _save(ann, 2, [GOES])
    _save(bob, 3, ["A 1 2|||R:VERB:SVA|||likes|||REQUIRED|||-NONE-|||0"])
    assert cur.post("/api/curation/3", json={"action": "take", "value": "bob"}
                    ).status_code == 200
    version = ann.get("/api/sentences/2").json()["version"]
    assert ann.put("/api/sentences/2", json={"version": version, "edits": [],
                                             "untouched": True}).status_code == 200
    three = cur.get("/api/curating/3").json()
    assert three["changed"] == [] and three["rule"] == "took bob"  # named, not numbered
    assert cur.get("/api/curating").json()["changed"] == 0
