"""CGEC metrics (Lin et al.): hand-computed tables, and char BLEU against sacrebleu."""

from __future__ import annotations

import contextlib
import io
import json
import random

import pytest

from m2lsp.cli import main
from m2lsp.scoring.cgec.metrics import bleu, chars, evaluate, meaning
from tests.conftest import SHARED_DATA

# one sentence: source 我爱北京, hypothesis 我爱北京。, references 我爱北京。 and 我喜欢北京。
# Acc 1/1.  BLEU: every n-gram of the hypothesis is in the first reference, c = r = 5: 1.
# MP: m = 4, P = 4/5, R = 1: 0.8 / (0.85 * 0.8 + 0.15) = 0.963855.
# second reference: m = 3 (我 北 京), P = 3/6, R = 3/4: 0.375 / (0.425 + 0.1125) = 0.697674.
# MP_average = (0.963855 + 0.697674) / 2 = 0.830765; MP' = 0.133091.
TABLE = [
    ("accuracy", 1.0), ("bleu", 1.0), ("mp", 0.963855), ("mp_average", 0.830765),
    ("mp_revised", 0.133091),
]


@pytest.mark.parametrize("name, value", TABLE)
def test_hand_computed(name, value):
    score = evaluate(["我 爱 北京"], ["我爱北京 。"], [["我爱北京。", "我 喜欢 北京 。"]])
    found = {"accuracy": score.accuracy, "bleu": score.bleu.score, "mp": score.mp,
             "mp_average": score.mp_average, "mp_revised": score.mp_revised}[name]
    assert found == pytest.approx(value, abs=1e-6)


@pytest.mark.parametrize("corrected, original, value", [
    ("", "", 1.0), ("甲", "", 0.0), ("甲乙", "丙丁", 0.0),
    ("甲甲乙", "甲乙乙", (2 / 3 * 2 / 3) / (0.85 * 2 / 3 + 0.15 * 2 / 3)),  # multiset: 甲, 乙
])
def test_meaning_preservation(corrected, original, value):
    assert meaning(corrected, original) == pytest.approx(value)


def test_bleu_without_smoothing_and_with_brevity_penalty():
    short = bleu(["甲乙"], [["甲乙丙丁"]])  # no 3-gram in the hypothesis: precision 0
    assert short.score == 0.0 and short.precisions[2] == 0.0
    assert short.brevity_penalty == pytest.approx(2.718281828 ** (1 - 4 / 2))
    tie = bleu(["甲乙丙"], [["甲乙", "甲乙丙丁"]])  # lengths 2 and 4 are equally close: 2
    assert tie.reference_length == 2 and tie.brevity_penalty == 1.0


def test_char_bleu_equals_sacrebleu_on_characters():
    sacrebleu = pytest.importorskip("sacrebleu", reason="sacrebleu is in the test extras")
    rng = random.Random(7)
    alphabet = "甲乙丙丁戊己庚"
    for _ in range(200):
        size = rng.randint(1, 6)
        hyps = ["".join(rng.choices(alphabet, k=rng.randint(3, 12))) for _ in range(size)]
        refs = [["".join(rng.choices(alphabet, k=rng.randint(3, 12))) for _ in range(2)]
                for _ in range(size)]
        ours = bleu(hyps, refs)
        theirs = sacrebleu.corpus_bleu([" ".join(h) for h in hyps],
                                       [[" ".join(r[k]) for r in refs] for k in range(2)],
                                       tokenize="none", smooth_method="none", force=True)
        assert ours.score * 100 == pytest.approx(theirs.score, abs=1e-9)
        assert ours.brevity_penalty == pytest.approx(theirs.bp, abs=1e-12)


def test_whitespace_never_counts():
    assert chars(" 我 爱\t北京 ") == "我爱北京"


MUCGEC = SHARED_DATA / "mucgec"


@pytest.mark.skipif(not MUCGEC.is_dir(), reason="../shared/data/mucgec is absent")
def test_the_command_on_mucgec():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["score", "--metric", "cgec", "--format", "json",
                     str(MUCGEC / "demo.hyp"), str(MUCGEC / "demo.ref.m2.char")])
    data = json.loads(out.getvalue())
    assert code == 0 and data["sentences"] == 20
    assert data["exact"] == 3  # three hypotheses equal an annotator's correction
    assert data["mp_revised"] == pytest.approx(abs(data["mp"] - data["mp_average"]))
    assert data["signature"].startswith("CGEC|chars:no-whitespace|")


def test_sentence_rows_add_up_to_the_corpus_scores():
    from m2lsp.scoring.cgec.metrics import aggregate, sentence_rows

    rng = random.Random(4)
    alphabet = "我爱北京喜欢。的了"
    sources = ["".join(rng.choices(alphabet, k=rng.randint(0, 9))) for _ in range(60)]
    hypotheses = ["".join(rng.choices(alphabet, k=rng.randint(1, 9))) for _ in range(60)]
    references = [["".join(rng.choices(alphabet, k=rng.randint(1, 9)))
                   for _ in range(rng.randint(0, 3))] for _ in range(60)]
    whole = evaluate(sources, hypotheses, references)
    rows = sentence_rows(sources, hypotheses, references)
    sums = [sum(column) for column in zip(*rows, strict=True)]
    accuracy, bleu_c, mp = aggregate(sums)
    assert (accuracy, bleu_c) == (whole.accuracy, whole.bleu.score)
    assert mp == pytest.approx(whole.mp, abs=1e-12)


def test_bootstrap_sentence_scores_and_compare_for_cgec(capsys):
    hyp, gold = str(MUCGEC / "demo.hyp"), str(MUCGEC / "demo.ref.m2.char")
    assert main(["score", "--metric", "cgec", hyp, gold, "--bootstrap", "50",
                 "--sentence-level"]) == 0
    out = capsys.readouterr().out
    assert "95% bootstrap intervals (50 resamples" in out and "BLEU_c      : [" in out
    assert out.splitlines()[-1].startswith("CGEC|")  # the signature ends the output
    assert main(["compare", "--metric", "cgec", hyp, hyp, gold, "--samples", "20"]) == 0
    assert "BLEU_c = " in capsys.readouterr().out
