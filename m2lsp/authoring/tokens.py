"""Offsets without counting: each token's number on an S line, what may follow `A ` on an
edit line (start offsets, each with the tokens from it, then end offsets), and which error
types fit an edit's span and correction.  Pure data for the editor's inlay hints and
completion, computed for the lines asked about only (a 400k-line file costs its visible
blocks)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from m2lsp.model import NONE_CORRECTION, Block, M2Document

_OFFSETS = re.compile(r"A( +)(-?\d+)?(?:( +)(-?\d+)?)?")


@dataclass(frozen=True)
class TokenNumber:
    line: int
    col: int  # where the token starts
    number: int


def token_numbers(document: M2Document, first: int, last: int,
                  blocks: Iterable[int] | None = None) -> list[TokenNumber]:
    """The number of each token of the S lines between lines `first` and `last` (of the
    blocks `blocks` only, by index, where given)."""
    wanted = set(blocks) if blocks is not None else None
    out: list[TokenNumber] = []
    k = max(bisect.bisect_right(document.starts, first) - 1, 0)
    for index in range(k, len(document.blocks)):
        start, block = document.starts[index], document.blocks[index]
        if start > last:
            break
        if block.sentence is None or start < first or (wanted is not None and
                                                       index not in wanted):
            continue
        out.extend(TokenNumber(start, col, n)
                   for n, (col, _) in enumerate(block.sentence.token_columns()))
    return out


def block_index(document: M2Document, line: int) -> int | None:
    """The index of the block holding `line` (None: between blocks)."""
    k = bisect.bisect_right(document.starts, line) - 1
    if k < 0 or line >= document.starts[k] + len(document.blocks[k].lines):
        return None
    return k


@dataclass(frozen=True)
class OffsetChoice:
    """A number that may be typed at the cursor: `label`, the tokens it names (`detail`),
    and the columns of the text it replaces (the number being typed, if any)."""

    label: str
    detail: str
    replace: tuple[int, int]
    sort: str


def offset_choices(block: Block, line: str, col: int) -> list[OffsetChoice]:
    """What completes the offsets field of an A line being typed at column `col`: after
    `A `, each start offset (detail: the tokens from it); after `A i `, each end offset
    from i (detail: the tokens i..end, or the insertion point); nothing elsewhere."""
    if block.sentence is None or "|||" in line[:col]:
        return []
    match = _OFFSETS.fullmatch(line[:col])
    if match is None:
        return []
    tokens = block.sentence.tokens
    here = (col - len(match.group(4) or "") if match.group(3) else
            col - len(match.group(2) or ""), col)
    if match.group(3) is None:  # the start offset
        return [OffsetChoice(str(i), _shown(tokens, i, len(tokens), 6) or "(the end)", here,
                             f"{i:06d}") for i in range(len(tokens) + 1)]
    start = int(match.group(2)) if match.group(2) else None
    if start is None or not 0 <= start <= len(tokens):
        return []
    return [OffsetChoice(str(j), _shown(tokens, start, j, 6) or
                         f"(insert before token {start})", here, f"{j:06d}")
            for j in range(start, len(tokens) + 1)]


def _shown(tokens: tuple[str, ...], start: int, end: int, most: int) -> str:
    words = tokens[start:min(end, start + most)]
    return " ".join(words) + (" …" if end - start > most else "")


def fitting_types(types: Mapping[str, str], start: int | None, end: int | None,
                  correction: str | None, taxonomy: str | None) -> list[str]:
    """The types that fit an edit: `noop` only at -1 -1; ERRANT's M: on an empty span, U:
    and R: on a span (U: only without a correction, R: only with one, where it is known);
    ChERRANT's M, R, S, W likewise.  Unknown offsets: every type."""
    names = sorted(types)
    if start is None or end is None:
        return names
    if (start, end) == (-1, -1):
        return [t for t in names if t == "noop"]
    empty = correction is not None and correction.strip() in ("", NONE_CORRECTION)
    given = correction is not None and not empty
    letters = _letters(taxonomy, start == end, empty, given)
    return [t for t in names if t != "noop" and _fits(t, letters)]


_OPERATIONS = frozenset("MRSUW")


def _fits(kind: str, letters: set[str] | None) -> bool:
    """Whether a type's operation letter is one of `letters` (a type without one, UNK or
    a NUCLE type, always fits)."""
    letter = kind.partition(":")[0]
    return letters is None or letter not in _OPERATIONS or letter in letters


def _letters(taxonomy: str | None, insertion: bool, empty: bool, given: bool
             ) -> set[str] | None:
    if taxonomy == "errant":
        return {"M"} if insertion else {"U"} if empty else {"R"} if given else {"U", "R"}
    if taxonomy == "cherrant":
        return {"M"} if insertion else {"R"} if empty else {"S", "W"} if given else {
            "R", "S", "W"}
    return None
