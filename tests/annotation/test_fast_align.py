"""The compiled alignment (`english.aligned`) against errant 3.0.2's own `Alignment`, its
oracle: the same `align_seq` on real parses and on random token sequences built to tie
costs and to call for transpositions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.annotation.conftest import spacy_model
from tests.conftest import shared

pytest.importorskip("errant")
spacy = pytest.importorskip("spacy")

from m2lsp.annotation import english  # noqa: E402

if english.compiled is None:  # pragma: no cover - a machine without a C compiler
    pytest.skip("the compiled alignment is not built", allow_module_level=True)

WORDS = ["the", "The", "a", "cat", "cats", "sat", "sits", "on", "mat", "mats", "ran", "run",
         ",", "."]
POS = ["DET", "NOUN", "VERB", "ADP", "ADJ", "ADV", "PUNCT", "PRON"]


@pytest.fixture(scope="module")
def vocab():
    return spacy.blank("en").vocab  # (a bare Vocab has no lower-case forms)


def doc(vocab, words, pos, lemma_of):
    from spacy.tokens import Doc

    return Doc(vocab, words=words, pos=pos, lemmas=[lemma_of(w) for w in words])


def same(orig, cor, lev: bool) -> None:
    fast = english.aligned(orig, cor, lev)
    oracle = english.aligned(orig, cor, lev, use_compiled=False)
    assert fast.align_seq == oracle.align_seq


token = st.tuples(st.sampled_from(WORDS), st.sampled_from(POS))


@settings(max_examples=400, deadline=None)
@given(st.lists(token, max_size=12), st.lists(token, max_size=12), st.booleans(),
       st.sampled_from(["word", "lower", "stem"]))
def test_random_sequences(vocab, orig, cor, lev, lemmas) -> None:
    lemma_of = {"word": str, "lower": str.lower, "stem": lambda w: w.lower().rstrip("s")}[lemmas]
    o = doc(vocab, [w for w, _ in orig], [p for _, p in orig], lemma_of)
    c = doc(vocab, [w for w, _ in cor], [p for _, p in cor], lemma_of)
    same(o, c, lev)


def test_transposition_and_unicode(vocab) -> None:
    words = ["on", "the", "mat", "sat", "Ünïcode", "😀x"]
    o = doc(vocab, words, ["ADP", "DET", "NOUN", "VERB", "NOUN", "X"], str.lower)
    c = doc(vocab, ["the", "on", "sat", "mat", "unicode", "😀"],
            ["DET", "ADP", "VERB", "NOUN", "NOUN", "X"], str.lower)
    assert any(step[0].startswith("T") for step in english.aligned(o, c, False).align_seq)
    for lev in (False, True):
        same(o, c, lev)


@pytest.mark.slow
def test_real_parses() -> None:
    """CoNLL-2014 sources against AMU's and CAMB's corrections, parsed by spaCy."""
    from spacy.tokens import Doc

    nlp = spacy.load(spacy_model(), disable=["ner"])
    gold = shared("conll2014/gold/official-2014.combined.m2")
    sources = [line[2:] for line in gold.read_text("utf-8").splitlines() if line[:2] == "S "]
    for name in ("AMU", "CAMB"):
        corrections = shared(f"conll2014/systems/{name}").read_text("utf-8").splitlines()
        pairs = [(s, c) for s, c in zip(sources, corrections, strict=True) if s != c][:300]
        origs = nlp.pipe(Doc(nlp.vocab, s.split()) for s, _ in pairs)
        cors = nlp.pipe(Doc(nlp.vocab, c.split()) for _, c in pairs)
        for orig, cor in zip(origs, cors, strict=True):
            same(orig, cor, False)
            same(orig, cor, True)
