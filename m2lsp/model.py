"""The document model: what parsing produces and what rules, scorers and the server read.

Every value carries its exact source range.  M2 blocks are position-independent (rows count
from the block's first line) so that a block parsed once can be reused wherever it moves;
the document records where each block starts.  Columns count characters (code points), end
exclusive; lines and columns are 0-based here and converted at the edges (text output is
1-based, LSP counts UTF-16 units).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from enum import StrEnum

_setattr = object.__setattr__


@dataclass(frozen=True, init=False)
class Span:
    """A source range: 0-based lines, 0-based character columns, end exclusive."""

    line: int
    col: int
    end_line: int
    end_col: int

    def __init__(self, line: int, col: int, end_line: int, end_col: int) -> None:
        # one assignment instead of the frozen dataclass's setattr per field: spans are
        # made by the hundred thousand (so are the diagnostics and fixes that hold them)
        _setattr(self, "__dict__", {"line": line, "col": col, "end_line": end_line,
                                    "end_col": end_col})

    @classmethod
    def on_line(cls, line: int, col: int, end_col: int) -> Span:
        """A range within one line."""
        return cls(line, col, line, end_col)

    @classmethod
    def whole_lines(cls, line: int, count: int = 1) -> Span:
        """Lines `line` .. `line + count - 1` including their line breaks."""
        return cls(line, 0, line + count, 0)

    def shifted(self, lines: int) -> Span:
        """The same range `lines` lines further down."""
        if not lines:
            return self
        return Span(self.line + lines, self.col, self.end_line + lines, self.end_col)


class Format(StrEnum):
    """The file formats m2lsp reads."""

    M2 = "m2"
    CGED = "cged"  # NLP-TEA CGED SGML/XML
    TRUTH = "cged-truth"  # NLP-TEA truth / result lines
    INPUT = "cged-input"  # NLP-TEA test input: `sid<TAB>sentence` lines
    MULTIGEC = "multigec"  # MultiGEC-2025 essays: `### essay_id = N` Markdown
    ANN = "ua-gec"  # UA-GEC annotated texts: `{source=>target:::error_type=T}`
    BEA_JSON = "bea-json"  # BEA-2019 JSON essays: one {"text", "edits"} object a line


# ---------------------------------------------------------------------------------------
# M2

class EditField(StrEnum):
    """The parts of an A line whose ranges rules point at."""

    LINE = "line"
    OFFSETS = "offsets"
    START = "start"
    END = "end"
    TYPE = "type"
    CORRECTIONS = "corrections"
    REQUIRED = "required"
    COMMENT = "comment"
    ANNOTATOR = "annotator"


NOOP_TYPE = "noop"
NONE_CORRECTION = "-NONE-"

MAX_DIGITS = 100
"""Numbers read from a file (offsets, annotator ids) with more digits than this are not
read as numbers: no token index or annotator id is that long, Python converts long digit
strings in quadratic time, and it refuses beyond 4,300 digits."""


def read_int(text: str) -> int | None:
    """`int(text)` for an optionally signed ASCII integer of at most MAX_DIGITS digits, else
    None (surrounding whitespace allowed, as `int` allows it)."""
    value = text.strip()
    digits = value[1:] if value[:1] in ("-", "+") else value
    if not (digits.isdigit() and digits.isascii()) or len(digits) > MAX_DIGITS:
        return None
    return int(value)


def shortened(text: str, keep: int = 24) -> str:
    """`text`, or its start and its length when it is longer than `keep` characters."""
    return text if len(text) <= keep else f"{text[:keep]}… ({len(text)} characters)"

_A_PREFIX = re.compile(r"A [ \t]*(-?[0-9]+)[ \t]+(-?[0-9]+)[ \t]*\|\|\|", re.ASCII)
_LINE, _START, _END = EditField.LINE, EditField.START, EditField.END  # (enum lookups are slow)
# the fields after the offsets, by their position among the `|||`-separated parts
_TAIL_INDEX = {part: k for k, part in enumerate((EditField.TYPE, EditField.CORRECTIONS,
                                                  EditField.REQUIRED, EditField.COMMENT,
                                                  EditField.ANNOTATOR))}


@dataclass(frozen=True)
class Sentence:
    """The S line of a block: the tokenized source sentence."""

    row: int
    text: str  # everything after "S ", as written
    tokens: tuple[str, ...]  # split on whitespace, as the NUS scorer splits

    def span(self) -> Span:
        """The sentence text (after `S `)."""
        return Span.on_line(self.row, 2, 2 + len(self.text))

    def token_columns(self) -> tuple[tuple[int, int], ...]:
        """(start, end) line columns of each token."""
        return tuple((m.start() + 2, m.end() + 2) for m in re.finditer(r"\S+", self.text))

    def tokens_span(self, start: int, end: int) -> Span:
        """The line range covering tokens `start`..`end` (end exclusive), clamped to the line.

        An empty range (an insertion point) sits just before token `start`.
        """
        cols = self.token_columns()
        if not cols:
            return Span.on_line(self.row, 2, 2)
        start = min(max(start, 0), len(cols))
        end = min(max(end, start), len(cols))
        if start == end:
            col = cols[start][0] if start < len(cols) else cols[-1][1]
            return Span.on_line(self.row, col, col)
        return Span.on_line(self.row, cols[start][0], cols[end - 1][1])


@dataclass(frozen=True)
class Edit:
    """An A line: one edit of one annotator.

    `corrections` are the `||`-separated alternatives exactly as written (`-NONE-` kept);
    `annotator` is the id as written, `annotator_id` its integer value when it has one.
    """

    row: int
    text: str  # the whole line
    start: int
    end: int
    type: str
    corrections: tuple[str, ...]
    required: str
    comment: str
    annotator: str

    @property
    def annotator_id(self) -> int | None:
        """The annotator id as an integer, or None when it is not a plain integer."""
        value = self.annotator
        if value.isdigit() and value.isascii() and len(value) <= MAX_DIGITS:
            return int(value)
        return read_int(value)

    @property
    def is_noop(self) -> bool:
        return self.type == NOOP_TYPE

    @property
    def canonical(self) -> tuple[str, ...]:
        """Alternatives as the NUS scorer reads them: `-NONE-` is empty, others stripped."""
        return tuple("" if c == NONE_CORRECTION else c.strip() for c in self.corrections)

    def columns(self, part: EditField) -> tuple[int, int]:
        """(start, end) columns of one part of the line."""
        text = self.text
        match = None if part is _LINE else _A_PREFIX.match(text)
        if match is None:  # the whole line, or an edit built by hand
            return 0, len(text)
        index = _TAIL_INDEX.get(part)
        if index is not None:
            return _tail_columns(text, match.end(), index)
        if part is _START:
            return match.span(1)
        if part is _END:
            return match.span(2)
        return match.start(1), match.end(2)  # the offsets

    def span(self, part: EditField = EditField.LINE) -> Span:
        """The range of one part of the line (block-relative row)."""
        col, end = self.columns(part)
        return Span.on_line(self.row, col, end)

    def correction_columns(self) -> tuple[tuple[int, int], ...]:
        """(start, end) columns of each alternative correction."""
        col, _ = self.columns(EditField.CORRECTIONS)
        out = []
        for value in self.corrections:
            out.append((col, col + len(value)))
            col += len(value) + 2
        return tuple(out)


def _tail_columns(text: str, col: int, index: int) -> tuple[int, int]:
    """(start, end) columns of the `index`-th `|||`-separated part of `text` from `col` on
    ((0, len(text)) when there are fewer parts)."""
    find = text.find
    for _ in range(index):
        col = find("|||", col)
        if col < 0:
            return 0, len(text)
        col += 3
    end = find("|||", col)
    return col, len(text) if end < 0 else end


@dataclass(frozen=True)
class Target:
    """A ChERRANT target line: `T<n>[-A<m>] <corrected sentence>`."""

    row: int
    label: str  # T0, T0-A1 ...
    text: str

    def span(self) -> Span:
        return Span.on_line(self.row, 0, len(self.label) + 1 + len(self.text))


@dataclass(frozen=True, init=False)
class LineProblem:
    """A line that does not parse; `column` is where parsing stopped (block-relative row)."""

    row: int
    column: int
    kind: str  # a label from parsing.m2.ERROR_EXAMPLES
    detail: str
    text: str

    def __init__(self, row: int, column: int, kind: str, detail: str, text: str) -> None:
        _setattr(self, "__dict__", {"row": row, "column": column, "kind": kind,
                                    "detail": detail, "text": text})


@dataclass(frozen=True)
class Block:
    """One sentence and its edit lines.  Rows count from the block's first line.

    A block whose first line is not an S line (edit lines before any sentence, or after a
    blank line) has `sentence` None.
    """

    lines: tuple[str, ...]
    sentence: Sentence | None
    edits: tuple[Edit, ...]
    targets: tuple[Target, ...] = ()
    problems: tuple[LineProblem, ...] = ()

    @property
    def token_count(self) -> int | None:
        return None if self.sentence is None else len(self.sentence.tokens)

    @property
    def by_annotator(self) -> dict[str, list[Edit]]:
        """Edits grouped by annotator id as written, in file order (computed once)."""
        groups = self.__dict__.get("_by_annotator")
        if groups is None:
            groups = {}
            for edit in self.edits:
                groups.setdefault(edit.annotator.strip(), []).append(edit)
            self.__dict__["_by_annotator"] = groups
        return groups

    @property
    def annotator_set(self) -> frozenset[str]:
        """The annotator ids of the edits, as written (computed once; the compiled parser
        records it as it reads the lines)."""
        found = self.__dict__.get("_annotator_set")
        if found is None:
            found = self.__dict__["_annotator_set"] = frozenset(e.annotator for e in self.edits)
        return found

    @property
    def type_set(self) -> frozenset[str]:
        """The error types of the edits (computed once; the compiled parser records it)."""
        found = self.__dict__.get("_type_set")
        if found is None:
            found = self.__dict__["_type_set"] = frozenset(e.type for e in self.edits)
        return found


@dataclass(frozen=True)
class M2Document:
    """A parsed M2 file: blocks and where each starts.

    `unseparated` holds the indices of blocks that follow the previous block without a blank
    line between them.  `separators` are the rows of blank or whitespace-only lines.
    """

    blocks: tuple[Block, ...]
    starts: tuple[int, ...]
    unseparated: frozenset[int] = frozenset()
    line_count: int = 0

    def sentences(self) -> list[Sentence]:
        return [b.sentence for b in self.blocks if b.sentence is not None]


def corrected_sentence(block: Block, annotator: str) -> str | None:
    """The sentence as one annotator corrects it (first alternative of each edit), or None
    when its edits cannot be applied (offsets out of range or overlapping)."""
    if block.sentence is None:
        return None
    tokens = list(block.sentence.tokens)
    edits = sorted((e for e in block.edits if e.annotator.strip() == annotator.strip()
                    and not e.is_noop), key=lambda e: (e.start, e.end))
    out, at = [], 0
    for edit in edits:
        if edit.start < at or edit.end > len(tokens) or edit.start > edit.end:
            return None
        out.extend(tokens[at:edit.start])
        first = edit.canonical[0] if edit.canonical else ""
        out.extend(first.split())
        at = edit.end
    out.extend(tokens[at:])
    return " ".join(out)


def block_at(doc: M2Document, line: int) -> tuple[int, Block] | None:
    """The block holding `line` and its first line, if any."""
    index = bisect.bisect_right(doc.starts, line) - 1
    if index < 0:
        return None
    start, block = doc.starts[index], doc.blocks[index]
    return (start, block) if line < start + len(block.lines) else None
