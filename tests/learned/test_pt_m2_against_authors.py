"""PT-M2 against the authors' scorer (pygongnlp/PT-M2, run beside from a copy of its
snapshot in ../shared/refs) on CoNLL-2014 outputs: with every edit
weighing 1 (`--scorer self`) the numbers are identical; with BERTScore weights (the test-made
BERT, its layer count and baseline file given to the authors' copy of bert-score) they
agree within float32 noise.

Tolerance.  The authors score each (sentence, reference) pair alone; m2lsp scores them in
padded batches, so one pair's BERTScore moves by up to about 1e-6.  A weight is a
difference of two of them, so sentence F agree within 5e-5 (3.2e-6 seen) and the corpus
numbers within 1e-5."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import m2lsp
from tests.conftest import refs

SENTENCE, CORPUS = 5e-5, 1e-5

# Runs in the authors' tree: their load_annotation and get_ref make each annotator's
# corrected sentence (what their reference files must hold); their PTM2 scores; a stand-in
# for batch_multi_pre_rec_f1_sent records each sentence's F as compute_sentm2 gets it.
DRIVER = r"""
import json, os, sys
from types import SimpleNamespace
root, scorer, model, layers, baseline, gold = sys.argv[1:7]
jobs = json.loads(sys.argv[7])
os.chdir(root)
sys.path[:0] = [root, os.path.join(root, "m2score")]
import torch
from m2scorer import load_annotation
from util import get_ref
import metrics
from bert_score import utils as bert_utils
bert_utils.model2layers[model] = int(layers)
sources, golds = load_annotation(gold)
references = [{a: get_ref(sorted([(g[0], g[1], g[2], g[-1][0]) for g in edits],
                                 key=lambda x: (x[0], x[1])), source)
               for a, edits in sentence.items()} for source, sentence in zip(sources, golds)]
metric = metrics.PTM2(SimpleNamespace(beta=0.5, device=torch.device("cpu"), model_type=model,
                                      scorer=scorer), corpus=None)
if metric.scorer is not None:
    metric.scorer.baseline_path = baseline
seen = []
real = metrics.batch_multi_pre_rec_f1_sent
def recording(*args, **kwargs):
    found = real(*args, **kwargs)
    seen.append(found[-1])
    return found
metrics.batch_multi_pre_rec_f1_sent = recording
out = []
for base, system in jobs:
    seen.clear()
    run = metric.compute_sentm2 if base == "sentm2" else metric.compute_m2
    score = run(m2_file=gold, hyp_file=system, sources=sources, references=references)
    out.append({"score": float(score), "sentences": list(seen)})
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def authors(tmp_path_factory) -> Path:
    snapshot = refs("pygongnlp/PT-M2")
    pytest.importorskip("tqdm", reason="the authors' scorer imports tqdm")
    folder = tmp_path_factory.mktemp("pt-m2") / "PT-M2"
    shutil.copytree(snapshot, folder)  # it writes beside its modules
    return folder


def _head(conll, folder: Path, count: int, names: tuple[str, ...]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    blocks = conll.gold.read_text(encoding="utf-8").split("\n\n")[:count]
    (folder / "gold.m2").write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    for name in names:
        (folder / name).write_text("\n".join(conll.systems[name][:count]) + "\n",
                                   encoding="utf-8")
    return folder


def _theirs(authors: Path, folder: Path, jobs: list[tuple[str, str]], scorer: str,
            model: str = "none", baseline: str = "none") -> list[dict]:
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, str(authors), scorer, model, "2", baseline,
         str(folder / "gold.m2"), json.dumps([[b, str(folder / s)] for b, s in jobs])],
        capture_output=True, text=True, env={**os.environ, "TQDM_DISABLE": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.mark.slow
def test_with_every_edit_weighing_one_it_is_identical(authors, conll, tmp_path) -> None:
    names = ("AMU", "CAMB", "CUUI")
    folder = _head(conll, tmp_path, 200, names)
    jobs = [(base, name) for name in names for base in ("sentm2", "m2")]
    for (base, name), theirs in zip(jobs, _theirs(authors, folder, jobs, "self"),
                                    strict=True):
        mine = m2lsp.score(str(folder / name), gold=str(folder / "gold.m2"), metric="pt-m2",
                           pt_m2_scorer="self", pt_m2_base=base)
        assert mine.score == theirs["score"], (base, name)
        if base == "sentm2":
            assert mine.data["sentence_scores"] == theirs["sentences"]


@pytest.mark.slow
def test_with_bertscore_weights_it_agrees(authors, conll, made, tmp_path) -> None:
    names = ("AMU", "CAMB")
    folder = _head(conll, tmp_path, 30, names)
    jobs = [("sentm2", "AMU"), ("sentm2", "CAMB"), ("m2", "CAMB")]
    options = {"bertscore_model_type": str(made["bs"]), "bertscore_num_layers": 2,
               "bertscore_baseline_path": str(made["baseline"])}
    found = _theirs(authors, folder, jobs, "bertscore", str(made["bs"]), str(made["baseline"]))
    for (base, name), theirs in zip(jobs, found, strict=True):
        mine = m2lsp.score(str(folder / name), gold=str(folder / "gold.m2"), metric="pt-m2",
                           pt_m2_base=base, **options)
        assert mine.score == pytest.approx(theirs["score"], abs=CORPUS), (base, name)
        if base == "sentm2":
            pairs = zip(mine.data["sentence_scores"], theirs["sentences"], strict=True)
            worst = max(abs(a - b) for a, b in pairs)
            assert worst < SENTENCE, (name, worst)
            assert 0 < theirs["score"] < 1 and len(set(theirs["sentences"])) > 5


# the authors' compute_errant and compute_senterrant, every edit weighing 1: the system's
# edits are read from `{hypothesis}.m2` (ERRANT's annotation of it) beside the hypothesis
ERRANT_DRIVER = r"""
import json, os, sys
from types import SimpleNamespace
root, gold = sys.argv[1:3]
jobs = json.loads(sys.argv[3])
os.chdir(root)
sys.path[:0] = [root, os.path.join(root, "m2score")]
import torch
from m2scorer import load_annotation
from util import get_ref
import metrics
sources, golds = load_annotation(gold)
references = [{a: get_ref(sorted([(g[0], g[1], g[2], g[-1][0]) for g in edits],
                                 key=lambda x: (x[0], x[1])), source)
               for a, edits in sentence.items()} for source, sentence in zip(sources, golds)]
metric = metrics.PTM2(SimpleNamespace(beta=0.5, device=torch.device("cpu"), model_type="none",
                                      scorer="self"), corpus=None)
out = []
for base, system in jobs:
    run = metric.compute_senterrant if base == "senterrant" else metric.compute_errant
    out.append(float(run(m2_file=gold, hyp_file=system, sources=sources,
                         references=references)))
print(json.dumps(out))
"""


@pytest.mark.slow
def test_the_errant_bases_are_identical(authors, conll, tmp_path) -> None:
    """`--pt-m2-base errant|senterrant` on 150 CoNLL-2014 sentences, the systems' edits
    errant_parallel's (../shared/data/conll2014/expected/errant-parallel)."""
    names = ("AMU", "CAMB")
    folder = _head(conll, tmp_path, 150, names)
    annotated = conll.gold.parents[1] / "expected" / "errant-parallel"
    for name in names:
        blocks = (annotated / f"{name}.alone.m2").read_text(encoding="utf-8").split("\n\n")
        (folder / f"{name}.m2").write_text("\n\n".join(blocks[:150]) + "\n\n", "utf-8")
    jobs = [(base, name) for name in names for base in ("errant", "senterrant")]
    done = subprocess.run(
        [sys.executable, "-c", ERRANT_DRIVER, str(authors), str(folder / "gold.m2"),
         json.dumps([[b, str(folder / s)] for b, s in jobs])],
        capture_output=True, text=True, env={**os.environ, "TQDM_DISABLE": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    for (base, name), theirs in zip(jobs, json.loads(done.stdout), strict=True):
        mine = m2lsp.score(str(folder / f"{name}.m2"), gold=str(folder / "gold.m2"),
                           metric="pt-m2", pt_m2_scorer="self", pt_m2_base=base)
        assert mine.score == theirs, (base, name)
