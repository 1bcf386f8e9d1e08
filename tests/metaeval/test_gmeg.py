"""GMEG-Data as a meta-evaluation dataset (`--dataset gmeg`): its release's layout, made
here in small (the release is not among the shared data: set M2LSP_GMEG_DATA to a checkout
of grammarly/GMEG to run the last test on it), read, scored, rated, mixed into synthetic
systems; and what is refused."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from m2lsp.cli import main

SOURCE = ["a b c .", "d e f .", "g h i .", "j k l ."]
FIXED = ["a b C .", "d e F .", "g h I .", "j k L ."]
# each system fixes the first k sentences; the ratings follow how many it fixed
FIXES = {"amu": 0, "lstm": 1, "lstm-r": 2, "marian": 3, "nus": 4, "transformer": 2}


def release(root: Path, yahoo_text: bool = False) -> Path:
    split = root / "data" / "test"
    for domain in ("fce", "yahoo") if yahoo_text else ("fce",):
        texts = split / domain
        texts.mkdir(parents=True)
        (texts / "source").write_text("\n".join(SOURCE) + "\n", "utf-8")
        for k in range(4):
            (texts / f"ref{k}").write_text("\n".join(FIXED) + "\n", "utf-8")
        for system, fixes in FIXES.items():
            lines = FIXED[:fixes] + SOURCE[fixes:]
            (texts / system).write_text("\n".join(lines) + "\n", "utf-8")
    systems = [*FIXES, "ref", "source"]
    (split / "fce-corpus-scores.csv").write_text("system,score\n" + "".join(
        f"{s},{60 + 5 * FIXES.get(s, 5 if s == 'ref' else -1)}\n" for s in systems), "utf-8")
    rows = [",".join(str(80 if i < FIXES.get(s, 4 if s == "ref" else 0) else 60)
                     if not (i == 3 and s == "amu") else "" for s in systems)
            for i in range(4)]
    (split / "fce-segment-scores.csv").write_text(",".join(systems) + "\n"
                                                  + "\n".join(rows) + "\n", "utf-8")
    (split / "yahoo-corpus-scores.csv").write_text("system,score\n", "utf-8")
    return root


def meta(capsys, *args: str) -> dict:
    assert main(["meta-eval", "--dataset", "gmeg", "--format", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_release_is_read_scored_and_rated(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("M2LSP_CACHE_DIR", str(tmp_path / "cache"))
    root = release(tmp_path / "gmeg")
    found = meta(capsys, "--data", str(root), "--metric", "m2")
    assert found["signature"] == "META-EVAL|gmeg|fce|test|systems:base|n:6"
    level = found["metrics"][0]["system_level"]["rating"]
    assert level["spearman"] == pytest.approx(1.0)  # M2 orders them as the ratings do
    assert found["metrics"][0]["sentence_level"]["rating"]["accuracy"] > 0.5
    assert len(list((tmp_path / "cache").rglob("gmeg/*.m2"))) == 1  # the gold, made once


def test_the_source_as_a_seventh_system(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("M2LSP_CACHE_DIR", str(tmp_path / "cache"))
    found = meta(capsys, "--data", str(release(tmp_path / "g")), "--metric", "m2",
                 "--systems", "+source")
    assert list(found["metrics"][0]["scores"])[-1] == "source"


def test_synthetic_systems_mix_the_systems_sentences(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("M2LSP_CACHE_DIR", str(tmp_path / "cache"))
    root = release(tmp_path / "g")
    found = meta(capsys, "--data", str(root), "--metric", "m2", "--synthetic", "30",
                 "--seed", "3")
    assert found["signature"].startswith("META-EVAL|gmeg|fce|test|synthetic:30|seed:3|")
    scores = found["metrics"][0]["scores"]
    assert len(scores) == 36 and all(0.0 <= v <= 1.0 for v in scores.values())
    again = meta(capsys, "--data", str(root), "--metric", "m2", "--synthetic", "30",
                 "--seed", "3")
    assert again == found


@pytest.mark.parametrize(("args", "said"), [
    (["--metric", "gleu", "--synthetic", "5"], "gleu has no per-sentence statistics"),
    (["--metric", "m2", "--synthetic", "5", "--aggregation", "trueskill"],
     "does not go with --aggregation"),
    (["--metric", "m2", "--domain", "yahoo"], "given on request"),
    (["--metric", "m2", "--systems", "+INPUT"], "GMEG's system sets are base, +source"),
    (["--metric", "m2", "--split", "dev"], "no GMEG-Data release here"),
])
def test_what_is_refused(tmp_path, capsys, monkeypatch, args, said) -> None:
    monkeypatch.setenv("M2LSP_CACHE_DIR", str(tmp_path / "cache"))
    root = release(tmp_path / "g", yahoo_text=False)
    assert main(["meta-eval", "--dataset", "gmeg", "--data", str(root), *args]) == 2
    assert said in capsys.readouterr().err


def test_synthetic_is_gmegs(capsys) -> None:
    from tests.conftest import shared

    data = shared("meta-eval/seeda").parent
    assert main(["meta-eval", "--data", str(data), "--scores", "x=/dev/null",
                 "--synthetic", "3"]) == 2
    assert "give --dataset gmeg" in capsys.readouterr().err


def test_the_ratings_are_read_as_judgments(tmp_path) -> None:
    root = release(tmp_path / "g")
    from m2lsp.metaeval.datasets import load

    dataset = load("gmeg", root, "base", "fce", "test")
    ratings = dataset.judged["rating"]
    assert len(ratings) == 4
    assert ratings[3].scores(["amu", "nus"]) == [None, 80.0]  # amu's blank cell


@pytest.mark.skipif(not os.environ.get("M2LSP_GMEG_DATA"),
                    reason="set M2LSP_GMEG_DATA to a checkout of grammarly/GMEG")
def test_the_release(tmp_path, capsys, monkeypatch) -> None:
    """M2 (F0.5) on FCE's test split: over the six systems, and with the paper's 674
    synthetic systems (seeded here; the paper's own are unreleased, its Table 8 has r 0.860,
    rho 0.849)."""
    monkeypatch.setenv("M2LSP_CACHE_DIR", str(tmp_path / "cache"))
    data = os.environ["M2LSP_GMEG_DATA"]
    six = meta(capsys, "--data", data, "--metric", "m2")["metrics"][0]["system_level"]
    mixed = meta(capsys, "--data", data, "--metric", "m2", "--synthetic", "674")
    level = mixed["metrics"][0]["system_level"]["rating"]
    assert six["rating"]["pearson"] == pytest.approx(0.9177, abs=1e-4)
    assert level["pearson"] == pytest.approx(0.9018, abs=1e-4)
