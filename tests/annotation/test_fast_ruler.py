"""`attribute_rules.FastRuler` against spaCy's own attribute ruler, its oracle: the same
POS, tag, morphology, lemma and dependency on every token of real text and of sentences
written to match the ruler's multi-token rules; a ruler of another kind is not replaced."""

from __future__ import annotations

import pytest

from tests.annotation.conftest import spacy_model
from tests.conftest import shared

spacy = pytest.importorskip("spacy")

from m2lsp.annotation.attribute_rules import fast_ruler  # noqa: E402

WRITTEN = [  # the multi-token and DEP rules of en_core_web_sm's ruler
    "I ai n't gon na do it , y' all got ta let 's go .",
    "There are cats and there is a dog ; it is what it is .",
    "C'm on , you know I did it but I have n't had it .",
    "Ol' Bill was doin' somethin' and goin' home with 'em , 'nuff said .",
    "That which I saw is this : nothin' but I 'll have it .",
]


@pytest.fixture(scope="module")
def nlp():
    return spacy.load(spacy_model(), disable=["ner"])


def until_ruler(nlp, texts):
    from spacy.tokens import Doc

    docs = [Doc(nlp.vocab, text.split()) for text in texts]
    for name, component in nlp.pipeline:
        if name == "attribute_ruler":
            return docs
        docs = list(component.pipe(docs))
    raise AssertionError("no attribute ruler")


def annotations(doc):
    return [(t.pos_, t.tag_, str(t.morph), t.lemma_, t.dep_) for t in doc]


def sources(relative: str, prefix: str = "S ", limit: int = 2000) -> list[str]:
    lines = shared(relative).read_text("utf-8").splitlines()
    return [line[len(prefix):] for line in lines if line.startswith(prefix)][:limit]


@pytest.mark.slow
@pytest.mark.parametrize("texts", ["written", "conll2014", "bea2019"])
def test_same_as_spacy(nlp, texts) -> None:
    chosen = {"written": lambda: WRITTEN,
              "conll2014": lambda: sources("conll2014/gold/official-2014.combined.m2"),
              "bea2019": lambda: sources("bea2019-dev/ABCN.dev.gold.bea19.m2")}[texts]()
    ruler = nlp.get_pipe("attribute_ruler")
    fast = fast_ruler(ruler)
    assert fast is not None
    theirs = [annotations(ruler(doc)) for doc in until_ruler(nlp, chosen)]
    ours = [annotations(fast(doc)) for doc in until_ruler(nlp, chosen)]
    assert ours == theirs
    if texts == "written":  # the multi-token rules did write
        assert theirs[1][1][:2] == ("VERB", "VBP") and theirs[0][1][3] == "be"


def test_other_rulers_are_kept(nlp) -> None:
    """A pattern with a quantifier or another attribute: spaCy's own ruler runs."""
    from spacy.lang.en import English

    for pattern in ([{"LOWER": "a", "OP": "+"}], [{"POS": "NOUN"}], [{"ORTH": {"FUZZY": "x"}}]):
        other = English().add_pipe("attribute_ruler")
        other.add([pattern], {"LEMMA": "x"})
        assert fast_ruler(other) is None
    plain = English().add_pipe("attribute_ruler")
    plain.add([[{"LOWER": "a"}, {"TAG": {"IN": ["NN"]}}]], {"LEMMA": "x"}, index=-1)
    assert fast_ruler(plain) is not None


@pytest.mark.parametrize("tokenise", [False, True])
def test_packed_parses_are_read_token_by_token(nlp, tokenise) -> None:
    """The cache's packed parse, read as arrays, is what reading each token gives."""
    from spacy.tokens import Doc

    from m2lsp.annotation.english import packed, packed_by_tokens

    texts = WRITTEN + sources("conll2014/gold/official-2014.combined.m2", limit=300) + [
        "  Spaces  between ,and a tab\there .", "Ünïcode 😀 words —", ""]
    docs = [nlp(t) if tokenise else nlp(Doc(nlp.vocab, t.split())) for t in texts]
    assert [packed(d) for d in docs] == [packed_by_tokens(d) for d in docs]


def _lemmas(nlp, texts, fast: bool) -> list[list[tuple[str, str]]]:
    """Each token's (lemma, POS) after the whole pipeline, the lemmatizer spaCy's own or
    `lemmas.FastLemmatizer` over it (a new pipeline each time: spaCy's cache starts empty)."""
    from spacy.tokens import Doc

    from m2lsp.annotation.lemmas import fast_lemmatizer

    docs = [Doc(nlp.vocab, text.split()) for text in texts]
    for name, component in nlp.pipeline:
        if name == "lemmatizer" and fast:
            component = fast_lemmatizer(component)
            assert component is not None
        docs = [component(doc) for doc in docs]
    return [[(t.lemma_, t.pos_) for t in doc] for doc in docs]


@pytest.mark.slow
@pytest.mark.parametrize("texts", ["written", "conll2014", "bea2019"])
def test_the_fast_lemmatizer_is_spacys(texts) -> None:
    chosen = {"written": lambda: [*WRITTEN, "", "Running ran runs better best geese ."],
              "conll2014": lambda: sources("conll2014/gold/official-2014.combined.m2",
                                           limit=800),
              "bea2019": lambda: sources("bea2019-dev/ABCN.dev.gold.bea19.m2",
                                         limit=800)}[texts]()
    theirs = _lemmas(spacy.load(spacy_model(), exclude=["ner"]), chosen, fast=False)
    ours = _lemmas(spacy.load(spacy_model(), exclude=["ner"]), chosen, fast=True)
    assert ours == theirs
    assert sum(lemma != word.lower() for doc, text in zip(theirs, chosen, strict=True)
               for (lemma, _), word in zip(doc, text.split(), strict=True)) > 3


def test_other_lemmatizers_are_kept() -> None:
    from spacy.lang.en import English

    from m2lsp.annotation.lemmas import fast_lemmatizer

    lookup = English().add_pipe("lemmatizer", config={"mode": "lookup"})
    assert fast_lemmatizer(lookup) is None
    assert fast_lemmatizer(object()) is None


@pytest.mark.parametrize("tokenise", [False, True])
def test_the_surface_is_read_as_token_by_token(nlp, tokenise) -> None:
    from spacy.tokens import Doc

    from m2lsp.annotation.english import surface

    texts = [*WRITTEN, "  Spaces   around  . ", "x", "Don't stop-gap it ,right?"]
    for text in texts:
        doc = nlp.make_doc(text) if tokenise else Doc(nlp.vocab, text.split())
        assert surface(doc) == ([t.text for t in doc], doc.text.strip())
