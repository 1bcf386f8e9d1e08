"""`--metric cherrant`'s slice of sentences (`--start`/`--end`) and several hypotheses a
sentence (`--multi-hyp-avg`, `--multi-hyp-max`) against ChERRANT's own
`compare_m2_for_evaluation.py`, run in place beside (tests/annotation/cherrant.py), on
MuCGEC's demo; and what is said when a plain-text hypothesis is annotated against the
gold's S lines rather than its real input."""

from __future__ import annotations

import pytest

from tests.annotation.cherrant import data, run
from tests.annotation.conftest import m2lsp
from tests.conftest import shared

HYP, REF = "mucgec/demo.hyp.m2.char", "mucgec/demo.ref.m2.char"

# compare_m2_for_evaluation.py's flags, m2lsp score's spelling, and the files (the demo's
# reference has several annotators: as the hypothesis it has several hypotheses a sentence)
CASES = [
    (["--start", "3", "--end", "11"], ["--start", "3", "--end", "11"], HYP, REF),
    (["--start", "-6", "--end", "100"], ["--start", "-6", "--end", "100"], HYP, REF),
    (["--start", "4"], ["--start", "4"], HYP, REF),
    (["-multi_hyp_avg"], ["--multi-hyp-avg"], REF, HYP),
    (["-multi_hyp_max"], ["--multi-hyp-max"], REF, HYP),
    (["-multi_hyp_max", "--start", "2", "--end", "9", "-v"],
     ["--multi-hyp-max", "--start", "2", "--end", "9", "-v"], REF, HYP),
]


@pytest.mark.parametrize(("theirs", "ours", "hyp", "ref"), CASES,
                         ids=[" ".join(c[0]) for c in CASES])
def test_printed_as_compare_m2_for_evaluation(tmp_path, theirs, ours, hyp, ref) -> None:
    expected = run("compare_m2_for_evaluation.py", ["-hyp", str(shared(hyp)), "-ref",
                                                    str(shared(ref)), *theirs], tmp_path)
    done = m2lsp("score", "--metric", "cherrant", str(shared(hyp)), str(shared(ref)), *ours)
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected


def test_what_is_said_about_the_flags_cherrant_ignores() -> None:
    alone = m2lsp("score", "--metric", "cherrant", str(shared(HYP)), str(shared(REF)),
                  "--start", "4")
    assert "--start without --end" in alone.stderr
    multi = m2lsp("score", "--metric", "cherrant", str(shared(REF)), str(shared(HYP)),
                  "--multi-hyp-avg")
    assert "does not use them" in multi.stderr


@pytest.mark.slow
def test_a_hypothesis_made_from_another_source_is_warned_about(tmp_path) -> None:
    """MuCGEC's demo: its hypothesis keeps the input's full-width colon, which the gold's
    S line has as ':'; against the S lines it scores 0.2581, against its input 0.2649."""
    hyp, gold = shared("mucgec/demo.hyp"), shared(REF)
    base = ["score", "--metric", "cherrant", str(hyp), str(gold), "--cherrant-data",
            str(data())]
    done = m2lsp(*base)
    assert done.returncode == 0, done.stderr
    assert "0.2581" in done.stdout
    assert f"annotated against the S lines of {gold}" in done.stderr
    assert "1 sentence(s)" in done.stderr and "sentence 2, '：' for ':'" in done.stderr
    given = m2lsp(*base, "--source", str(shared("mucgec/demo.input")))
    assert "0.2649" in given.stdout
    assert "annotated against the S lines" not in given.stderr
    assert "full-width" not in given.stderr


@pytest.mark.parametrize(("sources", "hypotheses", "expected"), [
    (["我去:了"], ["我去：了。"], [(0, "：", ":")]),
    (["我去：了"], ["我去:了"], []),  # a half-width mark for a full-width one: a correction
    (["我去了", "他:来"], ["我去了", "他:來"], []),
    (["a,b"], ["a，b，c"], [(0, "，", ",")]),
])
def test_width_variants(sources, hypotheses, expected) -> None:
    from m2lsp.scoring.cherrant.plain import width_variants

    assert width_variants(sources, hypotheses) == expected
