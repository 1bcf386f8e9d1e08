"""Documents being edited: text changes applied line by line, and linting that redoes only
what a change touched.

The language server keeps one `LiveDocument` per open file.  A change replaces a range of
lines; for M2 files only the blocks around it are split, parsed and checked again, and the
file-wide facts the block rules depend on (annotator ids in use, the taxonomy) are kept as
counts, so a keystroke in a 400k-line file costs about as much as the block it lands in.
When those facts change, every block is checked again.  Whatever the path, the result
equals `lint` on the whole text: a randomized test holds the two together.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from m2lsp.config import LintSettings
from m2lsp.diagnostic import Diagnostic, position_order
from m2lsp.linting.run import (
    LintResult,
    block_findings,
    context_from_counts,
    lint,
    m2_counts,
    selected_rules,
    with_severities,
)
from m2lsp.model import Block, Format, M2Document
from m2lsp.parsing.m2 import block_bounds, parse_blocks, paused_gc
from m2lsp.parsing.source import SourceText
from m2lsp.rules.base import Context, LineRange, Rule, Scope

_BREAKS = re.compile(r"(\r\n|\r|\n)")
# The text-wide and document-wide rules that can only report something given a non-LF line
# break or an unseparated block (a text from an editor has neither a decoding problem nor a
# BOM); any other such rule always runs.  (Line rules run per block: see _M2State.)
GATED = {"X001": "never", "X002": "never", "X003": "odd", "M010": "odd",
         "M005": "unseparated", "N001": "sidecars", "N002": "sidecars", "N003": "sidecars",
         "N004": "sidecars"}


@dataclass(frozen=True)
class TextChange:
    """Replace the text between two (line, column) positions; no range: the whole text.
    Columns count code points."""

    text: str
    start: tuple[int, int] | None = None
    end: tuple[int, int] | None = None


def split_lines(text: str) -> tuple[list[str], list[str]]:
    """Lines as `SourceText.lines` splits them, and the break after each but the last."""
    if "\r" not in text:  # the common case, without the regular expression
        lines = text.split("\n")
        return lines, ["\n"] * (len(lines) - 1)
    parts = _BREAKS.split(text)
    return parts[0::2], parts[1::2]


def _odd(breaks: list[str]) -> int:
    return sum(1 for brk in breaks if brk != "\n")


@dataclass(frozen=True)
class Splice:
    """Lines `first`..`old_last` (inclusive) were replaced by `count` lines; the number of
    non-LF breaks changed by `odd`."""

    first: int
    old_last: int
    count: int
    odd: int


class LiveDocument:
    """The text of an open document and its diagnostics, kept current change by change."""

    def __init__(self, text: str, fmt: Format, settings: LintSettings | None = None,
                 known_ids: frozenset[str] | None = None, corpus: Any = None,
                 budget: float | None = None) -> None:
        self.format = fmt
        self.budget = budget  # seconds a whole pass of the rules may take (None: no bound)
        self.generation = 0  # counts changes of the text and settings (see `pending`)
        self.settings = settings or LintSettings()
        self.known_ids = known_ids
        self.corpus = corpus  # MultiGEC: the file's place in its corpus (run.Corpus)
        self.sidecars: Any = None  # M2: the files beside it (curation.sidecars.Sidecars)
        self.lines, self.breaks = split_lines(text)
        self._text: str | None = text
        self._result: LintResult | None = None
        self._m2: _M2State | None = None
        if fmt is Format.M2:
            self._m2 = _M2State(self.lines, self.breaks, self.settings)

    @property
    def text(self) -> str:
        if self._text is None:
            parts = [""] * (2 * len(self.lines) - 1)
            parts[0::2] = self.lines
            parts[1::2] = self.breaks
            self._text = "".join(parts)
        return self._text

    def apply(self, changes: Iterable[TextChange]) -> None:
        """Apply changes in order, as LSP's didChange lists them."""
        for change in changes:
            self._apply(change)
        self._result = None
        self.generation += 1

    def reconfigure(self, settings: LintSettings) -> None:
        self.settings = settings
        self._result = None
        self.generation += 1
        if self._m2 is not None:
            self._m2 = _M2State(self.lines, self.breaks, settings, self.sidecars)

    def use_sidecars(self, sidecars: Any) -> None:
        """The files beside an M2 document as `m2lsp check` reads them
        (`curation.sidecars.Sidecars`; None: none), for the rules that read them (N)."""
        self.sidecars = sidecars
        self._result = None
        self.generation += 1
        if self._m2 is not None:
            self._m2.sidecars = sidecars

    def lint(self) -> LintResult:
        """The diagnostics of the current text (equal to `lint` of it)."""
        if self._result is None:
            if self._m2 is not None:
                self._result = self._m2.result(lambda: self.text)
            else:
                self._result = self.pending()[1]()
        return self._result

    def pending(self) -> tuple[int, Callable[[], LintResult]]:
        """(generation, a pass of the rules over the current text) for another thread: it
        reads only values taken now, so the document may change meanwhile; `adopt` keeps
        its result if nothing did.  Formats other than M2, whose rules run over the whole
        text at each change (M2's re-check only the blocks a change touches)."""
        text, fmt, settings = self.text, self.format, self.settings
        known_ids, corpus, budget = self.known_ids, self.corpus, self.budget

        def run() -> LintResult:
            import time

            deadline = None if budget is None else time.monotonic() + budget
            return lint(SourceText(text), fmt, settings, known_ids=known_ids, corpus=corpus,
                        deadline=deadline)
        return self.generation, run

    @property
    def unchecked(self) -> tuple[str, ...]:
        """The rules the last whole pass had no time for (M2: none, never timed)."""
        return () if self._m2 is not None or self._result is None else self._result.unchecked

    @property
    def linted(self) -> bool:
        """Whether the current text's diagnostics are known (M2's always are)."""
        return self._m2 is not None or self._result is not None

    def adopt(self, generation: int, result: LintResult) -> bool:
        """Keep a pass's result when the document has not changed since `pending`."""
        if generation != self.generation or self._m2 is not None:
            return False
        self._result = result
        return True

    def select(self, limit: int, focus: int = 0) -> Selection:
        """At most `limit` of the current diagnostics (0: all), without building the whole
        list when it is longer: the most severe, then those nearest line `focus`."""
        if self._m2 is not None:
            return self._m2.select(limit, focus, lambda: self.text)
        found = self.lint().diagnostics
        if not limit or len(found) <= limit:
            return Selection(found, len(found))
        chosen = sorted(found, key=lambda d: (d.severity, abs(d.span.line - focus)))[:limit]
        return Selection(tuple(sorted(chosen, key=position_order)), len(found))

    def diagnostics_on(self, first: int, last: int) -> list[Diagnostic]:
        """The current diagnostics that touch lines `first`..`last` (for code actions: a
        cursor's line in a file with many findings costs its blocks, not the file)."""
        if self._m2 is None:
            return [d for d in self.lint().diagnostics
                    if d.span.end_line >= first and d.span.line <= last]
        return self._m2.diagnostics_on(first, last, lambda: self.text)

    def lint_context_taxonomy(self) -> Any:
        """The M2 taxonomy the rules apply (None: other formats, or none detected)."""
        return None if self._m2 is None else self._m2.context.taxonomy

    @property
    def m2(self) -> M2Document | None:
        """The parsed M2 document (None for other formats)."""
        return None if self._m2 is None else self._m2.document()

    def _apply(self, change: TextChange) -> None:
        self._text = None
        if change.start is None or change.end is None:
            self.lines, self.breaks = split_lines(change.text)
            if self._m2 is not None:
                self._m2 = _M2State(self.lines, self.breaks, self.settings, self.sidecars)
            return
        splice = self._splice(change)
        if self._m2 is not None:
            self._m2.changed(splice)

    def _splice(self, change: TextChange) -> Splice:
        """Replace the lines around the change."""
        assert change.start is not None and change.end is not None
        lines, breaks = self.lines, self.breaks
        (l0, c0), (l1, c1) = sorted((self._clamp(change.start), self._clamp(change.end)))
        # one line of context either side, so a CR and an LF that meet become one break
        a, b = max(l0 - 1, 0), min(l1 + 1, len(lines) - 1)
        offsets, pieces, at = {}, [], 0
        for row in range(a, b + 1):
            offsets[row] = at
            pieces.append(lines[row])
            at += len(lines[row])
            if row < b:
                pieces.append(breaks[row])
                at += len(breaks[row])
        old = "".join(pieces)
        new = old[:offsets[l0] + c0] + change.text + old[offsets[l1] + c1:]
        new_lines, new_breaks = split_lines(new)
        odd = _odd(new_breaks) - _odd(breaks[a:b])
        lines[a:b + 1] = new_lines
        breaks[a:b] = new_breaks
        return Splice(a, b, len(new_lines), odd)

    def _clamp(self, position: tuple[int, int]) -> tuple[int, int]:
        line, col = position
        if line >= len(self.lines):
            return len(self.lines) - 1, len(self.lines[-1])
        line = max(line, 0)
        return line, min(max(col, 0), len(self.lines[line]))


class _M2State:
    """Blocks of an M2 document as parallel lists, with each block's diagnostics (rows
    relative to the block) and the counts behind the file-wide context.

    Each block also owns the lines after it up to the next block (its *segment*: the
    separators), and the line rules' findings there; lines before the first block are the
    head.  `merged[k]` holds block k's diagnostics of both kinds in position order, and
    `tally` counts every merged diagnostic by severity, so that a view of the most pressing
    ones never walks them all (see `select`)."""

    def __init__(self, lines: list[str], breaks: list[str], settings: LintSettings,
                 sidecars: Any = None) -> None:
        self.lines, self.breaks, self.settings = lines, breaks, settings
        self.sidecars = sidecars  # the files beside the document, read by the N rules
        self.rules = selected_rules(Format.M2, settings)
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.separated: list[bool] = []
        self.blocks: list[Block] = []
        self.found: list[list[Diagnostic]] = []
        self.line_found: list[list[Diagnostic]] = []
        self.merged: list[list[Diagnostic]] = []
        self.worst: list[int] = []  # the most severe severity in merged[k] (5: none)
        self.head: list[Diagnostic] = []
        self.tally = [0] * 5  # by severity (1-4) over merged and head
        self.written: Counter[str] = Counter()
        self.types: Counter[str] = Counter()
        self.sentences: Counter[str] = Counter()  # annotator id -> sentences using it
        self.annotated = 0  # sentences with an annotator id
        self.odd_breaks = _odd(breaks)
        self._document: M2Document | None = None
        with paused_gc():
            self._resplit(0, 0, 0, len(lines))
            self.context = self._context()
            self._check(0, len(self.blocks), merge=False)  # _check_all_lines merges
            self._check_all_lines()

    # -- changes ---------------------------------------------------------------------

    def changed(self, splice: Splice) -> None:
        """Bring blocks, counts and diagnostics up to date after a splice of self.lines."""
        self._document = None
        self.odd_breaks += splice.odd
        delta = splice.count - (splice.old_last - splice.first + 1)
        with paused_gc():
            k0 = max(bisect.bisect_right(self.starts, splice.first) - 2, 0)
            k1 = min(bisect.bisect_right(self.starts, splice.old_last) + 1, len(self.starts))
            r0 = 0 if k0 == 0 else self.starts[k0]
            r1 = len(self.lines) if k1 == len(self.starts) else self.ends[k1 - 1] + delta
            self._shift(k1, delta)
            made = self._resplit(k0, k1, r0, r1)
            context = self._context()
            everywhere = _file_facts(context) != _file_facts(self.context)
            self.context = context  # (what else it holds, such as the types used, is current)
            if everywhere:
                self._check(0, len(self.blocks))
            else:
                self._check(k0, k0 + made)
            # the segment before k0 may now end later (the blocks after it are gone)
            self._check_lines(max(k0 - 1, 0), k0 + made, head=k0 <= 1)

    def _shift(self, k1: int, delta: int) -> None:
        if delta:
            self.starts[k1:] = [s + delta for s in self.starts[k1:]]
            self.ends[k1:] = [e + delta for e in self.ends[k1:]]

    def _resplit(self, k0: int, k1: int, r0: int, r1: int) -> int:
        """Split lines r0..r1 into blocks replacing blocks k0..k1; returns how many."""
        lines = self.lines
        starts, ends, separated = block_bounds(lines[r0:r1])
        self._count(self.blocks[k0:k1], -1)
        for merged in self.merged[k0:k1]:
            self._tally(merged, -1)
        blocks = parse_blocks([tuple(lines[r0 + s:r0 + e]) for s, e in zip(starts, ends,
                                                                           strict=True)])
        self._count(blocks, 1)
        if starts and starts[0] == 0 and r0 > 0 and not (
                not lines[r0 - 1] or lines[r0 - 1].isspace()):
            separated[0] = False
        self.starts[k0:k1] = [r0 + s for s in starts] if r0 else starts
        self.ends[k0:k1] = [r0 + e for e in ends] if r0 else ends
        self.separated[k0:k1] = separated
        self.blocks[k0:k1] = blocks
        made = len(blocks)
        self.found[k0:k1] = [[] for _ in range(made)]
        self.line_found[k0:k1] = [[] for _ in range(made)]
        self.merged[k0:k1] = [[] for _ in range(made)]
        self.worst[k0:k1] = [5] * made
        return made

    def _count(self, blocks: list[Block], sign: int) -> None:
        """Add (sign 1) or remove (-1) the blocks' part of the file-wide counts."""
        if not blocks:
            return
        written, types, sentences, annotated = m2_counts(blocks)
        for counter, counts in ((self.written, written), (self.types, types),
                                (self.sentences, sentences)):
            for key, count in counts.items():
                _add(counter, key, sign * count)
        self.annotated += sign * annotated

    def _tally(self, found: Iterable[Diagnostic], sign: int) -> None:
        tally = self.tally
        for d in found:
            tally[d.severity] += sign

    def _context(self) -> Context:
        return context_from_counts(SourceText(""), None, self.settings, self.written,
                                   self.types, self.sentences, self.annotated)

    def _check(self, k0: int, k1: int, merge: bool = True) -> None:
        """The block rules over blocks k0..k1."""
        found: list[list[Diagnostic]] = [[] for _ in range(k0, k1)]
        for index, diagnostic in block_findings(self.blocks[k0:k1], self.rules[Scope.M2_BLOCK],
                                                self.context):
            found[index].append(diagnostic)
        self.found[k0:k1] = found
        if merge:
            self._merge(k0, k1)

    def _check_lines(self, k0: int, k1: int, head: bool) -> None:
        """The line rules over the segments of blocks k0..k1 (and the head)."""
        rules = self.rules[Scope.LINE]
        starts, lines = self.starts, self.lines
        for k in range(k0, k1):
            stop = starts[k + 1] if k + 1 < len(starts) else len(lines)
            segment = LineRange(0, lines[starts[k]:stop])
            self.line_found[k] = [d for rule in rules for d in rule.check(segment, self.context)]
        self._merge(k0, k1)
        if head:
            first = LineRange(0, lines[:starts[0]] if starts else lines)
            self._set_head([d for rule in rules for d in rule.check(first, self.context)])

    def _check_all_lines(self) -> None:
        """`_check_lines` of every block and the head, with each line rule run once over the
        whole text: what it finds on a line depends on that line alone."""
        starts = self.starts
        segments: list[list[Diagnostic]] = [[] for _ in starts]
        head: list[Diagnostic] = []
        whole = LineRange(0, self.lines)
        for diagnostic in (d for rule in self.rules[Scope.LINE]
                           for d in rule.check(whole, self.context)):
            k = bisect.bisect_right(starts, diagnostic.span.line) - 1
            if k < 0:
                head.append(diagnostic)
            else:
                segments[k].append(diagnostic.shifted(-starts[k]))
        self.line_found = segments
        self._merge(0, len(starts))
        self._set_head(head)

    def _set_head(self, found: list[Diagnostic]) -> None:
        """The line rules' findings before the first block, in place of the old ones."""
        self._tally(self.head, -1)
        self.head = _in_order(with_severities(found, self.settings))
        self._tally(self.head, 1)

    def _merge(self, k0: int, k1: int) -> None:
        merged, found, line_found = self.merged, self.found, self.line_found
        for k in range(k0, k1):
            if not (merged[k] or found[k] or line_found[k]):
                self.worst[k] = 5
                continue
            self._tally(merged[k], -1)
            both = found[k] + line_found[k] if line_found[k] else found[k]
            merged[k] = _in_order(with_severities(both, self.settings)) if both else both
            self.worst[k] = min((d.severity for d in merged[k]), default=5)
            self._tally(merged[k], 1)

    # -- results ---------------------------------------------------------------------

    def document(self) -> M2Document:
        if self._document is None:
            self._document = M2Document(
                blocks=tuple(self.blocks), starts=tuple(self.starts),
                unseparated=frozenset(i for i, s in enumerate(self.separated) if not s),
                line_count=len(self.lines))
        return self._document

    def result(self, text: Callable[[], str]) -> LintResult:
        return self._result(*self._wide(text))

    def _result(self, source: SourceText, wide: list[Diagnostic]) -> LintResult:
        """Every diagnostic, given the text-wide and document-wide ones."""
        out = [*wide, *self.head]
        starts = self.starts
        for index, found in enumerate(self.merged):
            if found:
                row = starts[index]
                out.extend(d.shifted(row) for d in found)
        out.sort(key=position_order)
        return LintResult(source, Format.M2, tuple(out), self.document())

    def _wide(self, text: Callable[[], str]) -> tuple[SourceText, list[Diagnostic]]:
        """The source, and the findings of the text-wide and document-wide rules that can
        find something now."""
        wide = self._wide_rules()
        # only text-wide rules read the text (the document-wide ones read the blocks): a
        # keystroke in a large file then never joins its lines
        source = SourceText(text()) if wide.get(Scope.TEXT) else SourceText("")
        ctx = replace(self.context, source=source, m2=self.document(), sidecars=self.sidecars)
        out: list[Diagnostic] = []
        for rule in wide.get(Scope.TEXT, ()):
            out.extend(rule.check(source, ctx))
        for rule in wide.get(Scope.M2_DOCUMENT, ()):
            out.extend(rule.check(self.document(), ctx))
        return source, with_severities(out, self.settings)

    def _wide_rules(self) -> dict[Scope, list[Rule]]:
        """The text-wide and document-wide rules that can find something now."""
        has = {"odd": self.odd_breaks > 0, "unseparated": not all(self.separated),
               "never": False, "sidecars": self.sidecars is not None}
        out: dict[Scope, list[Rule]] = {}
        for scope in (Scope.TEXT, Scope.M2_DOCUMENT):
            chosen = [r for r in self.rules[scope] if r.code not in GATED
                      or has[GATED[r.code]]]
            if chosen:
                out[scope] = chosen
        return out

    def select(self, limit: int, focus: int, text: Callable[[], str]) -> Selection:
        """At most `limit` diagnostics (0: all): the most severe first and, of the least
        severe kind that fits only in part, those nearest line `focus`."""
        source, wide = self._wide(text)
        total = sum(self.tally) + len(wide)
        if not limit or total <= limit:
            return Selection(self._result(source, wide).diagnostics, total)
        cut, room = _cut(self.tally, wide, limit)
        chosen: list[Diagnostic] = []
        for d in [*wide, *self.head]:
            if d.severity < cut or (d.severity == cut and room > 0):
                chosen.append(d)
                room -= d.severity == cut
        starts, merged, worst = self.starts, self.merged, self.worst
        for index in (k for k, w in enumerate(worst) if w < cut):
            row = starts[index]
            chosen.extend(d.shifted(row) for d in merged[index] if d.severity < cut)
        chosen.extend(self._nearest(cut, room, focus))
        chosen.sort(key=position_order)
        return Selection(tuple(chosen), total)

    def diagnostics_on(self, first: int, last: int, text: Callable[[], str]
                       ) -> list[Diagnostic]:
        starts = self.starts
        k0 = max(bisect.bisect_right(starts, first) - 1, 0)
        k1 = bisect.bisect_right(starts, last)
        found = [*self._wide(text)[1], *self.head]
        for index in range(k0, k1):
            found.extend(d.shifted(starts[index]) for d in self.merged[index])
        return [d for d in found if d.span.end_line >= first and d.span.line <= last]

    def _nearest(self, severity: int, count: int, focus: int) -> list[Diagnostic]:
        """`count` diagnostics of `severity` from the blocks nearest line `focus`."""
        starts, merged = self.starts, self.merged
        right = bisect.bisect_right(starts, focus)
        left = right - 1
        out: list[Diagnostic] = []
        while len(out) < count and (left >= 0 or right < len(starts)):
            use_left = right >= len(starts) or (
                left >= 0 and focus - starts[left] <= starts[right] - focus)
            index = left if use_left else right
            if use_left:
                left -= 1
            else:
                right += 1
            row = starts[index]
            found = [d.shifted(row) for d in merged[index] if d.severity == severity]
            found.sort(key=lambda d: abs(d.span.line - focus))
            out.extend(found[:count - len(out)])
        return out


@dataclass(frozen=True)
class Selection:
    """The diagnostics chosen to show, in position order, and how many there are in all."""

    diagnostics: tuple[Diagnostic, ...]
    total: int

    @property
    def hidden(self) -> int:
        return self.total - len(self.diagnostics)


def _cut(tally: list[int], wide: list[Diagnostic], limit: int) -> tuple[int, int]:
    """The least severe severity shown (all of those more severe are), and how many of it
    fit."""
    counts = list(tally)
    for d in wide:
        counts[d.severity] += 1
    used = 0
    for severity in (1, 2, 3, 4):
        if used + counts[severity] > limit:
            return severity, limit - used
        used += counts[severity]
    return 5, 0


def _in_order(found: list[Diagnostic]) -> list[Diagnostic]:
    found.sort(key=position_order)
    return found


def _add(counter: Counter[str], key: str, sign: int) -> None:
    value = counter[key] + sign
    if value:
        counter[key] = value
    else:
        del counter[key]


def _file_facts(context: Context) -> tuple:
    """What block rules know of the whole file: a change means every block is checked."""
    return (context.annotators, context.taxonomy, context.expected_annotators,
            context.rare_annotators)
