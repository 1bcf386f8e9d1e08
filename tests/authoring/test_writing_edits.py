"""Edits as the workbench writes them: a deletion with an empty correction, a correction
that only adds words written minimal (as errant_parallel writes it), a raw-text correction
tokenised, accepting an edit in place of the one it competes with, and realigning that
keeps the edits a change does not touch."""

from __future__ import annotations

import pytest

from m2lsp.annotation.from_correction import Engines
from m2lsp.authoring.disagreements import accepted
from m2lsp.authoring.edits import added, minimal, realigned
from m2lsp.parsing.m2 import parse_block
from tests.annotation.conftest import spacy_model

PLAIN = Engines()


def _block(text: str):
    return parse_block(text.splitlines(keepends=True))


@pytest.fixture(scope="module")
def english() -> Engines:
    from m2lsp.annotation.english import EnglishAnnotator, EnglishSettings

    engine = EnglishAnnotator(EnglishSettings(model=spacy_model()))
    return Engines(english=lambda: engine)


@pytest.mark.parametrize(("start", "end", "correction", "line"), [
    # a deletion: an empty correction, never -NONE-
    (1, 2, "", "A 1 2|||UNK||||||REQUIRED|||-NONE-|||0"),
    (1, 2, "-NONE-", "A 1 2|||UNK||||||REQUIRED|||-NONE-|||0"),
    # only adds words: the insertion alone
    (3, 4, "a car", "A 3 3|||UNK|||a|||REQUIRED|||-NONE-|||0"),
    (3, 4, "car now", "A 4 4|||UNK|||now|||REQUIRED|||-NONE-|||0"),
    # only removes some: the deletion alone
    (0, 2, "I", "A 1 2|||UNK||||||REQUIRED|||-NONE-|||0"),
    # a replacement keeps the span chosen
    (2, 4, "have car", "A 2 4|||UNK|||have car|||REQUIRED|||-NONE-|||0"),
])
def test_an_added_edit_is_written_as_the_scorers_read_it(start, end, correction, line):
    block = _block("S I I bought car .\n")
    found = added(block, start, end, correction, "0", PLAIN)
    assert found.lines == [line]


def test_minimal_sets_apart_the_words_both_sides_share():
    tokens = ("I", "bought", "car", ".")
    assert minimal(tokens, 2, 3, ["a", "car"]) == (2, 2, ["a"])
    assert minimal(tokens, 1, 3, ["bought", "a", "red", "car"]) == (2, 2, ["a", "red"])
    assert minimal(tokens, 2, 3, ["cars"]) == (2, 3, ["cars"])


@pytest.mark.slow
def test_an_insertion_is_typed_and_written_as_errant_parallel_writes_it(english):
    from m2lsp.annotation.from_correction import annotate_correction

    block = _block("S Yesterday I bought car .\n")
    found = added(block, 3, 4, "a car", "0", english)
    assert found.lines == ["A 3 3|||M:DET|||a|||REQUIRED|||-NONE-|||0"]
    whole = annotate_correction(block.sentence.tokens, "Yesterday I bought a car .", "0",
                                english)
    assert list(whole.lines) == found.lines
    # a raw correction is tokenised by the pipeline
    found = added(block, 3, 5, "a car.", "0", english)
    assert found.lines == ["A 3 3|||M:DET|||a|||REQUIRED|||-NONE-|||0"]
    found = added(block, 3, 5, "the car!", "0", english)
    assert [line.split("|||")[2] for line in found.lines] == ["the car !"]


def test_accepting_an_insertion_replaces_the_one_it_competes_with():
    block = _block("S need to go .\n"
                   "A 0 0|||M:PRON|||we ,|||REQUIRED|||-NONE-|||0\n"
                   "A 3 4|||R:PUNCT|||!|||REQUIRED|||-NONE-|||0\n"
                   "A 0 0|||M:PRON|||we|||REQUIRED|||-NONE-|||1\n")
    assert [line.rstrip("\n") for line in accepted(block, 3, "0")] == [
        "A 0 0|||M:PRON|||we|||REQUIRED|||-NONE-|||0",
        "A 3 4|||R:PUNCT|||!|||REQUIRED|||-NONE-|||0",
        "A 0 0|||M:PRON|||we|||REQUIRED|||-NONE-|||1"]
    # insertions of different words at one point, as ERRANT writes them, both stay
    both = _block("S if people were aware would n't use it\n"
                  "A 4 4|||M:PUNCT|||,|||REQUIRED|||-NONE-|||0\n"
                  "A 4 4|||M:PRON|||they|||REQUIRED|||-NONE-|||1\n")
    assert [line.rstrip("\n") for line in accepted(both, 2, "0")][:2] == [
        "A 4 4|||M:PUNCT|||,|||REQUIRED|||-NONE-|||0",
        "A 4 4|||M:PRON|||they|||REQUIRED|||-NONE-|||0"]
    replacing = _block("S He go to school .\n"
                       "A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n"
                       "A 1 3|||R:OTHER|||went to|||REQUIRED|||-NONE-|||1\n")
    assert accepted(replacing, 2, "0")[0] == "A 1 3|||R:OTHER|||went to|||REQUIRED|||-NONE-|||0"


SPLIT = ("S I has went to home yesterday\n"
         "A 1 2|||R:VERB:TENSE|||had|||REQUIRED|||-NONE-|||0\n"
         "A 2 3|||R:VERB:FORM|||gone|||REQUIRED|||-NONE-|||0\n")


@pytest.mark.parametrize(("corrected", "kept"), [
    # a change far from the split edits: they stay as they were
    ("I had gone to home yesterday .", True),
    ("I had gone to my home yesterday", True),
    # a change beside them: the engine's edits
    ("I have gone to home yesterday", False),
])
def test_realigning_keeps_the_edits_the_change_does_not_touch(corrected, kept):
    block = _block(SPLIT)
    lines = realigned(block, "0", corrected, PLAIN).lines
    split = {"A 1 2|||R:VERB:TENSE|||had|||REQUIRED|||-NONE-|||0",
             "A 2 3|||R:VERB:FORM|||gone|||REQUIRED|||-NONE-|||0"}
    assert (split <= set(lines)) is kept
    applied = _applied(block.sentence.tokens, lines)
    assert applied == corrected.split()


def _applied(tokens, lines):
    block = _block("S " + " ".join(tokens) + "\n" + "".join(f"{line}\n" for line in lines))
    from m2lsp.model import corrected_sentence

    return (corrected_sentence(block, "0") or "").split()


def test_a_raw_correction_is_split_or_said_where_no_pipeline_cuts_it(monkeypatch):
    """Char-level Chinese is cut in characters (a token a character, as the S line); an
    English correction is cut by spaCy's English tokenizer where no pipeline is loaded
    (typing off); without spaCy, one with punctuation stuck to a word is kept as typed and
    said (AW2 5)."""
    import m2lsp.authoring.edits as edits

    found = added(_block("S 我 喜 欢 猫 。\n"), 1, 3, "喜爱", "0", PLAIN)
    assert [line.split("|||")[2] for line in found.lines] == ["喜 爱"]
    pytest.importorskip("spacy")
    found = added(_block("S Yesterday I bought car .\n"), 3, 4, "a car.", "0", PLAIN)
    assert [line.split("|||")[2] for line in found.lines] == ["a car ."]
    assert found.note is None or "kept as typed" not in found.note
    monkeypatch.setattr(edits, "_blank_english", lambda: None)  # no spaCy
    found = added(_block("S Yesterday I bought car .\n"), 3, 4, "a car.", "0", PLAIN)
    assert [line.split("|||")[2] for line in found.lines] == ["a car."]
    assert found.note is not None and 'the correction "a car." was kept as typed' in found.note
    found = added(_block("S Yesterday I bought car .\n"), 3, 4, "a car", "0", PLAIN)
    assert found.note is None or "kept as typed" not in found.note


@pytest.mark.parametrize(("source", "typed", "lines"), [
    # a source tokenised otherwise ("5." one token): its own text typed back is no edit
    ("S This is number 5.", "This is number 5.",
     ["A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"]),
    # a word that is none of the tokens is cut by the tokenizer ("years." -> "years .")
    ("S He lived here for years .", "He has lived here for years.",
     ["A 1 1|||UNK|||has|||REQUIRED|||-NONE-|||0"]),
])
def test_a_corrected_sentence_keeps_the_source_s_own_tokens(source, typed, lines):
    from m2lsp.authoring.edits import realigned

    pytest.importorskip("spacy")
    assert realigned(_block(source + "\n"), "0", typed, PLAIN).lines == lines
