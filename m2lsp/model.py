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
from dataclasses import dataclass, field
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


# ---------------------------------------------------------------------------------------
# CGED

class CgedType(StrEnum):
    """NLP-TEA error types."""

    REDUNDANT = "R"
    MISSING = "M"
    SELECTION = "S"
    DISORDER = "W"


CGED_TYPE_NAMES = {  # lower-cased: the official tools compare types case-insensitively
    "r": CgedType.REDUNDANT, "redundant": CgedType.REDUNDANT,
    "m": CgedType.MISSING, "missing": CgedType.MISSING,
    "s": CgedType.SELECTION, "selection": CgedType.SELECTION,
    "w": CgedType.DISORDER, "disorder": CgedType.DISORDER,
}


def cged_type(name: str) -> CgedType | None:
    """The error type a name or letter stands for (any case), or None."""
    return CGED_TYPE_NAMES.get(name.strip().lower())


@dataclass(frozen=True)
class Attribute:
    """`name="value"` inside a tag; `glued` when no whitespace separates it from the previous
    attribute (as in the CGED 2020 data)."""

    name: str
    value: str
    span: Span  # the whole attribute
    value_span: Span  # the value, without quotes
    glued: bool = False


@dataclass(frozen=True)
class CgedError:
    """One annotated error: `<ERROR start_off end_off type [answer]>` (2016-2021) or
    `<MISTAKE start_off end_off><TYPE>..</TYPE><CORRECTION>..</CORRECTION></MISTAKE>`."""

    span: Span  # the whole element
    attributes: tuple[Attribute, ...]
    type: str  # as written
    type_span: Span
    correction: str | None = None  # the MISTAKE's own correction (2014-2016)

    def attribute(self, name: str) -> Attribute | None:
        for attr in self.attributes:
            if attr.name == name:
                return attr
        return None

    def offset(self, name: str) -> int | None:
        attr = self.attribute(name)
        if attr is None or not attr.value.strip().isdigit():
            return None
        return read_int(attr.value)

    @property
    def start(self) -> int | None:
        return self.offset("start_off")

    @property
    def end(self) -> int | None:
        return self.offset("end_off")

    @property
    def answer(self) -> str | None:
        attr = self.attribute("answer")
        return None if attr is None else attr.value

    @property
    def kind(self) -> CgedType | None:
        return cged_type(self.type)


@dataclass(frozen=True)
class CgedDoc:
    """One `<DOC>` (or a sentence of a 2014 `<ESSAY>`): a sentence or text with its id, the
    corrected text, and its errors."""

    span: Span
    id: str
    id_span: Span
    text: str  # stripped of surrounding whitespace; offsets are 1-based into it
    text_span: Span  # where `text` stands in the file
    correction: str | None
    errors: tuple[CgedError, ...]
    # "sentence" (<SENTENCE>/<MISTAKE>, 2015-2016), "text" (<TEXT>/<ERROR>, 2016 on) or
    # "essay" (a <SENTENCE> of a 2014 <ESSAY>: its MISTAKEs have no offsets)
    style: str
    id_attribute: Attribute | None = None


@dataclass(frozen=True)
class CgedProblem:
    """Something in a CGED file that does not parse."""

    span: Span
    message: str


@dataclass(frozen=True)
class CgedDocument:
    docs: tuple[CgedDoc, ...]
    problems: tuple[CgedProblem, ...] = ()


@dataclass(frozen=True)
class TruthLine:
    """One line of a CGED truth or result file.

    `sid, correct`, `sid, start, end, type[, correction...]`, or (NLP-TEA 2014) `sid, type`
    without offsets; `bare_commas` records commas with nothing after them (the official
    2018 tool needs whitespace there); `lead` counts the blanks before the sentence id.
    """

    row: int
    text: str
    sid: str
    correct: bool
    start: int | None = None
    end: int | None = None
    type: str = ""
    answers: tuple[str, ...] = ()
    field_columns: tuple[tuple[int, int], ...] = ()  # every comma-separated field
    bare_commas: tuple[int, ...] = field(default=())  # columns of commas with no space after
    lead: int = 0  # blanks before the sentence id

    @property
    def sentence_level(self) -> bool:
        """A 2014 `sid, type` line: an error type for the sentence, without offsets."""
        return not self.correct and self.start is None

    @property
    def type_index(self) -> int:
        """The field that holds the type: 1 in a `sid, type` line, else 3."""
        return 1 if self.sentence_level else 3

    def span(self, index: int | None = None) -> Span:
        """The line, or field `index` (0 = sid, 1 = start, 2 = end, 3 = type, 4.. answers)."""
        if index is None or index >= len(self.field_columns):
            return Span.on_line(self.row, 0, len(self.text))
        col, end = self.field_columns[index]
        return Span.on_line(self.row, col, end)

    @property
    def kind(self) -> CgedType | None:
        return cged_type(self.type)


@dataclass(frozen=True)
class TruthProblem:
    row: int
    message: str
    text: str


@dataclass(frozen=True)
class TruthDocument:
    lines: tuple[TruthLine, ...]
    problems: tuple[TruthProblem, ...] = ()


@dataclass(frozen=True)
class InputLine:
    """One line of a CGED test input file: `(sid=ID)<TAB>sentence` (2014-2016) or
    `ID<TAB>sentence` (2017 on)."""

    row: int
    text: str
    sid: str
    sentence: str
    wrapped: bool  # the id as `(sid=ID)`
    id_columns: tuple[int, int]
    sentence_column: int  # where the sentence starts (after the tab)

    def span(self, part: str = "line") -> Span:
        """The line, its `id`, or its `sentence`."""
        if part == "id":
            return Span.on_line(self.row, *self.id_columns)
        if part == "sentence":
            return Span.on_line(self.row, self.sentence_column, len(self.text))
        return Span.on_line(self.row, 0, len(self.text))


@dataclass(frozen=True)
class InputProblem:
    row: int
    message: str
    text: str


@dataclass(frozen=True)
class InputDocument:
    lines: tuple[InputLine, ...]
    problems: tuple[InputProblem, ...] = ()


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
