"""spaCy's rule lemmatizer without a Token object per word: the same lemmas, remembered per
(word, POS, morphology).

spaCy's `Lemmatizer.rule_lemmatize` is a function of the token's text, its POS and its
morphology alone (and of the lemmatizer's tables), which is why spaCy keys its own cache on
exactly those; but its `__call__` makes a Token for every word, and it recomputes base
forms (which it does not cache) every time. On CoNLL-2014 that was a tenth of annotating.
`FastLemmatizer` reads the words' (lemma, word, POS, morphology) as one array, asks the
lemmatizer itself once per distinct triple, and writes the lemmas back as one array.

Only the rule mode of spaCy's own `Lemmatizer` and of `EnglishLemmatizer` (which changes
`is_base_form` only, itself a function of POS and morphology) is replaced; any other
lemmatizer runs as it is. spaCy's lemmatizer is the oracle in the tests.
"""

from __future__ import annotations

from typing import Any


class FastLemmatizer:
    """Lemmatizes a Doc as `lemmatizer` does (see the module)."""

    def __init__(self, lemmatizer: Any) -> None:
        self.lemmatizer = lemmatizer
        self.known: dict[tuple[int, int, int], int] = {}

    def __call__(self, doc: Any) -> Any:
        from spacy.attrs import LEMMA, MORPH, ORTH, POS

        rows = doc.to_array([LEMMA, ORTH, POS, MORPH]).tolist()
        if not rows:
            return doc
        overwrite = self.lemmatizer.overwrite
        lemmas = [self._lemma(doc, i, row) if overwrite or row[0] == 0 else row[0]
                  for i, row in enumerate(rows)]
        import numpy

        doc.from_array([LEMMA], numpy.array(lemmas, dtype="uint64").reshape(-1, 1))
        return doc

    def _lemma(self, doc: Any, i: int, row: list[int]) -> int:
        key = (row[1], row[2], row[3])
        found = self.known.get(key)
        if found is None:
            found = doc.vocab.strings.add(self.lemmatizer.lemmatize(doc[i])[0])
            if row[2] != 0:  # no POS: spaCy warns every time; not remembered
                self.known[key] = found
        return found


def fast_lemmatizer(lemmatizer: Any) -> FastLemmatizer | None:
    """A FastLemmatizer for `lemmatizer`, or None where it is not of the kind it
    reproduces."""
    try:
        from spacy.lang.en.lemmatizer import EnglishLemmatizer
        from spacy.pipeline import Lemmatizer
    except ImportError:
        return None
    if type(lemmatizer) not in (Lemmatizer, EnglishLemmatizer):
        return None
    if getattr(lemmatizer, "mode", None) != "rule":
        return None
    if getattr(lemmatizer, "_validated", True) is False:
        lemmatizer._validate_tables()
    return FastLemmatizer(lemmatizer)
