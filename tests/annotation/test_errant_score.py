"""`m2lsp score --metric errant HYP.txt REF.m2` prints what errant_parallel followed by
errant_compare print, for errant_compare's flags; an M2 hypothesis scores as before."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from tests.annotation.conftest import m2lsp, recorded_outputs, run_reference, spacy_model
from tests.conftest import shared

# errant_compare's flags -> m2lsp score's
FLAGS = {
    "default": ([], []),
    "cse": (["-cse"], ["--cse"]),
    "dt": (["-dt"], ["--dt"]),
    "ds-cat2": (["-ds", "-cat", "2"], ["--ds", "--cat", "2"]),
    "single-beta": (["-single", "-b", "1.0"], ["--single", "--beta", "1.0"]),
    "multi-filt": (["-multi", "-filt", "R:OTHER", "M:PUNCT"],
                   ["--multi", "--filt", "R:OTHER", "M:PUNCT"]),
    "cat3": (["-cat", "3"], ["--per-type"]),
    "verbose": (["-v"], ["-v"]),
}


@pytest.fixture(scope="module")
def two_steps(tmp_path_factory) -> dict:
    model = spacy_model()
    gold = shared("conll2014/gold/official-2014.combined.m2")
    camb = shared("conll2014/systems/CAMB")
    where = tmp_path_factory.mktemp("two-steps")
    source = where / "source.txt"
    source.write_text("".join(line[2:] for line in gold.read_text("utf-8").splitlines(True)
                              if line.startswith("S ")), encoding="utf-8")
    hyp = where / "camb.m2"
    recorded = recorded_outputs()
    if recorded is not None and (recorded / "source.txt").read_bytes() == source.read_bytes():
        shutil.copyfile(recorded / "CAMB.alone.m2", hyp)  # what errant_parallel wrote
        runs = []
    else:
        runs = [["errant_parallel", "-orig", str(source), "-cor", str(camb), "-out", str(hyp)]]
    runs += [[f"stdout={where / name}.txt", "compare", "-hyp", str(hyp), "-ref", str(gold),
              *errant] for name, (errant, _) in FLAGS.items()]
    run_reference(model, runs, where)
    env = {**os.environ, "M2LSP_CACHE_DIR": str(where / "cache")}
    return {"model": model, "gold": gold, "camb": camb, "where": where, "hyp": hyp,
            "env": env, "source": source}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(FLAGS))
def test_one_step_prints_what_the_two_steps_print(two_steps, name):
    done = m2lsp("score", "--metric", "errant", str(two_steps["camb"]), str(two_steps["gold"]),
                 "--spacy-model", two_steps["model"], *FLAGS[name][1], env=two_steps["env"])
    assert done.returncode == 0, done.stderr
    assert done.stdout == (two_steps["where"] / f"{name}.txt").read_text("utf-8")
    assert "annotator:errant-3.0.2|spacy-model:en_core_web_sm" in done.stderr


def test_an_m2_hypothesis_scores_as_the_reference_annotation_of_the_text(two_steps):
    done = m2lsp("score", "--metric", "errant", str(two_steps["hyp"]), str(two_steps["gold"]),
                 env=two_steps["env"])
    assert done.stdout == (two_steps["where"] / "default.txt").read_text("utf-8")
    assert "annotator:" not in done.stderr  # nothing was annotated


def test_source_json_and_bootstrap(two_steps):
    """--source names the source instead of the S lines; JSON carries the signature."""
    done = m2lsp("score", "--metric", "errant", str(two_steps["camb"]), str(two_steps["gold"]),
                 "--source", str(two_steps["source"]), "--spacy-model", two_steps["model"],
                 "--format", "json", "--bootstrap", "50", env=two_steps["env"])
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert "spacy-model:en_core_web_sm" in data["signature"]
    assert data["bootstrap"]


@pytest.mark.slow
def test_compare_takes_plain_text(two_steps):
    amu = shared("conll2014/systems/AMU")
    done = m2lsp("compare", str(two_steps["camb"]), str(amu), str(two_steps["gold"]),
                 "--metric", "errant", "--spacy-model", two_steps["model"], "--samples",
                 "100", env=two_steps["env"])
    assert done.returncode == 0, done.stderr
    camb_f = (two_steps["where"] / "default.txt").read_text("utf-8").split()[-2]
    assert f"CAMB  F_0.5 = {camb_f}" in done.stdout
    assert "spacy-model:en_core_web_sm" in done.stdout


def test_tok_that_changes_a_sentences_tokens_is_said_once(tmp_path):
    """--tok tokenises the source again; where spaCy cuts a gold sentence otherwise, the
    error says so, naming the gold once (it named it twice and never said --tok)."""
    model = spacy_model()
    gold_text = shared("conll2014/gold/official-2014.combined.m2").read_text("utf-8")
    gold = tmp_path / "gold.m2"
    gold.write_text("".join(b + "\n\n" for b in gold_text.split("\n\n")[:20]), "utf-8")
    camb = tmp_path / "camb.txt"
    camb.write_text("".join(shared("conll2014/systems/CAMB").read_text("utf-8")
                            .splitlines(True)[:20]), "utf-8")
    done = m2lsp("score", str(camb), str(gold), "--metric", "errant", "--tok",
                 "--spacy-model", model)
    assert done.returncode == 2
    error = done.stderr.strip().splitlines()[-1]
    assert error.startswith("m2lsp: error: --tok tokenised the source sentences again")
    assert error.count(str(gold)) == 1 and "sentence 16" in error
