"""The annotator for a language's settings: ERRANT over a spaCy pipeline (English) or
ChERRANT's char level (Chinese)."""

from __future__ import annotations

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
