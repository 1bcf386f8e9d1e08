"""Raw sentences in the tokens `m2lsp annotate` gives them: the language's pipeline as
`annotate --tok` runs it (English and the other languages: the spaCy pipeline's tokenizer,
whitespace tokens dropped; char-level Chinese: ChERRANT's characters).  What an S line of
a file to annotate is made of (`m2lsp skeleton`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import m2lsp.defaults as defaults

Tokeniser = Callable[[str], list[str]]


def tokeniser(lang: str, config: Any, spacy_model: str | None = None) -> Tokeniser:
    """The tokeniser of `lang` (`config`: the score settings, whose spacy-model(s) name
    the pipeline where `spacy_model` does not); loading it raises an M2lspError naming
    what is missing."""
    if lang == "zh":
        from m2lsp.annotation.chinese import split

        return lambda text: [c for c in split("".join(text.split())) if c]
    from m2lsp.annotation.english import EnglishAnnotator, _tokenised
    from m2lsp.annotation.parallel import settings_for

    settings = settings_for(lang, config, spacy_model=spacy_model,
                            english=(True, False, defaults.MERGES[0]))
    nlp = EnglishAnnotator(settings).nlp  # type: ignore[arg-type]
    return lambda text: [t.text for t in _tokenised(nlp, text)] if text.strip() else []
