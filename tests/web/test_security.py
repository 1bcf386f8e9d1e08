"""Every refusal over HTTP: each request is refused with its status AND leaves the files
and the database as they were."""

from __future__ import annotations

import sqlite3

import pytest

pytest.importorskip("starlette")

from tests.web.project import password, team

EDIT = "A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0"
STALE = {"version": "0000000000000000", "edits": [EDIT]}
SYSTEM = {"system": "This is a test .\nHe goes home .\nShe likes cats .\n"}
SUGGESTED = {"name": "sys", "format": "text", **{"text": SYSTEM["system"]}}
SPLIT = {"version": "0000000000000000", "token": 0, "pieces": "Th is"}
JOIN = {"version": "0000000000000000", "start": 0, "end": 2}
SOURCE = {"text": "He go home .\nShe like cats .\n", "tokenised": True}
DECISION = {"id": "0123456789ab", "decision": "accept", "version": "0000000000000000"}

# (who, method, path, body or raw bytes, extra headers or None to drop the CSRF header,
#  status)
CASES = [
    ("no session: read", None, "GET", "/api/sentences/1", None, {}, 401),
    ("no session: save", None, "PUT", "/api/sentences/1", STALE, {}, 401),
    ("no session: curate", None, "POST", "/api/curation/1", {"action": "correct"}, {}, 401),
    ("no session: assign", None, "POST", "/api/assignments",
     {"user": "ann", "first": 3, "last": 3}, {}, 401),
    ("wrong role: annotator curates", "ann", "POST", "/api/curation/1",
     {"action": "correct"}, {}, 403),
    ("wrong role: annotator assigns", "ann", "POST", "/api/assignments",
     {"user": "ann", "first": 3, "last": 3}, {}, 403),
    ("wrong role: annotator unassigns", "ann", "POST", "/api/assignments/remove",
     {"user": "bob", "first": 1, "last": 3}, {}, 403),
    ("wrong role: curator unassigns", "cur", "POST", "/api/assignments/remove",
     {"user": "bob", "first": 1, "last": 3}, {}, 403),
    ("wrong role: curator saves a layer", "cur", "PUT", "/api/sentences/1", STALE, {}, 403),
    ("wrong role: manager reads layers", "boss", "GET", "/api/layers/1", None, {}, 403),
    ("another annotator's layer", "ann", "GET", "/api/layers/1", None, {}, 403),
    ("a sentence not assigned", "ann", "PUT", "/api/sentences/3", STALE, {}, 403),
    ("missing CSRF token", "ann", "PUT", "/api/sentences/1", STALE, None, 403),
    ("wrong CSRF token", "ann", "PUT", "/api/sentences/1", STALE,
     {"X-CSRF-Token": "forged"}, 403),
    ("missing CSRF token: logout", "ann", "POST", "/logout", None, None, 403),
    ("missing CSRF token: a quick fix", "ann", "POST", "/api/sentences/1/fix",
     {"version": "x", "finding": 0}, None, 403),
    ("missing CSRF token: unassign", "boss", "POST", "/api/assignments/remove",
     {"user": "bob", "first": 1, "last": 3}, None, 403),
    ("a quick fix on a sentence not assigned", "ann", "POST", "/api/sentences/3/fix",
     {"version": "x", "finding": 0}, {}, 403),
    ("wrong role: curator fixes a layer", "cur", "POST", "/api/sentences/1/fix",
     {"version": "x", "finding": 0}, {}, 403),
    ("not JSON: a form", "ann", "PUT", "/api/sentences/1", b"version=x",
     {"Content-Type": "application/x-www-form-urlencoded"}, 415),
    ("path traversal: sentence", "ann", "GET", "/api/sentences/..%2F..%2Fproject.toml",
     None, {}, 404),
    ("path traversal: sentence, raw", "ann", "GET", "/api/sentences/../../etc/passwd",
     None, {}, 404),
    ("path traversal: assigned user", "boss", "POST", "/api/assignments",
     {"user": "../../project", "first": 1, "last": 1}, {}, 400),
    ("path traversal: taken annotator", "cur", "POST", "/api/curation/1",
     {"action": "take", "value": "../layers/ann"}, {}, 400),
    ("path traversal: login name", None, "POST", "/login",
     {"name": "../ann", "password": "x"}, {}, 400),
    ("no such sentence", "ann", "GET", "/api/sentences/99", None, {}, 403),
    ("oversized body", "ann", "PUT", "/api/sentences/1",
     {"version": "x", "edits": ["A" * (1024 * 1024)]}, {}, 413),
    ("stale version", "ann", "PUT", "/api/sentences/1", STALE, {}, 409),
    ("a body not JSON", "ann", "PUT", "/api/sentences/1", b"{",
     {"Content-Type": "application/json"}, 400),
    # live updates, suggestions, the dashboard, scoring, export
    ("no session: events", None, "GET", "/api/events", None, {}, 401),
    ("no session: agreement", None, "GET", "/api/agreement", None, {}, 401),
    ("no session: score", None, "POST", "/api/score", SYSTEM, {}, 401),
    ("no session: export", None, "GET", "/api/export/gold", None, {}, 401),
    ("no session: suggestion sets", None, "GET", "/api/suggestions", None, {}, 401),
    ("no session: load suggestions", None, "POST", "/api/suggestions", SUGGESTED, {}, 401),
    ("no session: a suggestion", None, "POST", "/api/suggestions/1", DECISION, {}, 401),
    ("wrong role: annotator reads agreement", "ann", "GET", "/api/agreement", None, {}, 403),
    ("wrong role: annotator scores", "ann", "POST", "/api/score", SYSTEM, {}, 403),
    ("wrong role: annotator exports the gold", "ann", "GET", "/api/export/gold", None, {},
     403),
    ("wrong role: annotator loads suggestions", "ann", "POST", "/api/suggestions", SUGGESTED,
     {}, 403),
    ("wrong role: curator loads suggestions", "cur", "POST", "/api/suggestions", SUGGESTED,
     {}, 403),
    ("wrong role: manager lists a sentence's suggestions", "boss", "GET",
     "/api/suggestions/1", None, {}, 403),
    ("wrong role: curator decides a suggestion", "cur", "POST", "/api/suggestions/1",
     DECISION, {}, 403),
    ("another annotator's layer: export", "ann", "GET", "/api/export/bob", None, {}, 403),
    ("a sentence not assigned: suggestions", "ann", "GET", "/api/suggestions/3", None, {},
     403),
    ("a sentence not assigned: a suggestion", "ann", "POST", "/api/suggestions/3", DECISION,
     {}, 403),
    ("missing CSRF token: score", "cur", "POST", "/api/score", SYSTEM, None, 403),
    ("missing CSRF token: load suggestions", "boss", "POST", "/api/suggestions", SUGGESTED,
     None, 403),
    ("missing CSRF token: a suggestion", "ann", "POST", "/api/suggestions/1", DECISION, None,
     403),
    ("path traversal: export", "cur", "GET", "/api/export/..%2Fproject.toml", None, {}, 404),
    ("path traversal: export, raw", "cur", "GET", "/api/export/../../etc/passwd", None, {},
     404),
    ("path traversal: export, a dotted name", "cur", "GET", "/api/export/..", None, {}, 404),
    ("path traversal: suggestion set", "boss", "POST", "/api/suggestions",
     {**SUGGESTED, "name": "../layers/ann"}, {}, 400),
    ("oversized body: score", "cur", "POST", "/api/score",
     {"system": "x" * (1024 * 1024)}, {}, 413),
    ("no such suggestion", "ann", "POST", "/api/suggestions/1", DECISION, {}, 400),
    ("a score without a gold", "cur", "POST", "/api/score", SYSTEM, {}, 400),
    # fixing the source's tokens
    ("no session: split", None, "POST", "/api/sentences/1/split", SPLIT, {}, 401),
    ("no session: join", None, "POST", "/api/sentences/1/join", JOIN, {}, 401),
    ("wrong role: curator splits", "cur", "POST", "/api/sentences/1/split", SPLIT, {}, 403),
    ("wrong role: manager joins", "boss", "POST", "/api/sentences/1/join", JOIN, {}, 403),
    ("a sentence not assigned: split", "ann", "POST", "/api/sentences/3/split", SPLIT, {},
     403),
    ("missing CSRF token: split", "ann", "POST", "/api/sentences/1/split", SPLIT, None, 403),
    ("missing CSRF token: join", "ann", "POST", "/api/sentences/1/join", JOIN, None, 403),
    ("stale version: split", "ann", "POST", "/api/sentences/1/split", SPLIT, {}, 409),
    ("stale version: join", "ann", "POST", "/api/sentences/1/join", JOIN, {}, 409),
    # the sentences a manager loads, what there is to export
    ("no session: load the sentences", None, "POST", "/api/source", SOURCE, {}, 401),
    ("wrong role: annotator loads the sentences", "ann", "POST", "/api/source", SOURCE, {},
     403),
    ("wrong role: curator loads the sentences", "cur", "POST", "/api/source", SOURCE, {},
     403),
    ("missing CSRF token: load the sentences", "boss", "POST", "/api/source", SOURCE, None,
     403),
    ("not JSON: the sentences as a form", "boss", "POST", "/api/source", b"text=x",
     {"Content-Type": "application/x-www-form-urlencoded"}, 415),
    ("oversized body: the sentences", "boss", "POST", "/api/source",
     {"text": "x\n" * (512 * 1024)}, {}, 413),
    ("the sentences over a project that has them", "boss", "POST", "/api/source", SOURCE, {},
     400),
    ("no session: exports", None, "GET", "/api/exports", None, {}, 401),
    ("wrong role: annotator lists the exports", "ann", "GET", "/api/exports", None, {}, 403),
]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return team(tmp_path_factory.mktemp("security"))


@pytest.mark.parametrize(("who", "method", "path", "body", "headers", "status"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_refused_and_nothing_changed(site, who, method, path, body, headers, status):
    client = site.client(who) if who else site.client()
    if headers is None:
        del client.headers["X-CSRF-Token"]
    before = site.state()
    kwargs = {"content": body} if isinstance(body, bytes) else {"json": body}
    answer = client.request(method, path, headers=headers or {}, **kwargs)
    assert answer.status_code == status, answer.text
    assert site.state() == before


def test_a_stale_version_answers_with_the_current_one(site):
    answer = site.client("ann").put("/api/sentences/1", json=STALE)
    assert answer.status_code == 409
    assert answer.json()["current"]["tokens"][:2] == ["This", "are"]


def test_a_body_larger_than_announced_is_cut_off(site):
    def chunks():
        for _ in range(20):
            yield b"x" * 65536 * 2

    client = site.client("ann")
    before = site.state()
    answer = client.put("/api/sentences/1", content=chunks(),
                        headers={"Content-Type": "application/json"})
    assert answer.status_code == 413 and site.state() == before


def test_logins_are_rate_limited_per_user_and_per_address(tmp_path):
    site = team(tmp_path)
    client = site.client()
    wrong = [client.post("/login", json={"name": "bob", "password": "wrong-pw"}).status_code
             for _ in range(6)]
    assert wrong == [401] * 5 + [429]
    right = client.post("/login", json={"name": "bob", "password": password("bob")})
    assert right.status_code == 429  # the name is blocked for the minute
    other = client.post("/login", json={"name": "cur", "password": password("cur")})
    assert other.status_code == 429  # so is the address that tried


def test_passwords_are_kept_as_argon2_hashes_only(site):
    db = sqlite3.connect(site.root / "m2lsp-web.sqlite3")
    rows = list(db.execute("SELECT name, hash FROM users"))
    dump = "\n".join(db.iterdump())
    db.close()
    assert rows and all(h.startswith("$argon2id$") for _, h in rows)
    assert not any(password(name) in dump for name, _ in rows)
    assert all(password(name).encode() not in p.read_bytes()
               for p in site.root.rglob("*") if p.is_file() for name, _ in rows)


def test_the_session_cookie_is_httponly_and_samesite_strict(site):
    answer = site.client().post("/login", json={"name": "ann", "password": password("ann")})
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "secure" not in cookie
