"""ERRANT's types of edits already made: each sentence and one annotator's corrected
sentence parsed once (as errant_parallel parses them, split at whitespace), each edit
typed by ERRANT's classifier on its span of both.  What M412 compares a hand-set type
with."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Span = tuple[int, int, str]  # start, end, the correction (tokens joined by spaces)


@dataclass(frozen=True)
class Asked:
    """A sentence's tokens and one annotator's edits in it (in offset order, disjoint)."""

    tokens: tuple[str, ...]
    edits: tuple[Span, ...]


def corrected(asked: Asked) -> tuple[list[str], list[tuple[int, int, int, int]]] | None:
    """The corrected tokens and each edit's [o_start, o_end, c_start, c_end], as ERRANT's
    Edit holds them; None where the edits cannot be applied together."""
    out: list[str] = []
    spans, at = [], 0
    for start, end, correction in asked.edits:
        if start < at or end > len(asked.tokens) or start > end:
            return None
        out.extend(asked.tokens[at:start])
        first = len(out)
        out.extend(correction.split())
        spans.append((start, end, first, len(out)))
        at = end
    out.extend(asked.tokens[at:])
    return out, spans


def errant_types(asked: Sequence[Asked], model: str | None = None) -> list[list[str] | None]:
    """ERRANT's type of every edit of each `Asked` (None: its edits cannot be applied);
    the pipeline loaded once (an M2lspError names what is missing)."""
    from errant.edit import Edit

    made = [corrected(a) for a in asked]
    usable = [k for k, m in enumerate(made) if m is not None]
    out: list[list[str] | None] = [None] * len(asked)
    if not usable:
        return out
    annotator = _annotator(model)
    docs = annotator.parse([" ".join(asked[k].tokens) for k in usable] +
                           [" ".join(made[k][0]) for k in usable])  # type: ignore[index]
    for n, k in enumerate(usable):
        orig, cor, spans = docs[n], docs[len(usable) + n], made[k][1]  # type: ignore[index]
        out[k] = [annotator.errant.classify(Edit(orig, cor, list(span))).type
                  for span in spans]
    return out


@functools.cache
def _annotator(model: str | None) -> Any:
    from m2lsp.annotation.english import EnglishAnnotator, EnglishSettings

    annotator = EnglishAnnotator(EnglishSettings(model=model))
    annotator.load()
    return annotator
