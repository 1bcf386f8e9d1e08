"""PT-M2's arithmetic without a model (`--pt-m2-scorer self`: every edit weighs 1), on a
gold small enough to score by hand, and the pieces it rests on: the authors' `get_ref`
(edits made in order, offsets shifted) and the order in which their Python 3 scorer tries
the annotators.  tests/learned/test_pt_m2_against_authors.py runs the authors' scorer
beside m2lsp with BERTScore weights."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import m2lsp
from m2lsp.learned.pt_m2 import Reading, Totals, chosen, rebuilt, weights_of
from m2lsp.scoring.pt_m2.metric import met
from tests.conftest import ROOT

GOLD = """S a b c d
A 1 2|||R|||x|||REQUIRED|||-NONE-|||0
A 3 4|||R|||y|||REQUIRED|||-NONE-|||0
A 0 1|||R|||z|||REQUIRED|||-NONE-|||1

S e f
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

"""
SYSTEM = ["a x c d", "e f"]


@pytest.mark.parametrize(("edits", "expected"), [
    ([], "a b c d"),
    ([(1, 2, "b", "x")], "a x c d"),
    ([(1, 2, "b", "")], "a c d"),
    ([(1, 1, "", "new")], "a new b c d"),
    ([(3, 4, "d", "y z"), (0, 1, "a", "")], "b c y z"),  # applied in start order
    ([(0, 2, "a b", "q"), (2, 3, "c", "r s")], "q r s d"),  # offsets shift by -1
])
def test_the_corrected_sentence_is_the_authors(edits, expected) -> None:
    assert rebuilt("a b c d", edits) == expected


def test_by_hand() -> None:
    """Sentence 1: annotator 0's reading has 1 correct of 1 proposed and 2 gold (F0.5 =
    1.25 * 1 * 0.5 / (0.25 + 0.5)); annotator 1's has none correct.  Sentence 2: nothing
    proposed, nothing expected: P = R = F = 1."""
    sentence = m2lsp.score(SYSTEM, gold=GOLD, metric="pt-m2", pt_m2_scorer="self")
    assert sentence.data["sentence_scores"] == [pytest.approx(1.25 * 0.5 / 0.75), 1.0]
    assert sentence.score == pytest.approx((1.25 * 0.5 / 0.75 + 1.0) / 2)
    corpus = m2lsp.score(SYSTEM, gold=GOLD, metric="pt-m2", pt_m2_scorer="self",
                         pt_m2_base="m2")
    assert (corpus.precision, corpus.recall) == (1.0, 0.5)
    assert corpus.f == pytest.approx(1.25 * 0.5 / 0.75)
    assert corpus.signature.startswith("PT-M2|base:m2|beta:0.5|weights:self|")


def test_annotators_go_in_the_order_the_block_names_them() -> None:
    lines = ["S a b", "A 0 1|||R|||x|||REQUIRED|||-NONE-|||3",
             "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1",
             "A 1 2|||R|||y|||REQUIRED|||-NONE-|||3", "", "S c"]
    assert met(lines, 0, [1, 3]) == [3, 1]
    assert met(lines, 0, [1, 3, 7]) == [3, 1, 7]  # not named in the block: last


def test_ties_go_to_more_correct_then_fewer_proposed_then_the_first() -> None:
    more = Totals(2, 2, 2)  # F 1, as (1, 1, 1)'s
    assert chosen([Totals(1, 1, 1), more], Totals(), 0.5) is more
    fewer = Totals(0, 1, 0)  # F 0, as (0, 2, 0)'s, none correct either
    assert chosen([Totals(0, 2, 0), fewer], Totals(), 0.5) is fewer
    first = Totals(1, 2, 2)
    assert chosen([first, Totals(1, 2, 2)], Totals(), 0.5) is first


def test_weights_all_zero_become_equal_at_sentence_level() -> None:
    reading = Reading(((1, 2, "b", "x"),), (), ((0, 1, "a", "z"),), "z b")
    assert weights_of(reading, [0.5, 0.5, 0.5], True) == {(1, 2, "b", "x"): 0.5,
                                                         (0, 1, "a", "z"): 0.5}
    assert weights_of(reading, [0.5, 0.5, 0.5], False) == {(1, 2, "b", "x"): 0.0,
                                                          (0, 1, "a", "z"): 0.0}
    assert weights_of(reading, [0.5, 0.25, 0.75], True) == {(1, 2, "b", "x"): 0.25,
                                                           (0, 1, "a", "z"): 0.25}


def test_without_a_model_nothing_of_torch_is_imported(tmp_path) -> None:
    (tmp_path / "gold.m2").write_text(GOLD)
    code = ("import json, sys, m2lsp; "
            f"s = m2lsp.score({SYSTEM!r}, gold={str(tmp_path / 'gold.m2')!r}, "
            "metric='pt-m2', pt_m2_scorer='self'); "
            "print(json.dumps([s.score, sorted(m for m in ('torch', 'transformers', "
            "'bert_score') if m in sys.modules)]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    score, imported = json.loads(done.stdout)
    assert imported == [] and score == pytest.approx((1.25 * 0.5 / 0.75 + 1.0) / 2)


def test_an_annotator_whose_edits_overlap_is_an_error(tmp_path) -> None:
    gold = ("S a b c d\nA 0 2|||R|||x|||REQUIRED|||-NONE-|||0\n"
            "A 1 3|||R|||y|||REQUIRED|||-NONE-|||0\n\n")
    with pytest.raises(m2lsp.InputError, match="annotator 0's edits overlap"):
        m2lsp.score(["a b c d"], gold=gold, metric="pt-m2", pt_m2_scorer="self")
