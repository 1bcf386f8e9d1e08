"""Scored sentences in plain words (scoring/m2/review.py) and the live score that reuses
what did not change (scoring/m2/live.py)."""

from __future__ import annotations

import pytest

from m2lsp.parsing.m2 import parse_m2
from m2lsp.parsing.source import SourceText
from m2lsp.scoring.m2.live import LiveScore
from m2lsp.scoring.m2.maxmatch import M2Settings, score_texts
from m2lsp.scoring.m2.review import Change

TOKENS = ["What", "is", "genetic", "risk", "?"]


@pytest.mark.parametrize(("edit", "verb", "shown"), [
    ((2, 2, "", "the"), 'inserts "the"', '"is genetic" → "is the genetic"'),
    ((1, 3, "is genetic", "is the genetic"), 'inserts "the"',
     '"is genetic" → "is the genetic"'),
    ((3, 4, "risk", ""), 'deletes "risk"', '"genetic risk ?" → "genetic ?"'),
    ((1, 2, "is", "was"), 'changes "is" to "was"', '"What is genetic" → "What was genetic"'),
    ((0, 0, "", "So"), 'inserts "So"', '"What" → "So What"'),
    ((5, 5, "", "!"), 'inserts "!"', '"?" → "? !"'),
])
def test_an_edit_is_named_by_its_smallest_change_with_a_word_either_side(edit, verb, shown):
    change = Change.of(*edit)
    assert (change.verb(), change.shown(TOKENS)) == (verb, shown)


GOLD = """S What is genetic risk ?
A 2 2|||ArtOrDet|||the|||REQUIRED|||-NONE-|||0
A 3 4|||Nn|||risks|||REQUIRED|||-NONE-|||0

S He go to school .
A 1 2|||SVA|||goes|||REQUIRED|||-NONE-|||0
A 1 2|||SVA|||went|||REQUIRED|||-NONE-|||1
"""


def messages(system: str) -> list[list[str]]:
    result = score_texts(GOLD, system)
    from m2lsp.scoring.m2.review import review

    return [[f"{m.kind} {m.message}" for m in review(s, 0.5).marks]
            for s in result.sentences]


@pytest.mark.parametrize(("system", "expected"), [
    ("What is the genetic risk ?\nHe goes to school .\n", [
        ['TP found: "is genetic" → "is the genetic" (ArtOrDet)',
         'FN missed: "genetic risk ?" → "genetic risks ?" (Nn); the system left this '
         'unchanged'],
        ['TP found: "He go to" → "He goes to" (SVA)']]),
    ("What is a genetic risk ?\nHe gone to school .\n", [
        ['FN missed: "is genetic" → "is the genetic" (ArtOrDet); the system wrote "is '
         'genetic" → "is a genetic" instead',
         'FP system: "is genetic" → "is a genetic"; no annotator inserts "a" here',
         'FN missed: "genetic risk ?" → "genetic risks ?" (Nn); the system left this '
         'unchanged'],
        ['FN missed: "He go to" → "He goes to" (SVA); the system wrote "He go to" → "He '
         'gone to" instead',
         'FP system: "He go to" → "He gone to"; no annotator changes "go" to "gone" here']]),
])
def test_marks_say_what_was_found_missed_or_wrong_in_plain_words(system, expected):
    assert messages(system) == expected


def test_a_wrong_edit_that_another_annotator_has_says_so():
    from m2lsp.scoring.m2.review import review

    gold = ("S He go to school yesterday .\n"
            "A 1 2|||Vt|||went|||REQUIRED|||-NONE-|||0\n"
            "A 3 3|||ArtOrDet|||the|||REQUIRED|||-NONE-|||0\n"
            "A 4 5|||Wci|||today|||REQUIRED|||-NONE-|||1\n")
    result = score_texts(gold, "He went to the school today .\n")
    assert [f"{m.kind} {m.message}" for m in review(result.sentences[0], 0.5).marks] == [
        'TP found: "He go to" → "He went to" (Vt)',
        'TP found: "to school" → "to the school" (ArtOrDet)',
        'FP system: "school yesterday ." → "school today ."; annotator 1 changes "yesterday" '
        'to "today" here, but this sentence is scored against annotator 0 (the one that '
        'gives the best corpus F)']


def test_live_score_rescores_only_what_changed_and_equals_a_full_score():
    source = SourceText(GOLD)
    live = LiveScore(M2Settings())
    system = "What is the genetic risk ?\nHe goes to school .\n"
    first = live.update(live.gold(parse_m2(source), source, "gold"), system)
    assert first.rescored == 2
    again = live.update(live.gold(parse_m2(source), source, "gold"), system)
    assert again.rescored == 0 and again.score == first.score
    changed = "What is the genetic risk ?\nHe go to school .\n"
    third = live.update(live.gold(parse_m2(source), source, "gold"), changed)
    assert third.rescored == 1
    assert third.score == score_texts(GOLD, changed).score
    counts = [sum(getattr(r, k) for r in third.reviews) for k in ("correct", "proposed",
                                                                   "gold")]
    assert counts == [third.score.counts.correct, third.score.counts.proposed,
                      third.score.counts.gold]
