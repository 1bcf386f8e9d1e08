"""Fixing the source's tokens: splitting one token of an S line (`waythismakes` -> `way
this makes`) or joining several (`them . .` -> `them..`), with every annotator's edits
moved so that each stays on its words.

An offset is a boundary between tokens.  Splitting token i into k pieces adds k - 1
boundaries inside it: a boundary after the token moves k - 1 to the right, so an edit of
the token covers all its pieces, an insertion before or after it stays before or after.
Joining tokens i..j (end exclusive) removes the boundaries inside: a boundary after them
moves left; an edit that starts or ends inside the joined tokens straddles the change and
is widened to the whole joined token (an insertion inside it goes after it), with a note
naming it, for its correction may need a look.  Noops, T lines and everything else stay
as written.  The text of the sentence never changes: the pieces of a split join to the
token, and a join glues the tokens without a space."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from m2lsp.errors import UsageError
from m2lsp.model import Block


@dataclass(frozen=True)
class Retokenised:
    """The block's new lines (its S line first, without line ends), and the edits that
    straddled a join, widened."""

    lines: list[str]
    notes: tuple[str, ...] = ()


def split_token(block: Block, index: int, pieces: str) -> Retokenised:
    """The block with token `index` of its S line split into `pieces` (the token's
    characters with spaces where it is cut)."""
    tokens = _tokens(block)
    if not 0 <= index < len(tokens):
        raise UsageError(f"token {index} is not one of the sentence's {len(tokens)} tokens")
    words = pieces.split()
    if "".join(words) != tokens[index]:
        raise UsageError(f"{' '.join(words)!r} is not {tokens[index]!r} cut at spaces: a "
                         "split keeps the text (correct it with an edit)")
    grow = len(words) - 1

    def moved(offset: int, is_end: bool) -> tuple[int, bool]:
        return (offset + grow if offset > index else offset), False

    new = [*tokens[:index], *words, *tokens[index + 1:]]
    return _rewritten(block, new, moved)


def join_tokens(block: Block, start: int, end: int) -> Retokenised:
    """The block with tokens `start`..`end` (end exclusive, two or more) of its S line
    joined into one."""
    tokens = _tokens(block)
    if not 0 <= start < end - 1 < len(tokens):
        raise UsageError(f"tokens {start}-{end} are not two or more of the sentence's "
                         f"{len(tokens)} tokens")
    shrink = end - start - 1

    def moved(offset: int, is_end: bool) -> tuple[int, bool]:
        if offset <= start:
            return offset, False
        if offset >= end:
            return offset - shrink, False
        return (start + 1 if is_end else start), True

    new = [*tokens[:start], "".join(tokens[start:end]), *tokens[end:]]
    return _rewritten(block, new, moved)


def _tokens(block: Block) -> tuple[str, ...]:
    if block.sentence is None:
        raise UsageError("the block has no S line")
    return block.sentence.tokens


def _rewritten(block: Block, tokens: list[str],
               moved: Callable[[int, bool], tuple[int, bool]]) -> Retokenised:
    """The block's lines with the S line made of `tokens` and each edit's offsets moved
    (`moved(offset, is_end)`: the new offset, and whether it was inside a join)."""
    lines = [line.rstrip("\r\n") for line in block.lines]
    assert block.sentence is not None
    lines[block.sentence.row] = "S " + " ".join(tokens)
    notes = []
    for edit in block.edits:
        if edit.is_noop or edit.start < 0 or edit.end < edit.start:
            continue
        if edit.start == edit.end:
            start, inside = moved(edit.start, True)
            end = start
        else:
            (start, inside_start), (end, inside_end) = moved(edit.start, False), \
                moved(edit.end, True)
            inside = inside_start or inside_end
        _, sep, rest = lines[edit.row].partition("|||")
        lines[edit.row] = f"A {start} {end}{sep}{rest}"
        if inside:
            notes.append(f"annotator {edit.annotator.strip()}'s edit {edit.start} "
                         f"{edit.end} straddled the join: now {start} {end}, check its "
                         "correction")
    return Retokenised(lines, tuple(notes))
