"""`m2lsp meta-eval` on SEEDA with the gec-metrics variants of ERRANT, GLEU and GREEN
against gec-metrics 0.1.2's own SEEDA meta-evaluation (`seeda_reference.py`, run beside on
the real references: REF0/REF1, the CoNLL-2014 annotators' corrected sentences, as its
download script makes them): the same system scores to the last bit, the same correlations,
the same sentence level.  The defaults are SEEDA's scripts' (ERRANT against the gold's
edits, F as errant_compare rounds it; the authors' GREEN; JFLEG's GLEU), and differ."""

from __future__ import annotations

import json

import pytest

from m2lsp.cli import main
from tests.conftest import SEEDA_GOLD as GOLD
from tests.conftest import shared

HUMAN = {"ew_edit": "EW_edit", "ew_sent": "EW_sent", "ts_edit": "TS_edit",
         "ts_sent": "TS_sent"}
VARIANTS = ("--errant-variant", "gec-metrics", "--gleu-variant", "gec-metrics",
            "--green-variant", "gec-metrics")


def spacy_model() -> str:
    from tests.annotation.conftest import spacy_model as found

    return found()


@pytest.fixture(scope="module")
def reference(seeda_gec_metrics) -> dict:
    """gec-metrics' SEEDA numbers for GREEN, GLEU and ERRANT (tests/conftest.py)."""
    return seeda_gec_metrics


def meta_eval(capsys, *more: str) -> dict:
    assert main(["meta-eval", "--data", str(shared("meta-eval/seeda").parent), "--gold",
                 str(shared(GOLD)), "--metric", "errant", "--metric", "gleu", "--metric",
                 "green", "--spacy-model", spacy_model(), "--format", "json", *more]) == 0
    return {m["metric"]: m for m in json.loads(capsys.readouterr().out)["metrics"]}


@pytest.mark.slow
def test_the_variants_reproduce_gec_metrics_seeda_numbers(reference, capsys) -> None:
    ours = meta_eval(capsys, *VARIANTS)
    systems = reference["models"]
    for name, theirs in reference["metrics"].items():
        mine = ours[name]
        assert [mine["scores"][s] for s in systems] == theirs["scores"], name
        for key, (pearson, spearman) in theirs["system"].items():
            found = mine["system_level"][HUMAN[key]]
            assert found["pearson"] == pytest.approx(pearson, rel=1e-12, abs=1e-12)
            assert found["spearman"] == pytest.approx(spearman, rel=1e-12, abs=1e-12)
        for key, (accuracy, kendall) in theirs["sentence"].items():
            assert mine["sentence_level"][key]["accuracy"] == pytest.approx(accuracy)
            assert mine["sentence_level"][key]["kendall"] == pytest.approx(kendall)
    # what the docs quote: gec-metrics' ERRANT and GREEN against SEEDA-E/S
    assert round(ours["errant"]["system_level"]["EW_edit"]["pearson"], 3) == 0.686
    assert round(ours["green"]["system_level"]["TS_sent"]["pearson"], 2) == 0.93


@pytest.mark.slow
def test_the_defaults_are_seeda_scripts_and_differ(reference, capsys) -> None:
    ours = meta_eval(capsys)
    assert round(ours["errant"]["system_level"]["EW_edit"]["pearson"], 3) == 0.619
    assert round(ours["green"]["system_level"]["TS_sent"]["pearson"], 2) == 0.66
    systems = reference["models"]
    for name, theirs in reference["metrics"].items():
        mine = [ours[name]["scores"][s] for s in systems]
        assert all(a != b for a, b in zip(mine, theirs["scores"], strict=True)), name
