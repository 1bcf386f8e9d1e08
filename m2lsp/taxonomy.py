"""Error-type taxonomies of M2 files, with what each type means (for checks, hovers and
completion), and detection of the taxonomy a file uses."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

NOOP = "noop"


@dataclass(frozen=True)
class Taxonomy:
    """A named set of error types and their meanings."""

    name: str
    title: str
    types: Mapping[str, str]

    def accepts(self, etype: str) -> bool:
        return etype in self.types

    @functools.cached_property
    def names(self) -> frozenset[str]:
        """The type names, once (hashable: a key for per-type caches)."""
        return frozenset(self.types)

    def meaning(self, etype: str) -> str | None:
        return self.types.get(etype)


# ERRANT (Bryant et al. 2017): operation M/R/U + category.
_ERRANT_OPS = {"M": "Missing", "R": "Replacement", "U": "Unnecessary"}
_ERRANT_CATEGORIES = {
    "ADJ": "adjective", "ADV": "adverb", "CONJ": "conjunction", "CONTR": "contraction",
    "DET": "determiner", "NOUN": "noun", "NOUN:POSS": "noun possessive", "OTHER": "other",
    "PART": "particle", "PREP": "preposition", "PRON": "pronoun", "PUNCT": "punctuation",
    "VERB": "verb", "VERB:FORM": "verb form", "VERB:TENSE": "verb tense",
}
# categories that only exist as replacements
_ERRANT_R_ONLY = {
    "ADJ:FORM": "adjective form", "MORPH": "morphology", "NOUN:INFL": "noun inflection",
    "NOUN:NUM": "noun number", "ORTH": "orthography (case, whitespace)",
    "SPELL": "spelling", "VERB:INFL": "verb inflection",
    "VERB:SVA": "subject-verb agreement", "WO": "word order",
}


def _errant_types() -> dict[str, str]:
    types = {f"{op}:{cat}": f"{word} {meaning}" for op, word in _ERRANT_OPS.items()
             for cat, meaning in _ERRANT_CATEGORIES.items()}
    types.update({f"R:{cat}": f"Replacement {meaning}" for cat, meaning in _ERRANT_R_ONLY.items()})
    types["UNK"] = "Unknown: an error the annotator marked but did not correct"
    types[NOOP] = "No edit: this annotator makes no change to the sentence"
    return types


ERRANT = Taxonomy("errant", "ERRANT (BEA-2019)", _errant_types())

NUCLE = Taxonomy("nucle", "NUCLE / CoNLL-2014 (28 types)", {
    "Vt": "Verb tense", "Vm": "Verb modal", "V0": "Missing verb", "Vform": "Verb form",
    "SVA": "Subject-verb agreement", "ArtOrDet": "Article or determiner",
    "Nn": "Noun number", "Npos": "Noun possessive", "Pform": "Pronoun form",
    "Pref": "Pronoun reference", "Prep": "Preposition", "Wci": "Wrong collocation or idiom",
    "Wa": "Acronyms", "Wform": "Word form", "Wtone": "Tone (formal/informal)",
    "Srun": "Run-on sentence, comma splice", "Smod": "Dangling modifier",
    "Spar": "Parallelism", "Sfrag": "Sentence fragment", "Ssub": "Subordinate clause",
    "WOinc": "Incorrect word order", "WOadv": "Incorrect adjective/adverb order",
    "Trans": "Linking words or phrases", "Mec": "Mechanics: spelling, punctuation, capitals",
    "Rloc-": "Redundancy", "Cit": "Citation", "Others": "Other errors",
    "Um": "Unclear meaning", NOOP: "No edit: this annotator makes no change",
})

_CHERRANT_OPS = {"S": "Substitution", "M": "Missing", "R": "Redundant"}
_CHERRANT_POS = {
    "NOUN": "noun", "VERB": "verb", "ADJ": "adjective", "CONJ": "conjunction",
    "PRON": "pronoun", "ADV": "adverb", "AUX": "auxiliary", "NUM": "numeral",
    "PREP": "preposition", "QUAN": "quantifier", "PUNCT": "punctuation", "OTHER": "other",
    "MC": "missing component",
}


def _cherrant_types() -> dict[str, str]:
    types = {op: f"{word} (character level)" for op, word in _CHERRANT_OPS.items()}
    types.update({f"{op}:{pos}": f"{word} {meaning}" for op, word in _CHERRANT_OPS.items()
                  for pos, meaning in _CHERRANT_POS.items()})
    types["S:SPELL"] = "Substitution: spelling"
    types["W"] = "Word order"
    types["UNK"] = ("Detected, not corrected (ERRANT's convention: the correction is the "
                    "original text; `m2lsp convert --detection-only` writes CGED errors "
                    "without a correction so)")
    types[NOOP] = "No edit: this annotator makes no change"
    return types


CHERRANT = Taxonomy("cherrant", "ChERRANT / NLPCC-2018 (S, M, R, W)", _cherrant_types())

TAXONOMIES = {t.name: t for t in (ERRANT, NUCLE, CHERRANT)}


def detect(types: Iterable[str] | Mapping[str, int]) -> Taxonomy | None:
    """The taxonomy that accepts at least two thirds of `types` (a list, or counts by type; noop and
    UNK aside)."""
    counts = Counter(types)
    for ignored in (NOOP, "UNK"):
        counts.pop(ignored, None)
    total = sum(counts.values())
    if not total:
        return None
    best, accepted = None, 0
    for taxonomy in TAXONOMIES.values():
        n = sum(c for t, c in counts.items() if taxonomy.accepts(t))
        if n > accepted:
            best, accepted = taxonomy, n
    return best if 3 * accepted >= 2 * total else None


def extended(taxonomy: Taxonomy, extra: Iterable[str]) -> Taxonomy:
    """`taxonomy` with more accepted types."""
    extra = tuple(extra)
    if not extra:
        return taxonomy
    types = dict(taxonomy.types)
    types.update({t: "configured in extra-types" for t in extra if t not in types})
    return Taxonomy(taxonomy.name, taxonomy.title, types)
