"""Every language but English and Chinese, as MultiGEC-2025 annotated them: ERRANT's English
merger and classifier over a Universal Dependencies parse (the shared task's fork,
cainesap/errant, run as `errant_parallel -lang xx`).

What the fork does otherwise than errant 3.0.2, and m2lsp does too (its code is not used):
- its command always tokenises with spaCy's whitespace tokenizer of the example in spaCy's
  documentation (the line cut at each single space; an empty piece a token " " with no space
  after it), then runs the whole pipeline over the tokens;
- its classifier reads each token's fine-grained tag (`tag_`) through the identity map of
  the 17 UD tags (with errant's renames: ADP -> PREP, PROPN -> NOUN, CCONJ -> CONJ, and the
  extra PTB keys errant adds), and takes a token whose tag is empty or not in that map as
  POS "X" with the dependency "dep".

The parse comes from any installed spaCy pipeline of the language, or from CoNLL-U files
that Stanza, UDPipe or Trankit wrote (`conllu`), so no model is ever downloaded.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from functools import cache
from typing import Any

UD_TAGS = ("ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON",
           "PROPN", "PUNCT", "SCONJ", "SYM", "VERB", "X")
# errant's renames of UD tags, and the tags its map adds beyond its file
RENAMED = {"ADP": "PREP", "PROPN": "NOUN", "CCONJ": "CONJ"}
EXTRA = {'""': "PUNCT", "SP": "SPACE", "_SP": "SPACE", "BES": "VERB", "HVS": "VERB",
         "ADD": "X", "GW": "X", "NFP": "X", "XX": "X"}
UD_MAP = {**{tag: RENAMED.get(tag, tag) for tag in UD_TAGS}, **EXTRA}

# the script a language is written in, where it is not Latin (for a warning on mismatch)
SCRIPTS = {"zh": "Chinese", "ja": "Japanese", "ko": "Korean", "el": "Greek",
           **dict.fromkeys(("ru", "uk", "be", "bg", "mk", "sr", "kk", "ky", "mn", "tg"),
                           "Cyrillic"),
           **dict.fromkeys(("ar", "fa", "ur"), "Arabic"), "he": "Hebrew", "hi": "Devanagari",
           "th": "Thai", "hy": "Armenian", "ka": "Georgian"}


def script_of(lang: str) -> str:
    return SCRIPTS.get(lang, "Latin")


def edit_info(tokens: Sequence[Any]) -> tuple[list[str], list[str]]:
    """The classifier's POS and dependency of each token, read as the fork reads them."""
    pos, dep = [], []
    for token in tokens:
        tag = token.tag_
        if tag and tag in UD_MAP:
            pos.append(UD_MAP[tag])
            dep.append(token.dep_)
        else:
            pos.append("X")
            dep.append("dep")
    return pos, dep


@cache
def ud_classifier() -> Any:
    """errant 3.0.2's English classifier as a module of its own (loaded again from its
    file, so the English one is untouched), reading tags as `edit_info` does."""
    import errant.en.classifier as english

    spec = importlib.util.spec_from_file_location("m2lsp_errant_ud_classifier",
                                                  english.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    setattr(module, "pos_map", dict(UD_MAP))  # noqa: B010 (a module's globals, replaced)
    setattr(module, "get_edit_info", edit_info)  # noqa: B010
    return module


def ud_annotator(lang: str, nlp: Any) -> Any:
    """errant's Annotator over `nlp` with the English merger and the UD classifier."""
    import errant.en.merger as merger
    from errant.annotator import Annotator

    classifier = ud_classifier()
    classifier.nlp = nlp
    return Annotator(lang, nlp, merger, classifier)


def whitespace_doc(vocab: Any, text: str) -> Any:
    """A Doc of the text cut at each single space, as the fork's tokenizer cuts it: an empty
    piece (two spaces in a row) is a token " " with no space after it, a last empty piece
    is dropped, and the last token has no space after it."""
    from spacy.tokens import Doc

    words = text.split(" ")
    spaces = [True] * len(words)
    for index, word in enumerate(words):
        if word == "":
            words[index] = " "
            spaces[index] = False
    if words[-1] == " ":
        words, spaces = words[:-1], spaces[:-1]
    else:
        spaces[-1] = False
    return Doc(vocab, words=words, spaces=spaces)
