"""BEA-2019 JSON essays (one JSON object a line) to `BeaDocument`.  Each line is decoded by
the standard library's decoder, then walked once more by position so that every annotator
and edit knows its columns: a problem points at the value that has it.  Never raises."""

from __future__ import annotations

import json
from typing import Any

from m2lsp.formats.bea_json.model import BeaDocument, CharEdit, Essay, EssayAnnotator, JsonProblem
from m2lsp.model import Span
from m2lsp.parsing.source import SourceText

_DECODER = json.JSONDecoder()
_SHAPE = ('{"text": "...", "edits": [[annotator, [[start, end, correction], ...]], ...]}')
Spanned = tuple[Any, int, int]  # a value and its columns (start, end)


def is_bea_json(text: str) -> bool:
    """Whether a text looks like BEA-2019 JSON: its first non-blank line is an object
    with "text" and "edits" keys."""
    first = next((line for line in text[:1 << 20].lstrip("\ufeff").splitlines()
                  if line.strip()), "")
    return first.lstrip().startswith("{") and '"edits"' in first and '"text"' in first


def parse_bea_json(source: SourceText | str) -> BeaDocument:
    """Every line an essay (a blank line is a problem: the release's script reads each
    line as one)."""
    lines = source.lines if isinstance(source, SourceText) else SourceText(source).lines
    if lines and lines[-1] == "":
        lines = lines[:-1]
    essays: list[Essay] = []
    problems: list[JsonProblem] = []
    for row, line in enumerate(lines):
        found = _essay(row, line.lstrip("\ufeff") if row == 0 else line, problems)
        if found is not None:
            essays.append(found)
    return BeaDocument(tuple(essays), tuple(problems))


class _Line:
    """One line being read: its row, its text, and the document's problems."""

    def __init__(self, row: int, text: str, problems: list[JsonProblem]) -> None:
        self.row, self.text, self.problems = row, text, problems

    def span(self, start: int, end: int) -> Span:
        return Span.on_line(self.row, start, max(end, start + 1))

    def problem(self, start: int, end: int, message: str) -> None:
        self.problems.append(JsonProblem(self.span(start, end), message))


def _essay(row: int, text: str, problems: list[JsonProblem]) -> Essay | None:
    line = _Line(row, text, problems)
    if not text.strip():
        line.problem(0, 0, f"a blank line: every line is an essay, {_SHAPE}")
        return None
    fields = _object(line)
    if fields is None:
        return None
    essay_text, edits = fields.get("text"), fields.get("edits")
    if essay_text is None or not isinstance(essay_text[0], str):
        where = essay_text or (0, 0, len(text))
        line.problem(where[1], where[2], 'an essay needs "text", a string: ' + _SHAPE)
        return None
    if edits is None or not isinstance(edits[0], list):
        where = edits or (0, 0, len(text))
        line.problem(where[1], where[2], 'an essay needs "edits", a list: ' + _SHAPE)
        return None
    ident = fields.get("id")
    essay_id = str(ident[0]) if ident is not None else str(row + 1)
    return Essay(row, Span.on_line(row, 0, len(text)), essay_id, essay_text[0],
                 tuple(_annotators(line, edits)))


def _object(line: _Line) -> dict[str, Spanned] | None:
    """The line's object, each field with its columns; None (said) when it is none."""
    text = line.text
    start = len(text) - len(text.lstrip())
    try:
        value, end = _DECODER.raw_decode(text, start)
    except json.JSONDecodeError as exc:
        line.problem(exc.pos, exc.pos + 1, f"not JSON: {exc.msg} (column {exc.pos + 1})")
        return None
    except (ValueError, RecursionError) as exc:  # a number of thousands of digits; nesting
        line.problem(start, len(text), f"not read as JSON: {str(exc).split(';')[0]}")
        return None
    if text[end:].strip():
        line.problem(end, len(text.rstrip()), "more after the essay's object: one essay a line")
        return None
    if not isinstance(value, dict):
        line.problem(start, end, f"an essay is an object, {_SHAPE}")
        return None
    return dict(_members(text, start))


def _members(line: str, at: int) -> list[tuple[str, Spanned]]:
    """(key, (value, start, end)) of the object at `at` (already decoded: well formed)."""
    out = []
    at = _skip(line, at + 1)
    while line[at] != "}":
        key, at = _DECODER.raw_decode(line, at)
        at = _skip(line, _skip(line, at) + 1)  # past ':'
        value, end = _DECODER.raw_decode(line, at)
        out.append((key, (value, at, end)))
        at = _skip(line, end)
        at = _skip(line, at + 1) if line[at] == "," else at
    return out


def _items(line: str, at: int) -> list[Spanned]:
    """(value, start, end) of each item of the array at `at` (well formed)."""
    out = []
    at = _skip(line, at + 1)
    while line[at] != "]":
        value, end = _DECODER.raw_decode(line, at)
        out.append((value, at, end))
        at = _skip(line, end)
        at = _skip(line, at + 1) if line[at] == "," else at
    return out


def _skip(line: str, at: int) -> int:
    while at < len(line) and line[at] in " \t\n\r":
        at += 1
    return at


def _annotators(line: _Line, edits: Spanned) -> list[EssayAnnotator]:
    out = []
    for value, start, end in _items(line.text, edits[1]):
        if not (isinstance(value, list) and len(value) == 2 and _is_int(value[0])
                and isinstance(value[1], list)):
            line.problem(start, end, "an annotator's edits are [annotator id (an integer), "
                         "[[start, end, correction], ...]]")
            continue
        listed = _items(line.text, start)[1]
        found = [e for e in (_edit(line, item) for item in _items(line.text, listed[1]))
                 if e is not None]
        out.append(EssayAnnotator(line.span(start, end), value[0], tuple(found)))
    return out


def _edit(line: _Line, item: Spanned) -> CharEdit | None:
    value, start, end = item
    if not (isinstance(value, list) and len(value) in (3, 4) and _is_int(value[0])
            and _is_int(value[1]) and (value[2] is None or isinstance(value[2], str))
            and (len(value) == 3 or isinstance(value[3], str))):
        line.problem(start, end, "an edit is [start, end, correction] (integers, then a "
                     "string, or null for an error not corrected), or with its error type "
                     "after")
        return None
    kind = value[3] if len(value) == 4 else None
    return CharEdit(line.span(start, end), value[0], value[1], value[2], kind)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
