"""BEA-2019 JSON essays as data (Write & Improve + LOCNESS and the public FCE release): one
essay a line, `{"text": ..., "edits": [[annotator, [[start, end, correction], ...]], ...]}`,
character offsets into the text; a null correction marks an error detected, not corrected,
and FCE's edits carry its error type as a fourth field."""

from __future__ import annotations

from dataclasses import dataclass

from m2lsp.model import Span


@dataclass(frozen=True)
class CharEdit:
    """One edit of the text[start:end]; `span`: where it stands in the file."""

    span: Span
    start: int
    end: int
    correction: str | None  # None: detected, not corrected
    kind: str | None = None  # the fourth field (FCE's error type), when there is one


@dataclass(frozen=True)
class EssayAnnotator:
    """One annotator's edits of an essay."""

    span: Span
    id: int
    edits: tuple[CharEdit, ...]


@dataclass(frozen=True)
class Essay:
    """One line: its text and each annotator's edits, in the order written."""

    row: int  # 0-based line of the file
    span: Span
    essay_id: str  # the `id` field, else the line's number
    text: str
    annotators: tuple[EssayAnnotator, ...]


@dataclass(frozen=True)
class JsonProblem:
    """What cannot be read as an essay: not JSON, or not the shape of one."""

    span: Span
    message: str


@dataclass(frozen=True)
class BeaDocument:
    essays: tuple[Essay, ...]
    problems: tuple[JsonProblem, ...] = ()
