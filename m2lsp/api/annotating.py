"""`m2lsp.annotate()`: plain text into M2, as errant_parallel or ChERRANT writes it."""

from __future__ import annotations

from typing import Any

import m2lsp.api.inputs as inputs
from m2lsp.errors import InputError, UsageError


def annotate(sources: Any, corrections: Any, *, lang: str = "en",
             spacy_model: str | None = None, jobs: int = 1) -> str:
    """M2 of the sources and their corrections, as errant_parallel (lang="en") or
    ChERRANT's parallel_to_m2.py -g char (lang="zh") writes it.  `corrections`: one
    annotator's (a path, a text or a list of sentences), or a list of them, one per
    annotator (a list of str is always one annotator's sentences)."""
    import m2lsp.arguments as arguments
    from m2lsp.annotation.parallel import ParallelText
    from m2lsp.annotation.parallel import annotate as annotated

    if not isinstance(lang, str) or lang not in ("en", "zh"):
        raise UsageError(f"lang: 'en' or 'zh', not {lang!r}")
    if spacy_model is not None and not isinstance(spacy_model, str):
        raise inputs.refuse("spacy_model", spacy_model, "a pipeline's name (a str)")
    workers = int(inputs.counted(arguments.JOBS, "jobs", jobs))
    with inputs.files():
        text = ParallelText(inputs.lines_of(sources, "the sources"),
                            [inputs.lines_of(c, f"correction {k + 1}") for k, c in
                             enumerate(inputs.several(corrections, "corrections"))])
        for k, column in enumerate(text.corrections):
            if len(column) != len(text.sources):
                raise InputError(f"{len(text.sources)} sources but correction {k + 1} has "
                                 f"{len(column)} sentences")
        settings = _annotation_settings(lang, spacy_model)
        from m2lsp.annotation.annotators import script_problem
        from m2lsp.logs import logger

        sample = "\n".join([*text.sources[:2000], *(c for cs in text.corrections
                                                     for c in cs[:2000])])
        warning = script_problem(settings, sample)  # Chinese for English: a UsageError
        if warning is not None:
            logger(__name__).warning(warning)
        return "".join(annotated(text, settings, workers))


def _annotation_settings(lang: str, spacy_model: str | None) -> Any:
    from m2lsp.annotation.parallel import settings_for
    from m2lsp.config import config_for

    return settings_for(lang, config_for([]).score, spacy_model=spacy_model)
