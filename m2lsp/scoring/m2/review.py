"""One scored sentence in plain words, for people reviewing a system or fixing the gold.

An M2 system edit is padded with unchanged words (the scorer's lattice joins them), and its
offsets mean little to a reader.  Here each edit is named by its smallest change with a word
of context on each side, `"is genetic" → "is the genetic"`, and says why it counts as it
does: found, missed (and what the system wrote there instead), or proposed where the chosen
annotator has no such edit (and whether another annotator has it).
"""

from __future__ import annotations

from collections.abc import Sequence

from m2lsp.scoring.m2 import py2
from m2lsp.scoring.m2.lattice import GoldEdit, SystemEdit
from m2lsp.scoring.m2.maxmatch import Counts, SentenceResult, p_r_f
from m2lsp.scoring.review import (
    EMPTY,
    FOUND,
    MISSED,
    WRONG,
    Change,
    Mark,
    SentenceReview,
    escape,
)


def review(sentence: SentenceResult, beta: float) -> SentenceReview:
    """The chosen annotator's reading of a scored sentence, in plain words."""
    best = sentence.best
    tokens = py2.split(sentence.source)
    found = {(e.start, e.end, e.original, e.correction) for e in best.correct}
    hits = [any((g.start, g.end, g.original, c) in found for c in g.corrections)
            for g in best.gold]
    wrong = sentence.false_positives
    marks = [*_gold_marks(sentence, tokens, hits, wrong),
             *(_wrong_mark(e, sentence, tokens) for e in wrong)]
    marks.sort(key=lambda m: (m.start, m.end, m.kind))
    counts = best.counts
    p, r, f = p_r_f(Counts(*counts), beta)
    return SentenceReview(sentence.index, sentence.line, best.annotator, *counts, p, r, f,
                          sentence.source, sentence.hypothesis, tuple(marks),
                          _corrected(sentence, tokens, hits))


def _gold_marks(sentence: SentenceResult, tokens: list[str], hits: list[bool],
                wrong: Sequence[SystemEdit]) -> list[Mark]:
    best = sentence.best
    out = []
    for index, (gold, hit) in enumerate(zip(best.gold, hits, strict=True)):
        kind = best.types[index] if index < len(best.types) else ""
        line = best.lines[index] if index < len(best.lines) else None
        change = Change.of(gold.start, gold.end, gold.original, gold.corrections[0]
                           if gold.corrections else "")
        text = _gold_text(gold, tokens, change) + (f" ({kind})" if kind else "")
        message = (f"found: {text}" if hit else
                   f"missed: {text}; {_instead(change, wrong, tokens)}")
        out.append(Mark(FOUND if hit else MISSED, change.start, change.end, message, kind,
                        line))
    return out


def _gold_text(gold: GoldEdit, tokens: list[str], change: Change) -> str:
    """The first correction's change, and the other corrections the gold accepts."""
    text = change.shown(tokens)
    others = [c or EMPTY for c in gold.corrections[1:]]
    return text + (f" (or {' / '.join(others)})" if others else "")


def _instead(change: Change, wrong: Sequence[SystemEdit], tokens: list[str]) -> str:
    """What the system did where the gold edit is: another change, or nothing."""
    for edit in wrong:
        other = Change.of(*edit)
        if change.overlaps(other):
            return f"the system wrote {other.shown(tokens)} instead"
    return "the system left this unchanged"


def _wrong_mark(edit: SystemEdit, sentence: SentenceResult, tokens: list[str]) -> Mark:
    change = Change.of(*edit)
    return Mark(WRONG, change.start, change.end,
                f"system: {change.shown(tokens)}; {_why_wrong(change, sentence, tokens)}")


def _why_wrong(change: Change, sentence: SentenceResult, tokens: list[str]) -> str:
    """No annotator has the change; or which ones have it (then the chosen one has it in
    another span, or another annotator was chosen for this sentence)."""
    chosen = sentence.best.annotator
    having = [a.annotator for a in sentence.attempts if any(
        Change.of(g.start, g.end, g.original, c) == change
        for g in a.gold for c in g.corrections)]
    if not having:
        return f"no annotator {change.verb()} here"
    if chosen in having:
        return (f"annotator {chosen} {change.verb()} here too, but within a larger edit: M2 "
                "counts an edit only when its whole span matches")
    names = ", ".join(str(a) for a in having)
    return (f"annotator {names} {change.verb()} here, but this sentence is scored against "
            f"annotator {chosen} (the one that gives the best corpus F)")


def _corrected(sentence: SentenceResult, tokens: list[str], hits: list[bool]
               ) -> tuple[tuple[int, str], ...]:
    """Each annotator's corrected sentence; the chosen annotator's edits the system found in
    **bold**, those it missed in _italics_ (deleted words struck through)."""
    out = []
    for attempt in sentence.attempts:
        marked = hits if attempt.annotator == sentence.best.annotator else None
        out.append((attempt.annotator, _apply(tokens, attempt.gold, marked)))
    return tuple(out)


def _apply(tokens: list[str], gold: Sequence[GoldEdit], hits: list[bool] | None) -> str:
    words = [escape(t) for t in tokens]
    order = sorted(range(len(gold)), key=lambda i: (gold[i].start, gold[i].end))
    pieces, at = [], 0
    for i in order:
        edit = gold[i]
        if edit.start < at or edit.start > edit.end or edit.end > len(tokens):
            continue  # overlapping or unusable: shown as the source
        pieces.extend(words[at:edit.start])
        pieces.append(_marked(edit, hits[i] if hits is not None else None))
        at = edit.end
    pieces.extend(words[at:])
    return " ".join(p for p in pieces if p)


def _marked(edit: GoldEdit, hit: bool | None) -> str:
    correction = edit.corrections[0] if edit.corrections else ""
    text = escape(correction) if correction else f"~~{escape(edit.original)}~~" \
        if edit.original else ""
    if not text or hit is None:
        return text
    return f"**{text}**" if hit else f"_{text}_"


