"""The annotators of an M2 file, in the order conversions, agreement and reports list
them."""

from __future__ import annotations

from m2lsp.model import M2Document


def annotators(document: M2Document) -> list[str]:
    """Every annotator id of the file, numbers in numeric order, then any others in order of
    first appearance; a file with no edit at all has annotator 0."""
    found = dict.fromkeys(e.annotator.strip() for b in document.blocks for e in b.edits)
    numbers = sorted((a for a in found if a.isdigit()), key=int)
    return numbers + [a for a in found if not a.isdigit()] or ["0"]
