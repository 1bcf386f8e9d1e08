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
from m2lsp.diagnostic import Diagnostic
from m2lsp.lint import (
    LintResult,
    block_annotators,
    context_from_counts,
    lint,
    selected_rules,
    with_severities,
)
from m2lsp.model import Block, Format, M2Document
from m2lsp.parsing.m2 import find_blocks, parse_block, paused_gc
from m2lsp.parsing.source import SourceText
from m2lsp.rules.base import BlockSet, Context, Rule, Scope

_BREAKS = re.compile(r"(\r\n|\r|\n)")
# Characters that make a line matter to the text-wide rules (trailing or odd whitespace,
# Unicode line breaks inside a line); a file with none of them, only LF breaks and every
# block separated gives those rules nothing to report.
_SPECIAL = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]|\\s$")
_ODD_CHARS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
# The text-wide and document-wide rules that can only report something given a special
# line, a non-LF line break or an unseparated block (a text from an editor has neither a
# decoding problem nor a BOM); any other such rule always runs.
GATED = {"X001": "never", "X002": "never", "X003": "odd", "M010": "odd", "X004": "special",
         "M008": "special", "M011": "special", "M005": "unseparated"}


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


def _special(line: str) -> bool:
    return _SPECIAL.search(line) is not None


def count_special(lines: list[str]) -> int:
    """How many lines are special; a whole text without odd characters needs only the
    trailing-whitespace test (`\\s$` is `str.isspace` of the last character)."""
    if _ODD_CHARS.search("\n".join(lines)):
        return sum(map(_special, lines))
    return sum(1 for line in lines if line[-1:].isspace())


def _odd(breaks: list[str]) -> int:
    return sum(1 for brk in breaks if brk != "\n")


@dataclass(frozen=True)
class Splice:
    """Lines `first`..`old_last` (inclusive) were replaced by `count` lines; the number of
    special lines and of non-LF breaks changed by `special` and `odd`."""

    first: int
    old_last: int
    count: int
    special: int
    odd: int


class LiveDocument:
    """The text of an open document and its diagnostics, kept current change by change."""

    def __init__(self, text: str, fmt: Format, settings: LintSettings | None = None,
                 known_ids: frozenset[str] | None = None) -> None:
        self.format = fmt
        self.settings = settings or LintSettings()
        self.known_ids = known_ids
        self.lines, self.breaks = split_lines(text)
        self._text: str | None = text
        self._result: LintResult | None = None
        self._m2: _M2State | None = None
        if fmt is Format.M2:
            self._m2 = _M2State(self.lines, self.breaks, self.settings)

    @property
    def text(self) -> str:
        if self._text is None:
            parts = [None] * (2 * len(self.lines) - 1)
            parts[0::2] = self.lines
            parts[1::2] = self.breaks
            self._text = "".join(parts)  # type: ignore[arg-type]
        return self._text

    def apply(self, changes: Iterable[TextChange]) -> None:
        """Apply changes in order, as LSP's didChange lists them."""
        for change in changes:
            self._apply(change)
        self._result = None

    def reconfigure(self, settings: LintSettings) -> None:
        self.settings = settings
        self._result = None
        if self._m2 is not None:
            self._m2 = _M2State(self.lines, self.breaks, settings)

    def lint(self) -> LintResult:
        """The diagnostics of the current text (equal to `lint` of it)."""
        if self._result is None:
            if self._m2 is not None:
                self._result = self._m2.result(lambda: self.text)
            else:
                self._result = lint(SourceText(self.text), self.format, self.settings,
                                    known_ids=self.known_ids)
        return self._result

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
                self._m2 = _M2State(self.lines, self.breaks, self.settings)
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
        special = count_special(new_lines) - count_special(lines[a:b + 1])
        odd = _odd(new_breaks) - _odd(breaks[a:b])
        lines[a:b + 1] = new_lines
        breaks[a:b] = new_breaks
        return Splice(a, b, len(new_lines), special, odd)

    def _clamp(self, position: tuple[int, int]) -> tuple[int, int]:
        line, col = position
        if line >= len(self.lines):
            return len(self.lines) - 1, len(self.lines[-1])
        line = max(line, 0)
        return line, min(max(col, 0), len(self.lines[line]))


class _M2State:
    """Blocks of an M2 document as parallel lists, with each block's diagnostics (rows
    relative to the block) and the counts behind the file-wide context."""

    def __init__(self, lines: list[str], breaks: list[str], settings: LintSettings) -> None:
        self.lines, self.breaks, self.settings = lines, breaks, settings
        self.rules = selected_rules(Format.M2, settings)
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.separated: list[bool] = []
        self.blocks: list[Block] = []
        self.found: list[list[Diagnostic]] = []
        self.written: Counter[str] = Counter()
        self.types: Counter[str] = Counter()
        self.sentences: Counter[str] = Counter()  # annotator id -> sentences using it
        self.annotated = 0  # sentences with an annotator id
        self.special = count_special(lines)
        self.odd_breaks = _odd(breaks)
        self._document: M2Document | None = None
        with paused_gc():
            self._resplit(0, 0, 0, len(lines))
            self.context = self._context()
            self._check(0, len(self.blocks))

    # -- changes ---------------------------------------------------------------------

    def changed(self, splice: Splice) -> None:
        """Bring blocks, counts and diagnostics up to date after a splice of self.lines."""
        self._document = None
        self.special += splice.special
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
            if _file_facts(context) != _file_facts(self.context):
                self.context = context
                self._check(0, len(self.blocks))
            else:
                self._check(k0, k0 + made)

    def _shift(self, k1: int, delta: int) -> None:
        if delta:
            self.starts[k1:] = [s + delta for s in self.starts[k1:]]
            self.ends[k1:] = [e + delta for e in self.ends[k1:]]

    def _resplit(self, k0: int, k1: int, r0: int, r1: int) -> int:
        """Split lines r0..r1 into blocks replacing blocks k0..k1; returns how many."""
        lines = self.lines
        spans = find_blocks(lines[r0:r1])
        if spans and spans[0].start == 0 and r0 > 0 and not (
                not lines[r0 - 1] or lines[r0 - 1].isspace()):
            first_separated = False
        else:
            first_separated = None
        for block in self.blocks[k0:k1]:
            self._count(block, -1)
        blocks = [parse_block(tuple(lines[r0 + s.start:r0 + s.end])) for s in spans]
        for block in blocks:
            self._count(block, 1)
        self.starts[k0:k1] = [r0 + s.start for s in spans]
        self.ends[k0:k1] = [r0 + s.end for s in spans]
        separated = [s.separated for s in spans]
        if first_separated is not None:
            separated[0] = first_separated
        self.separated[k0:k1] = separated
        self.blocks[k0:k1] = blocks
        self.found[k0:k1] = [[] for _ in spans]
        return len(spans)

    def _count(self, block: Block, sign: int) -> None:
        for edit in block.edits:
            for counter, key in ((self.written, edit.annotator), (self.types, edit.type)):
                _add(counter, key, sign)
        ids = block_annotators(block) if block.edits else ()
        for key in ids:
            _add(self.sentences, key, sign)
        if ids:
            self.annotated += sign

    def _context(self) -> Context:
        return context_from_counts(SourceText(""), None, self.settings, self.written,
                                   self.types, self.sentences, self.annotated)

    def _check(self, k0: int, k1: int) -> None:
        found = self.found
        for index in range(k0, k1):
            found[index] = []
        view = BlockSet(self.blocks[k0:k1])
        for rule in self.rules[Scope.M2_BLOCK]:
            for index, diagnostic in rule.check(view, self.context):
                found[k0 + index].append(diagnostic)

    # -- results ---------------------------------------------------------------------

    def document(self) -> M2Document:
        if self._document is None:
            self._document = M2Document(
                blocks=tuple(self.blocks), starts=tuple(self.starts),
                unseparated=frozenset(i for i, s in enumerate(self.separated) if not s),
                line_count=len(self.lines))
        return self._document

    def result(self, text: Callable[[], str]) -> LintResult:
        wide = self._wide_rules()
        needs_text = any(r.code != "M005" for rules in wide.values() for r in rules)
        source = SourceText(text()) if needs_text else SourceText("")
        ctx = replace(self.context, source=source, m2=self.document())
        out: list[Diagnostic] = []
        for rule in wide.get(Scope.TEXT, ()):
            out.extend(rule.check(source, ctx))
        starts = self.starts
        for index, found in enumerate(self.found):
            if found:
                row = starts[index]
                out.extend(d.shifted(row) for d in found)
        for rule in wide.get(Scope.M2_DOCUMENT, ()):
            out.extend(rule.check(self.document(), ctx))
        out = with_severities(out, self.settings)
        out.sort(key=lambda d: d.sort_key)
        return LintResult(source, Format.M2, tuple(out), self.document())

    def _wide_rules(self) -> dict[Scope, list[Rule]]:
        """The text-wide and document-wide rules that can find something now."""
        has = {"special": self.special > 0, "odd": self.odd_breaks > 0,
               "unseparated": not all(self.separated), "never": False}
        out: dict[Scope, list[Rule]] = {}
        for scope in (Scope.TEXT, Scope.M2_DOCUMENT):
            chosen = [r for r in self.rules[scope] if has[GATED.get(r.code, "special")]
                      or r.code not in GATED]
            if chosen:
                out[scope] = chosen
        return out


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
