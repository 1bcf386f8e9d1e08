"""The agreement dashboard and scoring in the page give what the command line prints on
the same files: GET /api/agreement is `m2lsp agree` (and `--against` the gold), POST
/api/score is `m2lsp score --format json`."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")

from m2lsp.cli import main
from tests.web.project import team

SVA = "A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0"
GOES = "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0"
HOUSE = "A 2 3|||R:NOUN|||house|||REQUIRED|||-NONE-|||0"
LIKES = "A 1 2|||R:VERB:SVA|||likes|||REQUIRED|||-NONE-|||0"


def _save(client, number, lines):
    version = client.get(f"/api/sentences/{number}").json()["version"]
    answer = client.put(f"/api/sentences/{number}", json={"version": version, "edits": lines})
    assert answer.status_code == 200, answer.text


@pytest.fixture(scope="module")
def curated(tmp_path_factory):
    """Two annotators' layers and a gold curated from them."""
    site = team(tmp_path_factory.mktemp("dashboard"))
    ann, bob, cur = site.client("ann"), site.client("bob"), site.client("cur")
    _save(ann, 1, [SVA])
    _save(bob, 1, [SVA])
    _save(ann, 2, [GOES])
    _save(bob, 2, [GOES, HOUSE])
    _save(bob, 3, [LIKES])
    assert cur.post("/api/curation", json={"action": "accept-agreed"}).status_code == 200
    assert cur.post("/api/curation/3", json={"action": "take", "value": "bob"}).status_code \
        == 200
    return site


def _cli(capsys, argv):
    capsys.readouterr()
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_the_agreement_dashboard_is_m2lsp_agree_on_the_layers(curated, capsys):
    shown = curated.client("boss").get("/api/agreement").json()
    layers = [str(curated.root / f"layers/{n}.m2") for n in ("ann", "bob")]
    assert shown["names"] == ["ann", "bob"]
    assert shown["pairs"] == _cli(capsys, ["agree", *layers, "--format", "json"])
    against = _cli(capsys, ["agree", "--against", str(curated.root / "gold.m2"), *layers,
                            "--format", "json"])
    assert shown["gold"] == against
    assert [p["forward"]["scored"] for p in shown["gold"]["pairs"]] == ["0", "1"]
    assert shown["pairs"]["pairs"][0]["needs_correction"]["kappa"] is not None
    assert shown["pairs"]["pairs"][0]["types"]  # per type


def test_the_agreement_takes_a_beta_and_refuses_a_bad_one(curated, capsys):
    cur = curated.client("cur")
    layers = [str(curated.root / f"layers/{n}.m2") for n in ("ann", "bob")]
    shown = cur.get("/api/agreement", params={"beta": "1"}).json()
    assert shown["pairs"] == _cli(capsys, ["agree", *layers, "--beta", "1", "--format",
                                           "json"])
    assert cur.get("/api/agreement", params={"beta": "-1"}).status_code == 400
    assert cur.get("/api/agreement", params={"metric": "gleu"}).status_code == 400


def test_a_system_scored_in_the_page_is_m2lsp_score(curated, capsys, tmp_path):
    system = "This is a test .\nHe goes house .\nShe like cat .\n"
    path = tmp_path / "system.txt"
    path.write_text(system)
    answer = curated.client("cur").post("/api/score", json={"system": system})
    assert answer.status_code == 200, answer.text
    shown = answer.json()
    printed = _cli(capsys, ["score", str(path), str(curated.root / "gold.m2"), "--format",
                            "json"])
    for key in ("system", "gold"):
        shown.pop(key), printed.pop(key)
    assert {k: shown[k] for k in printed} == printed
    sentences = shown["sentences"]
    assert [len(s["true_positives"]) for s in sentences] == [1, 1, 0]
    assert sentences[1]["false_positives"] and sentences[2]["false_negatives"]
    assert shown["sources"] == ["This are a test .", "He go home .", "She like cats ."]


@pytest.mark.parametrize(("body", "said"), [
    ({"system": "one line\n"}, "sentence"),
    ({"text": "x"}, "system"),
    ({"system": "x\ny\nz\n", "metric": "gleu"}, "metric"),
])
def test_a_score_that_cannot_be_made_is_refused(curated, body, said):
    answer = curated.client("cur").post("/api/score", json=body)
    assert answer.status_code == 400 and said in answer.json()["error"]


def test_without_a_gold_there_is_agreement_but_no_score(tmp_path):
    site = team(tmp_path)
    boss = site.client("boss")
    shown = boss.get("/api/agreement").json()
    assert shown["gold"] is None and shown["names"] == ["ann", "bob"]
    answer = boss.post("/api/score", json={"system": "a\nb\nc\n"})
    assert answer.status_code == 400 and "no gold" in answer.json()["error"]
