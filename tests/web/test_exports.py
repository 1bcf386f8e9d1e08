"""Export: the gold and each layer as M2 (passing `m2lsp check`), BEA-2019 JSON and brat,
byte for byte what `m2lsp convert` writes from the same file."""

from __future__ import annotations

import io
import zipfile

import pytest

pytest.importorskip("starlette")

from m2lsp.cli import main
from tests.web.project import team

SVA = "A 1 2|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0"
TWO = "A 1 2|||R:VERB:SVA|||goes||went|||REQUIRED|||-NONE-|||0"


def _save(client, number, lines):
    version = client.get(f"/api/sentences/{number}").json()["version"]
    answer = client.put(f"/api/sentences/{number}", json={"version": version, "edits": lines})
    assert answer.status_code == 200, answer.text


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    site = team(tmp_path_factory.mktemp("exports"))
    ann, bob = site.client("ann"), site.client("bob")
    _save(ann, 1, [SVA])
    _save(bob, 1, [SVA])
    _save(bob, 2, [TWO])  # two alternatives: BEA-2019 JSON holds one
    assert site.client("cur").post("/api/curation", json={"action": "accept-agreed"}
                                   ).status_code == 200
    return site


def test_the_gold_as_m2_is_the_file_and_passes_check(site, tmp_path):
    answer = site.client("cur").get("/api/export/gold", params={"format": "m2"})
    assert answer.status_code == 200
    assert answer.content == (site.root / "gold.m2").read_bytes()
    assert 'filename="project-gold.m2"' in answer.headers["content-disposition"]
    path = tmp_path / "gold.m2"
    path.write_bytes(answer.content)
    assert main(["check", str(path)]) == 0


def test_a_layer_as_bea_json_is_m2lsp_convert(site, capsys):
    answer = site.client("ann").get("/api/export/ann", params={"format": "bea-json"})
    assert answer.status_code == 200, answer.text
    capsys.readouterr()
    assert main(["convert", str(site.root / "layers/ann.m2"), "--to", "bea-json"]) == 0
    assert answer.text == capsys.readouterr().out


def test_the_gold_as_brat_is_m2lsp_convert_zipped(site, tmp_path):
    answer = site.client("boss").get("/api/export/gold", params={"format": "brat"})
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/zip"
    files = zipfile.ZipFile(io.BytesIO(answer.content))
    out = tmp_path / "brat"
    assert main(["convert", str(site.root / "gold.m2"), "--to", "brat", "-o",
                 str(out / "project-gold.ann")]) == 0
    written = {p.name: p.read_text() for p in out.iterdir()}
    assert {n: files.read(n).decode() for n in files.namelist()} == written
    assert set(written) >= {"project-gold.txt", "project-gold.ann", "annotation.conf"}


def test_what_a_format_cannot_hold_refuses_the_export_unless_skipped(site):
    cur = site.client("cur")
    refused = cur.get("/api/export/bob", params={"format": "bea-json"})
    assert refused.status_code == 400 and "alternative" in refused.json()["error"]
    skipped = cur.get("/api/export/bob", params={"format": "bea-json", "skip": "1"})
    assert skipped.status_code == 200 and skipped.headers["x-m2lsp-skipped"] == "1"


@pytest.mark.parametrize(("who", "which", "kind", "status"), [
    ("cur", "nobody", "m2", 404),
    ("cur", "ann", "docx", 400),
    ("cur", "ann", "m2", 200),
])
def test_an_export_names_a_layer_and_a_format(site, who, which, kind, status):
    answer = site.client(who).get(f"/api/export/{which}", params={"format": kind})
    assert answer.status_code == status, answer.text


def test_there_is_no_gold_to_export_before_curation(tmp_path):
    assert team(tmp_path).client("cur").get("/api/export/gold").status_code == 404


def test_the_page_learns_what_there_is_to_export(site, tmp_path):
    listed = {"gold": True, "layers": ["ann", "bob"], "formats": ["m2", "bea-json", "brat"],
              "unfinished": 2}  # sentences 2 and 3 still to curate: the page says so
    assert site.client("boss").get("/api/exports").json() == listed
    before = team(tmp_path).client("cur").get("/api/exports").json()
    assert before == {**listed, "gold": False, "unfinished": 0}
