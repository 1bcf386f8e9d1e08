"""The CGED formats' document model (NLP-TEA SGML, truth files, input files): what their
parsers produce and their rules read.  Positions as in `m2lsp.model`; its own module, so
that reading and scoring M2 does not build these classes."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from m2lsp.model import Span, read_int


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
