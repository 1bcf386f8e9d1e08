"""An annotator's edits made without counting tokens: an edit for a span of an S line's
tokens and a correction, typed by the engine `m2lsp annotate` uses (ERRANT for English,
ChERRANT's for char-level Chinese, else the plain alignment's default type); an edit typed
again; and an annotator's edits realigned to an edited correction, keeping what was set by
hand where the edit itself did not change.

Typing one edit: the engine annotates the whole sentence with that edit made; the type of
its edit with the same span is the edit's type (else the one type of the engine's edits
inside the span, else the default type, with a note)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from m2lsp.annotation.from_correction import Engines, annotate_correction
from m2lsp.authoring.lines import edit_line, in_order, with_lines
from m2lsp.errors import UsageError
from m2lsp.model import NONE_CORRECTION, Block, Edit


@dataclass(frozen=True)
class Typed:
    """An edit's type, the engine that gave it, and why it may need checking."""

    type: str
    engine: str
    note: str | None = None


@dataclass(frozen=True)
class Rewrite:
    """A block's new lines after its S line, and what typed the edits."""

    lines: list[str]
    engine: str
    note: str | None = None


def corrected_tokens(tokens: Sequence[str], start: int, end: int, correction: str
                     ) -> list[str]:
    return [*tokens[:start], *correction.split(), *tokens[end:]]


def typed(tokens: Sequence[str], start: int, end: int, correction: str,
          engines: Engines) -> Typed:
    """The type of the edit `start`..`end` -> `correction` (see the module's docstring)."""
    correction = "" if correction.strip() == NONE_CORRECTION else correction
    target = " ".join(corrected_tokens(tokens, start, end, correction))
    found = annotate_correction(tokens, target, "0", engines)
    spans = [_parts(line) for line in found.lines if not line.startswith("A -1 -1")]
    same = [kind for s, e, kind in spans if (s, e) == (start, end)]
    inside = {kind for s, e, kind in spans if start <= s and e <= end}
    if same:
        return Typed(same[0], found.engine, found.note)
    if len(inside) == 1:
        return Typed(inside.pop(), found.engine, found.note)
    default = engines.default_type
    return Typed(default, found.engine, f"the engine cut this edit otherwise: typed "
                 f"{default}, check it" if spans else found.note)


def _parts(line: str) -> tuple[int, int, str]:
    head, kind = line.split("|||")[:2]
    _, start, end = head.split()
    return int(start), int(end), kind


def check_span(block: Block, start: int, end: int) -> None:
    count = block.token_count
    if count is None:
        raise UsageError("the block has no S line")
    if not 0 <= start <= end <= count:
        raise UsageError(f"tokens {start}-{end} are not a span of the sentence's {count} "
                         "tokens")


def added(block: Block, start: int, end: int, correction: str, annotator: str,
          engines: Engines) -> Rewrite:
    """The block with an edit of `annotator` for tokens `start`..`end` (end exclusive)
    becoming `correction`, typed by the engine and placed among that annotator's lines in
    offset order (its noop, if any, removed)."""
    check_span(block, start, end)
    assert block.sentence is not None
    found = typed(block.sentence.tokens, start, end, correction, engines)
    line = edit_line(start, end, found.type, _written(correction), annotator)
    mine = block.by_annotator.get(annotator, [])
    return Rewrite(with_lines(block, annotator, in_order(mine, line, start, end)),
                   found.engine, found.note)


def _written(correction: str) -> str:
    return " ".join(correction.split()) or NONE_CORRECTION


def retyped(block: Block, row: int, engines: Engines) -> Rewrite:
    """The block with the edit at `row` typed again by the engine (every other field as
    written)."""
    edit = next((e for e in block.edits if e.row == row), None)
    if edit is None or edit.is_noop or block.sentence is None:
        raise UsageError("no edit to type on this line")
    check_span(block, edit.start, edit.end)
    first = edit.canonical[0] if edit.canonical else ""
    found = typed(block.sentence.tokens, edit.start, edit.end, first, engines)
    fields = edit.text.split("|||")
    fields[1] = found.type
    lines = [("|||".join(fields) if e.row == row else e.text)
             for e in block.by_annotator[edit.annotator.strip()]]
    return Rewrite(with_lines(block, edit.annotator.strip(), lines), found.engine,
                   found.note)


def realigned(block: Block, annotator: str, corrected: str, engines: Engines) -> Rewrite:
    """The block with `annotator`'s edits made again from `corrected` (the whole corrected
    sentence), each new edit whose span and corrections an old edit of the annotator had
    keeping that edit's line as written (its hand-set type, REQUIRED/OPTIONAL field and
    comment)."""
    if block.sentence is None:
        raise UsageError("the block has no S line")
    found = annotate_correction(block.sentence.tokens, corrected, annotator, engines)
    lines = kept_by_hand(found.lines, block, annotator)
    return Rewrite(with_lines(block, annotator, lines), found.engine, found.note)


def kept_by_hand(lines: Sequence[str], block: Block, annotator: str) -> list[str]:
    """New A lines of `annotator`, each one whose span and corrections an old line of the
    annotator in `block` had replaced by that old line (its type, REQUIRED/OPTIONAL field
    and comment as set by hand)."""
    old = {(e.start, e.end, e.canonical): e for e in block.by_annotator.get(annotator, [])}
    return [_kept(line, old) for line in lines]


def _kept(line: str, old: dict[tuple, Edit]) -> str:
    if line.startswith("A -1 -1"):
        return line
    start, end, _ = _parts(line)
    correction = line.split("|||")[2]
    canonical = tuple("" if c == NONE_CORRECTION else c.strip()
                      for c in correction.split("||"))
    before = old.get((start, end, canonical))
    return before.text.rstrip("\r\n") if before is not None else line
