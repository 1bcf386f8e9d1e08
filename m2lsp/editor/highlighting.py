"""Semantic tokens: the fields of M2 `A` lines, CGED tags and truth-file columns, by kind.

Read per line with regular expressions rather than from the AST, so that a half-typed or
malformed line is still coloured field by field while the annotator types it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import IntEnum

from m2lsp.model import Format


class Kind(IntEnum):
    """Token kinds; their order is the legend's (standard LSP token type names)."""

    KEYWORD = 0  # the S / A / T line marks, SGML tag names
    NUMBER = 1  # offsets
    TYPE = 2  # error types
    STRING = 3  # corrections, attribute values
    OPERATOR = 4  # ||| and ||
    ENUM_MEMBER = 5  # REQUIRED / OPTIONAL, -NONE-
    COMMENT = 6  # the comment field
    PARAMETER = 7  # annotator ids, sentence ids
    PROPERTY = 8  # SGML attribute names


LEGEND = ("keyword", "number", "type", "string", "operator", "enumMember", "comment",
          "parameter", "property")


@dataclass(frozen=True)
class Token:
    line: int
    col: int
    length: int
    kind: Kind


_A_FIELDS = (Kind.TYPE, Kind.STRING, Kind.ENUM_MEMBER, Kind.COMMENT, Kind.PARAMETER)
_NUMBERS = re.compile(r"-?\d+")
_MARK = re.compile(r"(A|S|T\d*(?:-A\d+)?)(?= |$)")
# An attribute name starts where a run of letters starts (the look-behind) and takes the
# whole run (possessive): without both, a long run of letters is tried from every position
# in it, and one 100,000-letter line took minutes.
_TAG = re.compile(r"</?([A-Za-z_]+)|(?<![A-Za-z_])([A-Za-z_]++)=(\"[^\"]*\"?)")
_TRUTH = re.compile(r"[^,\t ][^,\t]*")


def tokens(lines: list[str], fmt: Format, first: int = 0, last: int | None = None,
           ) -> list[Token]:
    """Tokens of lines `first`..`last` (inclusive), in document order."""
    last = len(lines) - 1 if last is None else min(last, len(lines) - 1)
    per_line = {Format.M2: _m2_line, Format.CGED: _cged_line}.get(fmt, _truth_line)
    return [t for row in range(max(first, 0), last + 1) for t in per_line(row, lines[row])]


def _m2_line(row: int, line: str) -> Iterator[Token]:
    mark = _MARK.match(line)
    if mark is None:
        return
    yield Token(row, 0, mark.end(), Kind.KEYWORD)
    if mark.group(1) == "A":
        yield from _a_fields(row, line, mark.end())


def _a_fields(row: int, line: str, start: int) -> Iterator[Token]:
    fields = line[start:].split("|||")
    col = start
    for index, field in enumerate(fields):
        if index:
            yield Token(row, col - 3, 3, Kind.OPERATOR)
        if index == 0:
            yield from (Token(row, col + m.start(), len(m.group()), Kind.NUMBER)
                        for m in _NUMBERS.finditer(field))
        elif index == 2:
            yield from _corrections(row, col, field)
        elif field.strip() and index <= len(_A_FIELDS):
            yield Token(row, col, len(field), _A_FIELDS[index - 1])
        col += len(field) + 3


def _corrections(row: int, col: int, field: str) -> Iterator[Token]:
    for index, correction in enumerate(field.split("||")):
        if index:
            yield Token(row, col - 2, 2, Kind.OPERATOR)
        if correction:
            kind = Kind.ENUM_MEMBER if correction == "-NONE-" else Kind.STRING
            yield Token(row, col, len(correction), kind)
        col += len(correction) + 2


def _cged_line(row: int, line: str) -> Iterator[Token]:
    for match in _TAG.finditer(line):
        if match.group(1):
            yield Token(row, match.start(1), len(match.group(1)), Kind.KEYWORD)
            continue
        yield Token(row, match.start(2), len(match.group(2)), Kind.PROPERTY)
        value = match.group(3)
        kind = Kind.NUMBER if value.strip('"').isdigit() else Kind.STRING
        yield Token(row, match.start(3), len(value), kind)


def _truth_line(row: int, line: str) -> Iterator[Token]:
    for index, match in enumerate(_TRUTH.finditer(line)):
        text = match.group().rstrip()
        if not text:
            continue
        if index == 0:
            kind = Kind.PARAMETER
        elif text.isdigit():
            kind = Kind.NUMBER
        else:
            kind = Kind.TYPE if text in ("R", "M", "S", "W", "correct") else Kind.STRING
        yield Token(row, match.start(), len(text), kind)
