"""Explaining a system file: its sentences and its sources (and the references, which only
the metric reads) as the metric reads them, their ERRANT edits, and the attribution."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from m2lsp.attribution.applying import applied
from m2lsp.attribution.run import Explanation, Settings, explain, extracted
from m2lsp.attribution.variants import Scoring
from m2lsp.errors import UsageError
from m2lsp.parsing.source import Input, file_option
from m2lsp.scoring.metric import REFERENCES, Request

# the metrics that score no sentence on its own
UNEXPLAINABLE = {"cged": "scores sentences by their ids in the truth file",
                 "cgec": "scores the corpus as a whole"}


def explainable(name: str) -> bool:
    return name not in UNEXPLAINABLE


def explain_file(scoring: Scoring, system: Input, settings: Settings,
                 spacy_model: str | None = None, usage: str = "m2lsp explain SYSTEM GOLD"
                 ) -> Explanation:
    """Each edit of `system`'s sentences, attributed its share of `scoring`'s sentence
    score."""
    from m2lsp.annotation.parallel import default_jobs, settings_for

    name = scoring.metric.name
    if name in UNEXPLAINABLE:
        raise UsageError(f"--metric {name} {UNEXPLAINABLE[name]}: explain needs a metric "
                         "that scores each sentence")
    if name == "cleme":  # CLEME scores each sentence at its sentence level only
        scoring = replace(scoring, values={**scoring.values, "cleme_level": "sentence"})
    found = _sentences(scoring, system, usage)
    if name == "cherrant":
        return _explain_chinese(scoring, found, settings)
    annotation = settings_for("en", scoring.config, spacy_model=spacy_model)
    edits = extracted(found.sources, found.hypotheses, annotation,
                      scoring.shared.jobs or default_jobs())
    return explain(scoring, found.sources, found.hypotheses, edits, settings, found.texts)


def _sentences(scoring: Scoring, system: Input, usage: str) -> Any:
    from m2lsp.scoring.sentence_inputs import with_references, without_references

    values: Mapping[str, Any] = scoring.values
    request = Request(system, scoring.gold, scoring.shared, None, scoring.encoding,
                      usage=usage)
    source = values.get("source")
    label = scoring.metric.name
    given = None if source is None else file_option(source)
    if scoring.metric.declaration.reference_free:
        return without_references(request, given, label)
    references = tuple(file_option(r) for r in values.get(REFERENCES) or ())
    return with_references(request, references, given, label)


def _explain_chinese(scoring: Scoring, found: Any, settings: Settings) -> Explanation:
    """ChERRANT's edits (char level, its first alignment, as `--metric cherrant` annotates
    a plain-text hypothesis against the gold's S lines), applied to the S line's
    characters; each edited sentence goes to the metric without its spaces."""
    from m2lsp.annotation.parallel import ParallelText, annotate, default_jobs
    from m2lsp.attribution.chinese import first_alignment
    from m2lsp.config import config_for
    from m2lsp.errors import InputError

    options = scoring.metric.options(scoring.values, scoring.shared,
                                     scoring.config or config_for([]).score)
    sources = ["".join(s.split()) for s in found.sources]
    for number, source in enumerate(sources, 1):
        if not source:
            raise InputError(f"source sentence {number} is empty: ChERRANT writes no block "
                             "for it")
    text = ParallelText(sources, [list(found.hypotheses)])
    blocks = annotate(text, options.annotation(), scoring.shared.jobs or default_jobs())
    read = [first_alignment(block) for block in blocks]
    spaced = [" ".join(tokens) for tokens, _ in read]
    edits = [e for _, e in read]
    made = [applied(s, e) for s, e in zip(spaced, edits, strict=True)]
    return explain(scoring, spaced, made, edits, settings, found.texts,
                   joined=lambda sentence: sentence.replace(" ", ""), label="cherrant-char")
