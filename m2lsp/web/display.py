"""What the pages show of a sentence, made here so the browser only displays it: an
annotator's edits as rows (span, original words, correction, type, the types that fit the
edit first), the corrected sentence they give, their notes; and the curation of one
sentence with every annotator's version side by side.  Pure of HTTP."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from m2lsp.curation.keys import EditSpec
from m2lsp.model import NONE_CORRECTION, Block, Edit, corrected_sentence
from m2lsp.taxonomy import CHERRANT, ERRANT, NOOP, Taxonomy


def taxonomy_of(language: str) -> Taxonomy:
    """The types offered: ChERRANT's for Chinese, ERRANT's otherwise."""
    return CHERRANT if language.startswith("zh") else ERRANT


def fitting(taxonomy: Taxonomy, start: int, end: int, correction: str) -> list[str]:
    """The types whose operation fits the edit (an insertion, a deletion, a replacement),
    in the taxonomy's order: offered first."""
    ops = _operations(taxonomy, start == end, not correction.strip())
    return [t for t in taxonomy.types if t.split(":")[0] in ops and t != NOOP]


def _operations(taxonomy: Taxonomy, insertion: bool, deletion: bool) -> tuple[str, ...]:
    missing, unnecessary, replaced = ("M", "R", "S") if taxonomy is CHERRANT else ("M", "U", "R")
    if insertion:
        return (missing,)
    if deletion:
        return (unnecessary,)
    return (replaced, "W") if taxonomy is CHERRANT else (replaced,)


def change_rows(tokens: Sequence[str], edits: Iterable[Edit], language: str
                ) -> list[dict[str, Any]]:
    """An annotator's edits (one annotator's, in file order) as the page lists them."""
    taxonomy = taxonomy_of(language)
    rows = []
    for index, edit in enumerate(edits):
        if edit.is_noop:
            rows.append({"index": index, "noop": True, "type": edit.type, "line": edit.text})
            continue
        correction = edit.canonical[0] if edit.canonical else ""
        rows.append({"index": index, "noop": False, "start": edit.start, "end": edit.end,
                     "original": " ".join(tokens[edit.start:edit.end]),
                     "correction": correction, "type": edit.type.strip(),
                     "required": edit.required.strip(), "line": edit.text.rstrip("\r\n"),
                     "fit": fitting(taxonomy, edit.start, edit.end, correction)})
    return rows


def sentence_view(found: Block, annotator: str, language: str) -> dict[str, Any]:
    """The corrected sentence of the layer's annotator and their edits as rows."""
    tokens = list(found.sentence.tokens) if found.sentence else []
    corrected = corrected_sentence(found, annotator)
    return {"corrected": " ".join(tokens) if corrected is None else corrected,
            "changes": change_rows(tokens, found.by_annotator.get(annotator, ()), language)}


def spec_row(tokens: Sequence[str], spec: EditSpec) -> dict[str, Any]:
    """An edit of the curation (apart from who made it) as the curator's page shows it."""
    correction = spec.corrections[0] if spec.corrections else ""
    return {"key": spec.key, "start": spec.start, "end": spec.end, "type": spec.type,
            "original": " ".join(tokens[spec.start:spec.end]),
            "correction": "" if correction == NONE_CORRECTION else correction,
            "required": spec.required}


def key_row(tokens: Sequence[str], key: str) -> dict[str, Any] | None:
    """An edit key (a log's, a note's) as `spec_row` shows an edit; None for a key that
    is not one."""
    from m2lsp.errors import UsageError

    try:
        return spec_row(tokens, EditSpec.parse(key))
    except UsageError:
        return None
