"""`m2lsp explain --metric cherrant` on MuCGEC's demo (real data, skipped where absent):
ChERRANT's char edits of each hypothesis, applied to the gold's S line, scored by
`--metric cherrant` without spaces.  No other tool attributes Chinese edits, so the test
holds the attribution to the metric itself: a sentence's hypothesis and source scores are
what `m2lsp score --metric cherrant` gives the hypothesis and the source as systems;
`add` gives each edit the score of the source with that edit alone, minus the source's
(scaled, as gec-metrics' add scales them, to add up to the sentence's change); Shapley
shares add up to the sentence's change."""

from __future__ import annotations

import pytest

import m2lsp
from tests.conftest import shared

pytest.importorskip("opencc", reason="Chinese annotation needs m2lsp[zh]")


@pytest.fixture(scope="module")
def demo() -> dict:
    folder = shared("mucgec")
    hypotheses = (folder / "demo.hyp").read_text(encoding="utf-8").splitlines()
    return {"gold": str(folder / "demo.ref.m2.char"), "hypotheses": hypotheses,
            "data": str(folder / "ChERRANT" / "data")}


def _scores(demo: dict, lines: list[str]) -> list[float]:
    """Each line's sentence score as the metric gives it (its best annotator's F: what
    meta-evaluation reads), the whole file scored as one system."""
    found = m2lsp.score(lines, gold=demo["gold"], metric="cherrant",
                        cherrant_data=demo["data"])
    return found._score.sentence_scores()


def _explained(demo: dict, attributor: str) -> list[dict]:
    return m2lsp.explain(demo["hypotheses"], demo["gold"], metric="cherrant",
                         attributor=attributor, cherrant_data=demo["data"]
                         ).to_dict()["sentences"]


def test_the_sentence_scores_are_the_metrics(demo) -> None:
    sentences = _explained(demo, "shapley")
    edited = [s for s in sentences if s["edits"]]
    assert len(edited) > 10
    own = _scores(demo, demo["hypotheses"])
    sources = _scores(demo, [s["source"].replace(" ", "") for s in sentences])
    for s in edited:
        k = s["sentence"] - 1
        assert (s["hypothesis_score"], s["source_score"]) == (own[k], sources[k])
        total = sum(e["attribution"] for e in s["edits"])
        assert total == pytest.approx(s["change"], abs=1e-12)
    assert {e["type"] for s in edited for e in s["edits"]} <= {"S", "M", "R", "W"}


def test_add_is_each_edit_alone(demo) -> None:
    explained = _explained(demo, "add")
    sources = [s["source"].replace(" ", "") for s in explained]
    several = [s for s in explained if len(s["edits"]) > 1]
    assert several
    for s in several:
        k, tokens = s["sentence"] - 1, s["source"].split(" ")
        alone = []
        for e in s["edits"]:
            made = tokens[:e["start"]] + e["correction"].split() + tokens[e["end"]:]
            lines = [*sources[:k], "".join(made), *sources[k + 1:]]
            alone.append(_scores(demo, lines)[k] - s["source_score"])
        weight = s["change"] / sum(alone) if sum(alone) else 0.0
        expected = [weight * a for a in alone]
        assert [e["attribution"] for e in s["edits"]] == pytest.approx(expected, abs=1e-12)
    assert any(len(set(e["attribution"] for e in s["edits"])) > 1 for s in several)
