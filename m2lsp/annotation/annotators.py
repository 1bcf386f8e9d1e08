"""The annotator for a language's settings: ERRANT over a spaCy pipeline (English) or
ChERRANT's char level (Chinese)."""

from __future__ import annotations

from collections.abc import Sequence

from m2lsp.annotation.chinese import ChineseAnnotator, ChineseSettings
from m2lsp.annotation.english import EnglishAnnotator, EnglishSettings

Settings = EnglishSettings | ChineseSettings
Annotator = EnglishAnnotator | ChineseAnnotator


def make_annotator(settings: Settings, cached: bool) -> Annotator:
    """The annotator for these settings, with the cache if `cached`."""
    from m2lsp.annotation.parse_cache import default_cache

    cache = default_cache() if cached else None
    if isinstance(settings, ChineseSettings):
        return ChineseAnnotator(settings, cache)
    return EnglishAnnotator(settings, cache)


def spacing_problem(settings: Settings, text: str) -> str | None:
    """A warning when text cut at single spaces (another language than English, without
    --tok, as MultiGEC's fork cuts it) holds other whitespace, which then stays inside a
    token (errant 3.0.2 splits English at any whitespace)."""
    import re
    import unicodedata

    if isinstance(settings, ChineseSettings) or settings.lang == "en" or settings.tokenise \
            or settings.conllu:
        return None
    found = re.search(r"[^\S \n]", text)
    if found is None:
        return None
    char = found.group(0)
    name = unicodedata.name(char, f"U+{ord(char):04X}")
    line_start = text.rfind("\n", 0, found.start()) + 1
    line_end = text.find("\n", found.start())
    line = text[line_start:line_end if line_end >= 0 else len(text)]
    at = found.start() - line_start
    context = line[max(0, at - 15):at + 16]
    return (f"warning: the text has U+{ord(char):04X} {name} (in {context!r}): cut at "
            "single spaces, as MultiGEC-2025's ERRANT cuts it, it stays inside a token; give "
            "--tok (the pipeline's tokenizer), or replace it with a space")


def script_problem(settings: Settings, text: str) -> str | None:
    """A warning when the text's script is not the annotator's (Latin letters cut into
    characters by ChERRANT's char level); Chinese given to ERRANT is a UsageError, for its
    output would be whole sentences as R:NOUN edits."""
    from m2lsp.errors import UsageError
    from m2lsp.scripts import chinese_for_english, script

    found = script(text)
    if isinstance(settings, ChineseSettings):
        if found not in (None, "Chinese"):
            return ("warning: the text is not Chinese, but --lang zh annotates it as "
                    "ChERRANT's char level does (every letter a token): for English use "
                    "--lang en")
        return None
    if settings.lang == "en":
        problem = chinese_for_english({"text": text}, "--lang en (the default)",
                                      "use --lang zh (ChERRANT's char level)")
        if problem is not None:
            raise UsageError(problem)
        return None
    from m2lsp.annotation.languages import script_of

    expected = script_of(settings.lang)
    if found is not None and found != expected:
        return (f"warning: the text is in {found} script, but --lang {settings.lang} is "
                f"written in {expected} script: is --lang right?")
    return None


def length_problem(settings: Settings, source: str, corrections: Sequence[str]) -> str | None:
    """Why a row cannot be annotated within the bounds on one alignment table (and, for
    English, on one parse), told from its text before anything is parsed; else None."""
    if isinstance(settings, ChineseSettings):
        from m2lsp.annotation.chinese_align import MAX_CELLS

        chars = len("".join(source.split()))
        for target in corrections:
            theirs = len("".join(target.split()))
            if (chars + 1) * (theirs + 1) > MAX_CELLS:
                return (f"a sentence of {chars:,} characters and its target of {theirs:,} "
                        f"are too long to align (a table of more than {MAX_CELLS:,} cells)")
        return None
    from m2lsp.annotation.english import length_problem as english

    return english(settings, source, corrections)
