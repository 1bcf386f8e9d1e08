"""Applying fixes: non-overlapping text edits, repeated until nothing more applies.

Like ruff: each round applies every fix of the requested applicability that does not
overlap a fix already taken, then the text is checked again, until a round changes nothing.
Edits are applied to the text as decoded, with its own line breaks, so every character
outside an edit is kept as it was.
"""

from __future__ import annotations

import bisect
import hashlib
import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from m2lsp.diagnostic import Applicability, Diagnostic, Fix
from m2lsp.parsing.source import SourceText

MAX_ROUNDS = 10


@dataclass(frozen=True)
class FixOutcome:
    """The fixed text, whether it keeps a BOM, and how many fixes were applied."""

    source: SourceText
    applied: int
    by_code: dict[str, int]
    first_round: int = 0  # of `applied`, those of the first round (what `check` counted)

    def describe(self) -> str:
        """"fixed 3 problem(s)", and how many of them only the first fixes brought out."""
        later = self.applied - self.first_round
        return f"fixed {self.applied} problem(s)" + (
            f" ({later} of them found only once the first fixes were made)"
            if 0 < later < self.applied else "")


def applicable(diagnostics: Iterable[Diagnostic],
               allowed: frozenset[Applicability]) -> list[tuple[str, Fix]]:
    """(code, fix) for each diagnostic whose fix has an allowed applicability."""
    return [(d.code, d.fix) for d in diagnostics
            if d.fix is not None and d.fix.applicability in allowed]


def fixable_at_once(diagnostics: Iterable[Diagnostic],
                    allowed: frozenset[Applicability] = frozenset({Applicability.SAFE})
                    ) -> int:
    """How many of the diagnostics' allowed fixes one round of `--fix` applies, by the rule
    `apply_once` follows: a fix that overlaps one taken before it is not counted (two
    rules' fixes of the same CRLF line end are one fix, and `--fix` says "fixed 1")."""
    taken = Taken()
    count = 0
    fixes = applicable(diagnostics, allowed)
    for _, fix in sorted(fixes, key=lambda cf: _first_position(cf[1])):
        ranges = [((e.span.line, e.span.col), (e.span.end_line, e.span.end_col), "")
                  for e in fix.edits]
        if any(taken.conflicts(r) for r in ranges):  # type: ignore[arg-type]
            continue
        for a, b, _ in ranges:
            taken.add(a, b)  # type: ignore[arg-type]
        count += 1
    return count


def _first_position(fix: Fix) -> tuple[int, int]:
    return min(((e.span.line, e.span.col) for e in fix.edits), default=(-1, -1))


def apply_once(source: SourceText, fixes: list[tuple[str, Fix]]
               ) -> tuple[SourceText, list[tuple[str, Fix]]]:
    """Apply the fixes that do not overlap earlier ones: the new text and the fixes used."""
    if not fixes:
        return source, []
    text, used, bom = apply_to(source.text, fixes, offsets(source), source.bom)
    return SourceText(text, source.encoding, bom, source.problem), used


def apply_to(text: str, fixes: list[tuple[str, Fix]], offset: Callable[[int, int], int],
             bom: bool = False) -> tuple[str, list[tuple[str, Fix]], bool]:
    """`apply_once` on `text`, whose (line, column) positions `offset` reads (a chunk of a
    larger text: see linting/stream.py): the new text, the fixes used and the BOM kept."""
    taken = Taken()
    replacements: list[tuple[int, int, str]] = []
    used: list[tuple[str, Fix]] = []
    for code, fix in sorted(fixes, key=lambda cf: _first_offset(offset, cf[1])):
        ranges = [(offset(e.span.line, e.span.col), offset(e.span.end_line, e.span.end_col),
                   e.new_text) for e in fix.edits]
        if any(taken.conflicts(r) for r in ranges):
            continue
        for a, b, _ in ranges:
            taken.add(a, b)
        replacements.extend(ranges)
        used.append((code, fix))
        bom = bom and not fix.removes_bom
    return _replace(text, replacements), used, bom


@dataclass
class Taken:
    """The ranges already taken in a round, sorted by start: a new range is compared with
    its neighbours only (comparing it with every one made a round quadratic: 43 s for the
    80,000 fixes of a 5 MB file)."""

    starts: list[int] = field(default_factory=list)
    ranges: list[tuple[int, int]] = field(default_factory=list)

    def add(self, start: int, end: int) -> None:
        at = bisect.bisect_right(self.starts, start)
        self.starts.insert(at, start)
        self.ranges.insert(at, (start, end))

    def conflicts(self, new: tuple[int, int, str]) -> bool:
        """Whether `new` overlaps a taken range.  Taken ranges never overlap each other, so
        those that can touch `new` are the one before its start and those starting up to
        its end."""
        at = bisect.bisect_left(self.starts, new[0])
        before = at - 1  # every range of the last start before new's (an insertion there
        while before >= 0 and self.starts[before] == self.starts[at - 1]:  # and a range)
            if _overlaps(new, self.ranges[before]):
                return True
            before -= 1
        while at < len(self.ranges) and self.starts[at] <= new[1]:
            if _overlaps(new, self.ranges[at]):
                return True
            at += 1
        return False


def _replace(text: str, replacements: list[tuple[int, int, str]]) -> str:
    """Apply non-overlapping (start, end, new text) replacements in one pass."""
    pieces = []
    pos = 0
    for start, end, new in sorted(replacements, key=lambda r: (r[0], r[1])):
        pieces.append(text[pos:start])
        pieces.append(new)
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces)


def _first_offset(offset: Callable[[int, int], int], fix: Fix) -> int:
    if not fix.edits:
        return -1
    return min(offset(e.span.line, e.span.col) for e in fix.edits)


def offsets(source: SourceText) -> Callable[[int, int], int]:
    """`source.offset`, without keeping the text's lines on it when they are not there
    yet: the texts of a 50 MB file's rounds of fixes, each with its million lines, took
    gigabytes."""
    if "line_offsets" in vars(source) or "\r" in source.text:
        return source.offset
    text = source.text
    lengths = [len(line) for line in text.split("\n")]
    starts = list(itertools.accumulate((n + 1 for n in lengths), initial=0))

    def offset(line: int, col: int) -> int:
        if line >= len(lengths):
            return len(text)
        return starts[line] + min(col, lengths[line])
    return offset


def _overlaps(a: tuple[int, int, str], b: tuple[int, int]) -> bool:
    """Whether an edit range conflicts with a range already taken.

    Non-empty ranges conflict when they share a character; an insertion conflicts with a
    range that strictly contains its point, and with another insertion at the same point.
    """
    a_start, a_end = a[0], a[1]
    b_start, b_end = b
    if a_start == a_end and b_start == b_end:
        return a_start == b_start
    if a_start == a_end:
        return b_start < a_start < b_end
    if b_start == b_end:
        return a_start < b_start < a_end
    return a_start < b_end and b_start < a_end


Round = Callable[[SourceText], tuple[SourceText, list[str]]]
"""A round of fixes: the new text and the code of each fix applied (none: the text is
stable)."""


def fix_until_stable(source: SourceText, check: Callable[[SourceText], Iterable[Diagnostic]],
                     allowed: frozenset[Applicability] = frozenset({Applicability.SAFE}),
                     one_round: Round | None = None) -> FixOutcome:
    """Apply fixes round after round until no allowed fix remains (or MAX_ROUNDS).  Fixes
    that undo each other (a round back to an earlier text) stop there, at that earlier
    text and its count: nothing is reported fixed that is not.  A round applies the
    allowed fixes of `check`'s diagnostics with `apply_once`, unless `one_round` makes it
    (the same way, by other means: linting/stream.py)."""
    def by_check(text: SourceText) -> tuple[SourceText, list[str]]:
        new, used = apply_once(text, applicable(check(text), allowed))
        return new, [code for code, _ in used]
    return fix_rounds(source, one_round or by_check)


def fix_rounds(source: SourceText, one_round: Round) -> FixOutcome:
    """`fix_until_stable` with each round made by `one_round`."""
    applied: dict[str, int] = {}
    seen = {_digest(source): dict(applied)}  # (digests: a round's text may be 50 MB)
    first = 0
    for round_ in range(MAX_ROUNDS):
        new, used = one_round(source)
        if not used or _digest(new) in seen:
            if used:
                applied = seen[_digest(new)]
                source = new
            break
        for code in used:
            applied[code] = applied.get(code, 0) + 1
        first = len(used) if round_ == 0 else first
        source = new
        seen[_digest(source)] = dict(applied)
    total = sum(applied.values())
    return FixOutcome(source, total, applied, min(first, total))


def _digest(source: SourceText) -> tuple[bytes, bool]:
    """What tells a round's text from another's, without keeping it (nor encoding it whole
    at once)."""
    digest, text, step = hashlib.blake2b(digest_size=20), source.text, 1 << 20
    for at in range(0, len(text), step):
        digest.update(text[at:at + step].encode("utf-8", "surrogatepass"))
    return digest.digest(), source.bom
