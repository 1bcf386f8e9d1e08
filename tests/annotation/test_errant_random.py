"""`m2lsp annotate` against errant_parallel on random hypotheses built from BEA-2019 dev: a
random share of annotator 0's corrections applied to each sentence, and random tokens
dropped, doubled or swapped; the same bytes, with rules and with all-split merging."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.annotation.conftest import m2lsp, run_reference, spacy_model
from tests.conftest import shared

SENTENCES = 50  # a sample of each of two seeds (120 took 50 s of CI)


def _blocks(path) -> list[list[str]]:
    return [b.split("\n") for b in path.read_text("utf-8").strip().split("\n\n")]


def _corrected(block: list[str], rng: random.Random) -> str:
    tokens = block[0].split()[1:]
    edits = []
    for line in block[1:]:
        fields = line[2:].split("|||")
        start, end = map(int, fields[0].split())
        if fields[-1] == "0" and start >= 0 and rng.random() < 0.6:
            edits.append((start, end, fields[2].split()))
    for start, end, correction in sorted(edits, reverse=True):
        tokens[start:end] = correction
    if tokens and rng.random() < 0.3:
        i = rng.randrange(len(tokens))
        choice = rng.choice(("drop", "double", "swap"))
        if choice == "drop":
            del tokens[i]
        elif choice == "double":
            tokens.insert(i, tokens[i])
        elif i + 1 < len(tokens):
            tokens[i], tokens[i + 1] = tokens[i + 1], tokens[i]
    return " ".join(tokens)


# nightly: random hypotheses against errant (30 s of CI); tests/annotation's real-data
# comparisons with errant_parallel run in CI
@pytest.mark.nightly
@pytest.mark.slow
@settings(max_examples=2, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_hypotheses(tmp_path_factory, seed):
    model = spacy_model()
    blocks = _blocks(shared("bea2019-dev/ABCN.dev.gold.bea19.m2"))
    rng = random.Random(seed)
    chosen = rng.sample(blocks, SENTENCES)
    where = tmp_path_factory.mktemp("random")
    (where / "src.txt").write_text("".join(b[0][2:] + "\n" for b in chosen), "utf-8")
    (where / "hyp.txt").write_text("".join(_corrected(b, rng) + "\n" for b in chosen), "utf-8")
    merges = ("rules", "all-split")
    run_reference(model, [["errant_parallel", "-orig", str(where / "src.txt"), "-cor",
                           str(where / "hyp.txt"), "-out", str(where / f"{m}.ref"), "-merge",
                           m] for m in merges], where)
    env = {**os.environ, "M2LSP_CACHE_DIR": str(where / "cache")}
    for merge in merges:
        done = m2lsp("annotate", "--orig", str(where / "src.txt"), "--cor",
                     str(where / "hyp.txt"), "-o", str(where / f"{merge}.ours"), "--merge",
                     merge, "--spacy-model", model, env=env)
        assert done.returncode == 0, done.stderr
        assert (where / f"{merge}.ours").read_bytes() == (where / f"{merge}.ref").read_bytes()
