"""Macro-averaged P, R and F over error types (`--per-type`, errant PR #52's definition),
checked against tables computed by hand (in fractions) for m2, errant and cherrant, the JSON,
the API and the report."""

from __future__ import annotations

import json
from fractions import Fraction as Q
from pathlib import Path

import pytest

import m2lsp
from m2lsp.cli import main
from m2lsp.scoring.macro import macro_average, macro_line
from tests.scoring.test_m2_tables import README_GOLD, README_SYSTEM

# a b c d e: the gold changes a (R:NOUN), c (R:VERB) and drops e (U:DET); the hypothesis
# gets a right, changes c wrongly and d needlessly (R:NOUN)
REF = ("S a b c d e\nA 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n"
       "A 2 3|||R:VERB|||y|||REQUIRED|||-NONE-|||0\nA 4 5|||U:DET||||||REQUIRED|||-NONE-|||0\n\n")
HYP = ("S a b c d e\nA 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n"
       "A 2 3|||R:VERB|||z|||REQUIRED|||-NONE-|||0\nA 3 4|||R:NOUN|||w|||REQUIRED|||-NONE-|||0\n\n")


def f05(p: Q, r: Q) -> Q:
    return Q(5, 4) * p * r / (Q(1, 4) * p + r) if p + r else Q(0)


# (TP, FP, FN) -> P, R, F0.5 by hand:
#   R:NOUN (1, 1, 0): 1/2, 1, 5/9   R:VERB (0, 1, 1): 0, 0, 0   U:DET (0, 0, 1): 1, 0, 0
#   -cat 1: R (1, 2, 1): 1/3, 1/2, 5/14   U (0, 0, 1): 1, 0, 0
HAND = {
    3: (Q(1, 2), Q(1, 3), Q(5, 27), 3),   # ((1/2 + 0 + 1)/3, (1 + 0 + 0)/3, (5/9)/3)
    2: (Q(1, 2), Q(1, 3), Q(5, 27), 3),   # NOUN, VERB, DET: the same three rows
    1: (Q(2, 3), Q(1, 4), Q(5, 28), 2),   # ((1/3 + 1)/2, (1/2 + 0)/2, (5/14)/2)
}


def test_the_hand_table_is_what_the_formula_gives() -> None:
    assert f05(Q(1, 2), Q(1)) == Q(5, 9) and f05(Q(1, 3), Q(1, 2)) == Q(5, 14)
    rows = [("R:NOUN", 1, 1, 0), ("R:VERB", 0, 1, 1), ("U:DET", 0, 0, 1), ("M:ADJ", 0, 0, 0)]
    found = macro_average(rows, 0.5)
    assert found is not None  # M:ADJ has no edit: left out
    assert (found.precision, found.recall, found.f, found.types) == pytest.approx(
        [float(x) for x in HAND[3]], abs=1e-15)


@pytest.mark.parametrize("metric", ["errant", "cherrant"])
@pytest.mark.parametrize("level", [1, 2, 3])
def test_errant_and_cherrant_json_at_every_cat_level(tmp_path: Path, capsys, metric: str,
                                                     level: int) -> None:
    (tmp_path / "ref.m2").write_text(REF)
    (tmp_path / "hyp.m2").write_text(HYP)
    assert main(["score", "--metric", metric, str(tmp_path / "hyp.m2"), str(tmp_path / "ref.m2"),
                 "--per-type", "--cat", str(level), "--format", "json"]) == 0
    macro = json.loads(capsys.readouterr().out)["macro"]
    p, r, f, types = HAND[level]
    assert macro == {"precision": pytest.approx(float(p), abs=1e-15),
                     "recall": pytest.approx(float(r), abs=1e-15),
                     "f": pytest.approx(float(f), abs=1e-15), "types": types, "level": level}


def test_errant_says_the_macro_on_stderr_only_with_per_type(tmp_path: Path, capsys) -> None:
    (tmp_path / "ref.m2").write_text(REF)
    (tmp_path / "hyp.m2").write_text(HYP)
    args = ["score", "--metric", "errant", str(tmp_path / "hyp.m2"), str(tmp_path / "ref.m2")]
    assert main([*args, "--cat", "3"]) == 0
    assert "Macro" not in capsys.readouterr().out  # errant_compare -cat 3, byte for byte
    assert main([*args, "--per-type"]) == 0
    said = capsys.readouterr()
    assert "Macro" not in said.out  # still errant_compare -cat 3's bytes: the note is on stderr
    assert ("m2lsp: note: Macro average over 3 error types (P, R, F0.5): 0.5000 0.3333 "
            "0.1852\n" in said.err)


def test_m2_on_the_readme_example(tmp_path: Path, capsys) -> None:
    """Prep (1, 1, 0): 1/2, 1, 5/9; ArtOrDet (2, 0, 0) and SVA (1, 0, 0): 1, 1, 1;
    NN (0, 0, 1): 1, 0, 0 -> P 7/8, R 3/4, F (5/9 + 2)/4 = 23/36."""
    (tmp_path / "g.m2").write_text(README_GOLD)
    (tmp_path / "s.txt").write_text(README_SYSTEM)
    args = ["score", str(tmp_path / "s.txt"), str(tmp_path / "g.m2"), "--per-type"]
    assert main(args) == 0
    assert "Macro average over 4 error types (P, R, F0.5): 0.8750 0.7500 0.6389\n" in (
        capsys.readouterr().out)
    assert main([*args, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["macro"] == {
        "precision": 0.875, "recall": 0.75, "f": pytest.approx(23 / 36, abs=1e-15),
        "types": 4}
    api = m2lsp.score(tmp_path / "s.txt", gold=tmp_path / "g.m2")
    assert api.macro == {"precision": 0.875, "recall": 0.75,
                         "f": pytest.approx(23 / 36, abs=1e-15), "types": 4}


def test_m2s_untyped_false_positives_are_not_a_type() -> None:
    found = macro_average([("(none)", 0, 5, 0), ("Prep", 1, 0, 0)], 0.5)
    assert found is not None and (found.f, found.types) == (1.0, 1)
    assert macro_line(macro_average([("(none)", 0, 5, 0)], 0.5), 0.5) == (
        "Macro average: no error type has an edit\n")


def test_metrics_without_types_have_no_macro(tmp_path: Path) -> None:
    score = m2lsp.score(["a b c"], metric="gleu", sources=["a b d"], references=[["a b c"]])
    assert score.per_type == {} and score.macro is None


def test_the_report_gives_each_systems_macro(tmp_path: Path) -> None:
    (tmp_path / "ref.m2").write_text(REF)
    (tmp_path / "hyp.m2").write_text(HYP)
    out = tmp_path / "r.json"
    assert main(["report", "--metric", "errant", str(tmp_path / "ref.m2"),
                 str(tmp_path / "hyp.m2"), str(tmp_path / "ref.m2"), "--samples", "20",
                 "--format", "json", "-o", str(out)]) == 0
    macro = json.loads(out.read_text())["macro"]
    assert macro[0]["f"] == pytest.approx(5 / 27, abs=1e-15) and macro[0]["types"] == 3
    assert macro[1] == {"precision": 1.0, "recall": 1.0, "f": 1.0, "types": 3}
    html = tmp_path / "r.html"
    assert main(["report", "--metric", "errant", str(tmp_path / "ref.m2"),
                 str(tmp_path / "hyp.m2"), "--samples", "20", "-o", str(html)]) == 0
    assert '<table id="macro-table">' in html.read_text()
