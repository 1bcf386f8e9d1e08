"""MultiGEC-2025's essay files as data: the essays (id, header line, text lines) and the
lines that could not be read."""

from __future__ import annotations

from dataclasses import dataclass

from m2lsp.model import Span


@dataclass(frozen=True)
class Essay:
    """One essay: its id as written, the header's line, and its text's lines (the lines
    after the header, up to the next header; the blank lines at its end are not text)."""

    id: str
    header: int  # 0-based line of `### essay_id = ID`
    id_columns: tuple[int, int]  # where the id stands on the header line
    first: int  # 0-based line of the text's first line (header + 1)
    last: int  # 0-based line after the text's last non-blank line (== first: empty)
    text: str  # the lines first..last-1, joined by LF

    @property
    def id_span(self) -> Span:
        return Span.on_line(self.header, *self.id_columns)

    @property
    def numeric(self) -> int | None:
        return int(self.id) if self.id.isdigit() and len(self.id) < 19 else None


@dataclass(frozen=True)
class EssayProblem:
    """A line that starts like a header (`###`) but is not one, or text before the first
    header."""

    row: int
    message: str
    text: str


@dataclass(frozen=True)
class EssayDocument:
    essays: tuple[Essay, ...]
    problems: tuple[EssayProblem, ...]
    preamble: tuple[int, int] | None = None  # lines of text before the first header
