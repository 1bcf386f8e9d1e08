"""The JSON API driven in process: an annotator's sentences, saves, two tabs, blind
annotation, the manager's assignments and progress, the curator's layers and decisions."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from m2lsp.cli import main
from tests.web.project import team

EDIT = "A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0"
GOES = "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0"


@pytest.fixture
def site(tmp_path):
    return team(tmp_path)


def test_an_annotator_sees_their_assigned_sentences(site):
    listed = site.client("ann").get("/api/sentences").json()["sentences"]
    assert [(s["number"], s["state"]) for s in listed] == [(1, "new"), (2, "new")]


def test_a_sentence_shows_tokens_edits_findings_and_version(site):
    shown = site.client("ann").get("/api/sentences/1").json()
    assert shown["tokens"] == ["This", "are", "a", "test", "."]
    assert shown["edits"] == [] and isinstance(shown["findings"], list)
    assert len(shown["version"]) == 16


def test_a_save_is_written_to_the_annotators_layer_only(site):
    ann = site.client("ann")
    version = ann.get("/api/sentences/1").json()["version"]
    saved = ann.put("/api/sentences/1", json={"version": version, "edits": [EDIT]})
    assert saved.status_code == 200 and saved.json()["edits"] == [EDIT]
    assert EDIT in (site.root / "layers/ann.m2").read_text()
    assert EDIT not in (site.root / "layers/bob.m2").read_text()
    assert ann.get("/api/sentences").json()["sentences"][0]["state"] == "done"


@pytest.mark.parametrize(("body", "lines", "state"), [
    ({"edits": []}, ["A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"], "done"),  # no error
    ({"edits": [], "untouched": True}, [], "new"),  # an undo back to before the first save
])
def test_an_edit_taken_back_leaves_a_noop_or_the_sentence_untouched(site, body, lines, state):
    ann = site.client("ann")
    version = ann.put("/api/sentences/1", json={
        "version": ann.get("/api/sentences/1").json()["version"], "edits": [EDIT]}
    ).json()["version"]
    saved = ann.put("/api/sentences/1", json={"version": version, **body})
    assert saved.status_code == 200, saved.text
    assert saved.json()["edits"] == lines
    assert ann.get("/api/sentences").json()["sentences"][0]["state"] == state
    assert (site.root / "layers/ann.m2").read_text().startswith(
        "\n".join(["S This are a test .", *lines, "", ""]))


def test_a_corrected_sentence_is_realigned_into_edits(site):
    ann = site.client("ann")
    version = ann.get("/api/sentences/2").json()["version"]
    saved = ann.put("/api/sentences/2", json={"version": version,
                                               "corrected": "He goes home ."})
    assert saved.status_code == 200, saved.text
    edits = saved.json()["edits"]
    assert len(edits) == 1 and edits[0].startswith("A 1 2|||") and "|||goes|||" in edits[0]


@pytest.mark.parametrize(("body", "said"), [
    ({"edits": ["A 7 9|||R:NOUN|||x|||REQUIRED|||-NONE-|||0"]}, "outside"),
    ({"edits": ["S injected"]}, "not an A line"),
    ({"edits": ["A 1 2|||R:VERB|||is|||REQUIRED|||-NONE-|||0\nS x"]}, "one line each"),
    ({"edits": [], "corrected": "x"}, "either"),
    ({"corrected": 3}, "one line"),
    ({"edits": [EDIT], "untouched": True}, "only with no edits"),
    ({"corrected": "x", "untouched": True}, "only with no edits"),
    ({"edits": [], "untouched": 1}, "only with no edits"),
])
def test_a_change_that_is_not_one_is_refused(site, body, said):
    ann = site.client("ann")
    before = (site.root / "layers/ann.m2").read_bytes()
    version = ann.get("/api/sentences/1").json()["version"]
    answer = ann.put("/api/sentences/1", json={"version": version, **body})
    assert answer.status_code == 400 and said in answer.json()["error"]
    assert (site.root / "layers/ann.m2").read_bytes() == before


def test_two_tabs_a_stale_save_is_refused_and_nothing_is_lost(site):
    first, second = site.client("ann"), site.client("ann")
    version = first.get("/api/sentences/1").json()["version"]
    assert second.get("/api/sentences/1").json()["version"] == version
    assert first.put("/api/sentences/1", json={"version": version,
                                                "edits": [EDIT]}).status_code == 200
    other = "A 3 4|||R:NOUN|||exam|||REQUIRED|||-NONE-|||0"
    stale = second.put("/api/sentences/1", json={"version": version, "edits": [other]})
    assert stale.status_code == 409
    assert stale.json()["current"]["edits"] == [EDIT]  # the other tab's save, shown
    layer = (site.root / "layers/ann.m2").read_text()
    assert EDIT in layer and "exam" not in layer


def test_blind_annotation_an_annotator_never_sees_another_s_edits(site):
    bob = site.client("bob")
    version = bob.get("/api/sentences/1").json()["version"]
    bob.put("/api/sentences/1", json={"version": version, "edits": [EDIT]})
    ann = site.client("ann")
    assert ann.get("/api/sentences/1").json()["edits"] == []
    assert ann.get("/api/layers/1").status_code == 403
    assert "|||is|||" not in ann.get("/api/sentences").text


def test_the_manager_assigns_and_watches_progress(site):
    boss = site.client("boss")
    made = boss.post("/api/assignments", json={"user": "ann", "first": 3, "last": 3})
    assert made.status_code == 201
    assert [s["number"] for s in site.client("ann").get("/api/sentences").json()
            ["sentences"]] == [1, 2, 3]
    bob = site.client("bob")
    bob.put("/api/sentences/2", json={"version": bob.get("/api/sentences/2").json()["version"],
                                      "edits": ["A 1 2|||R:VERB|||goes|||REQUIRED|||-NONE-|||0"]})
    progress = boss.get("/api/progress").json()["annotators"]
    assert progress == [{"user": "ann", "assigned": 3, "ranges": [[1, 3]], "done": 0},
                        {"user": "bob", "assigned": 3, "ranges": [[1, 3]], "done": 1}]


@pytest.mark.parametrize(("cuts", "ranges", "removed"), [
    ([(2, 2)], [[1, 1], [3, 3]], [1]),  # a range cut in two
    ([(1, 3)], [], [3]),
    ([(3, 3), (1, 1)], [[2, 2]], [1, 1]),
    ([(2, 3), (2, 2)], [[1, 1]], [2, None]),  # none of it assigned any more: refused
])
def test_the_manager_takes_sentences_back(site, cuts, ranges, removed):
    """What an annotator wrote in sentences taken back stays in their layer, for the
    curator; their list and the manager's progress lose them."""
    bob, boss = site.client("bob"), site.client("boss")
    bob.put("/api/sentences/2", json={"version": bob.get("/api/sentences/2").json()["version"],
                                      "edits": [GOES]})
    for (first, last), count in zip(cuts, removed, strict=True):
        answer = boss.post("/api/assignments/remove",
                           json={"user": "bob", "first": first, "last": last})
        if count is None:
            assert answer.status_code == 400
            assert "none of sentences 2–2 is assigned to bob" in answer.json()["error"]
        else:
            assert answer.status_code == 200 and answer.json()["removed"] == count
    listed = [s["number"] for s in bob.get("/api/sentences").json()["sentences"]]
    assert listed == [n for first, last in ranges for n in range(first, last + 1)]
    row = next(p for p in boss.get("/api/progress").json()["annotators"] if p["user"] == "bob")
    assert row["ranges"] == ranges
    assert GOES in (site.root / "layers/bob.m2").read_text(encoding="utf-8")
    if 2 not in listed:
        assert bob.put("/api/sentences/2", json={"version": "x", "edits": []}
                       ).status_code == 403


@pytest.mark.parametrize("after", range(5))
def test_two_cuts_at_once_both_hold(site, after):
    """Two managers take back 1 and 3 of bob's 1-3 at once: the second cut made after any
    statement of the first, both hold."""
    import sqlite3

    from m2lsp.web.assignments import assigned, unassign
    from m2lsp.web.project import open_project

    project = open_project(site.root)
    db = sqlite3.connect(site.root / "m2lsp-web.sqlite3", isolation_level=None)
    done = []

    class Interleaved:  # the other cut, right after this one's statement number `after`
        def execute(self, sql, *args):
            rows = db.execute(sql, *args)
            done.append(sql)
            if len(done) == after + 1:
                unassign(db, project, {"user": "bob", "first": 3, "last": 3})
            return rows

    unassign(Interleaved(), project, {"user": "bob", "first": 1, "last": 1})
    assert len(done) > after  # the other cut was made
    assert assigned(db, "bob") == [2]


@pytest.mark.parametrize(("numbers", "ranges"), [
    ([], []), ([4], [[4, 4]]), ([1, 2, 3, 7], [[1, 3], [7, 7]]), ([2, 4, 5], [[2, 2], [4, 5]]),
])
def test_the_manager_sees_assignments_as_ranges(numbers, ranges):
    from m2lsp.web.assignments import ranges as ranges_of

    assert ranges_of(numbers) == ranges


def _save(client, number, lines):
    version = client.get(f"/api/sentences/{number}").json()["version"]
    answer = client.put(f"/api/sentences/{number}", json={"version": version, "edits": lines})
    assert answer.status_code == 200, answer.text


NOOP = "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"


def test_the_files_pass_check_and_the_curator_curates_them(site, capsys):
    ann, bob = site.client("ann"), site.client("bob")
    _save(ann, 1, [EDIT])
    _save(bob, 1, [EDIT])
    _save(ann, 2, ["A 1 2|||R:VERB|||goes|||REQUIRED|||-NONE-|||0"])
    _save(bob, 2, [NOOP])
    for name in ("ann", "bob"):
        assert main(["check", str(site.root / f"layers/{name}.m2")]) == 0
    cur = site.client("cur")
    layers = cur.get("/api/layers/2").json()["layers"]
    assert layers["ann"]["edits"] == ["A 1 2|||R:VERB|||goes|||REQUIRED|||-NONE-|||0"]
    assert layers["bob"]["edits"] == [NOOP]
    took = cur.post("/api/curation/2", json={"action": "take", "value": "ann"})
    assert took.status_code == 200, took.text
    assert took.json()["state"] == "decided"
    gold = site.root / "gold.m2"
    assert "|||goes|||" in gold.read_text() and "|||is|||" in gold.read_text()
    assert (site.root / "gold.m2.curation.jsonl").is_file()
    # the command line continues the same curation
    assert main(["curate", str(gold), "--status"]) == 1
    assert "decided" in capsys.readouterr().out


def test_a_decision_the_curation_cannot_make_is_refused(site):
    answer = site.client("cur").post("/api/curation/1", json={"action": "take",
                                                               "value": "nobody"})
    assert answer.status_code == 400 and not (site.root / "gold.m2").exists()


def test_logout_ends_the_session(site):
    ann = site.client("ann")
    assert ann.post("/logout").status_code == 200
    assert ann.get("/api/me").status_code == 401


@pytest.mark.parametrize(("sentence", "status"), [
    ("S He go home .\n", 200),  # another sentence: the save is made on the file as it is
    ("S This are a test .\n", 409),  # the sentence saved: refused, the editor's kept
])
def test_a_layer_changed_on_disk_while_saving_loses_nothing(site, monkeypatch, sentence,
                                                              status):
    import m2lsp.web.layers as layers

    ann = site.client("ann")
    version = ann.get("/api/sentences/1").json()["version"]
    layer = site.root / "layers/ann.m2"
    by_editor = layer.read_text().replace(sentence, sentence + NOOP + "\n")
    made = layers._new_lines

    def meanwhile(found, change, *engines):  # an editor saves the file meanwhile
        layer.write_text(by_editor)
        return made(found, change, *engines)

    monkeypatch.setattr(layers, "_new_lines", meanwhile)
    answer = ann.put("/api/sentences/1", json={"version": version, "edits": [EDIT]})
    assert answer.status_code == status
    expected = by_editor.replace("S This are a test .\n", "S This are a test .\n" + EDIT +
                                 "\n") if status == 200 else by_editor
    assert layer.read_text() == expected


def test_a_layer_changed_on_disk_just_before_a_save_is_written_is_not_overwritten(
        site, monkeypatch):
    import m2lsp.files.writing as writing

    ann = site.client("ann")
    version = ann.get("/api/sentences/1").json()["version"]
    layer = site.root / "layers/ann.m2"
    by_editor = layer.read_text().replace("S He go home .\n", "S He go home .\n" + NOOP +
                                          "\n")
    opened = writing.atomic_open

    def meanwhile(path, **kwargs):  # after the server read the file, before it writes
        layer.write_text(by_editor)
        return opened(path, **kwargs)

    monkeypatch.setattr(writing, "atomic_open", meanwhile)
    answer = ann.put("/api/sentences/1", json={"version": version, "edits": [EDIT]})
    assert answer.status_code == 409 and layer.read_text() == by_editor


def test_secure_cookies_behind_tls_and_saves_in_the_event_history(tmp_path):
    import sqlite3

    from m2lsp.web.app import build_app
    from tests.web.project import Team, password

    plain = team(tmp_path)
    site = Team(plain.root, build_app(plain.root, secure=True, types=False))
    answer = site.client().post("/login", json={"name": "ann", "password": password("ann")})
    assert "secure" in answer.headers["set-cookie"].lower()
    _save(plain.client("ann"), 1, [EDIT])
    events = list(sqlite3.connect(plain.root / "m2lsp-web.sqlite3").execute(
        "SELECT user, action, sentence FROM events WHERE action = 'save'"))
    assert events == [("ann", "save", 1)]


def test_the_curator_asks_for_a_sentence_that_is_not_there(site):
    assert site.client("cur").get("/api/layers/9").status_code == 404


def test_the_curator_accepts_what_all_annotators_agree_on(site):
    ann, bob = site.client("ann"), site.client("bob")
    two = "A 1 2|||R:VERB|||goes|||REQUIRED|||-NONE-|||0"
    _save(ann, 2, [two])
    _save(bob, 2, [two, "A 2 3|||R:NOUN|||house|||REQUIRED|||-NONE-|||0"])
    done = site.client("cur").post("/api/curation", json={"action": "accept-agreed"})
    assert done.status_code == 200, done.text
    gold = (site.root / "gold.m2").read_text().split("\n\n")[1]
    assert "|||goes|||" in gold and "house" not in gold


class _Recording:
    """A connection that remembers every statement run through it."""

    def __init__(self, db):
        self.db, self.statements, self.on_loop = db, [], []

    def execute(self, sql, *args):
        import asyncio

        self.statements.append(sql)
        try:
            self.on_loop.append(asyncio.get_running_loop() is not None)
        except RuntimeError:  # a worker thread: no loop runs there
            self.on_loop.append(False)
        return self.db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.db, name)


def test_writes_and_their_events_never_wait_for_the_disk_on_the_event_loop(site):
    """The loop's own connection reads sessions; every write a page asks for (a save, an
    edit's type, a note, an assignment, a curation decision) and its event go through the
    journal's, from a worker thread."""
    import sqlite3

    ann, cur, boss = site.client("ann"), site.client("cur"), site.client("boss")
    served = site.app.state.site
    loop, journal = _Recording(served.db), _Recording(served.journal)
    served.db, served.journal = loop, journal
    version = ann.get("/api/sentences/1").json()["version"]
    saved = ann.put("/api/sentences/1", json={"version": version, "edits": [EDIT]})
    assert saved.status_code == 200
    assert ann.post("/api/sentences/1/type", json={
        "version": saved.json()["version"], "edit": 0, "type": "R:VERB"}).status_code == 200
    assert ann.post("/api/sentences/1/notes", json={"text": "hm", "unsure": True}
                    ).status_code == 200
    assert boss.post("/api/assignments", json={"user": "ann", "first": 3, "last": 3}
                     ).status_code == 201
    assert cur.post("/api/curation/1", json={"action": "correct"}).status_code == 200
    assert not [s for s in loop.statements if s.lstrip().upper().startswith("INSERT")]
    db = sqlite3.connect(site.root / "m2lsp-web.sqlite3")
    logged = [a for (a,) in db.execute("SELECT action FROM events WHERE action != 'login'")]
    assert logged == ["save", "retype", "note", "assign:ann:3-3", "curate:correct"]
    # the test client runs the loop in a thread of its own (not the main one): whether a
    # loop runs in the statement's thread tells the loop's from a worker's
    assert any(loop.on_loop) and journal.on_loop and not any(journal.on_loop)


def _on_loop() -> bool:
    import asyncio

    try:
        return asyncio.get_running_loop() is not None
    except RuntimeError:  # a worker thread: no loop runs there
        return False


@pytest.mark.parametrize(("who", "method", "path", "body"), [
    ("boss", "GET", "/api/progress", None),  # every layer: seconds, cold, at 50,000
    ("cur", "POST", "/api/curation/1", {"action": "correct"}),  # the whole curation
    ("cur", "GET", "/api/curating", None),
])
def test_what_reads_every_layer_runs_off_the_event_loop(site, who, method, path, body):
    store = site.app.state.site.project.store
    read, on_loop = store.get, []

    def get(path):
        if path.parent.name == "layers":
            on_loop.append(_on_loop())
        return read(path)

    store.get = get
    answer = site.client(who).request(method, path, json=body)
    assert answer.status_code == 200, answer.text
    assert on_loop and not any(on_loop)
