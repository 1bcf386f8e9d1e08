"""CGED truth and result files to `TruthDocument`, line by line: `sid, start, end, type`
(2015 on, with corrections from 2018), `sid, correct`, and NLP-TEA 2014's `sid, type`.

`grammar/cged_truth.lark` defines a line.  The fast path splits on commas (what the grammar
allows is narrow enough that this is exact, and tests prove it); lines it rejects are
parsed by Lark so that the error names the column and what was expected there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from lark import Token, Tree
from lark.exceptions import UnexpectedInput

from m2lsp.formats.cged.model import TruthDocument, TruthLine, TruthProblem
from m2lsp.model import MAX_DIGITS, read_int
from m2lsp.parsing.grammar import expected_words, parser
from m2lsp.parsing.source import SourceText

_SID = re.compile(r"[^,\s]+")
_OFFSET = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}", re.ASCII)
_TYPE = re.compile(r"[A-Za-z]+", re.ASCII)
_BLANKS = " \t"


def parse_truth(source: SourceText | str) -> TruthDocument:
    """Parse a truth/result file; never raises for bad input (see `problems`)."""
    lines = source.lines if isinstance(source, SourceText) else SourceText(source).lines
    parsed: list[TruthLine] = []
    problems: list[TruthProblem] = []
    for row, text in enumerate(lines):
        if not text:
            continue
        item = parse_line(row, text)
        if isinstance(item, TruthLine):
            parsed.append(item)
        else:
            problems.append(item)
    return TruthDocument(tuple(parsed), tuple(problems))


def parse_line(row: int, text: str) -> TruthLine | TruthProblem:
    """One line; blanks before the sentence id are read past (as the official tools trim
    lines) and recorded in `lead`, with every column still counted in `text`."""
    body = text.lstrip(_BLANKS)
    lead = len(text) - len(body)
    if not body:
        return TruthProblem(row, "a line of blanks only", text)
    item = parse_line_fast(row, body) or parse_line_slow(row, body)
    return _shifted(item, lead, text) if lead else item


def _shifted(item: TruthLine | TruthProblem, lead: int,
             text: str) -> TruthLine | TruthProblem:
    if isinstance(item, TruthProblem):
        return TruthProblem(item.row, _shift_column(item.message, lead), text)
    columns = tuple((a + lead, b + lead) for a, b in item.field_columns)
    return TruthLine(item.row, text, item.sid, item.correct, item.start, item.end, item.type,
                     item.answers, columns, tuple(c + lead for c in item.bare_commas), lead)


def _shift_column(message: str, lead: int) -> str:
    return re.sub(r"column (\d+)", lambda m: f"column {int(m.group(1)) + lead}", message,
                  count=1)


def parse_line_fast(row: int, text: str) -> TruthLine | None:
    """The fast path: the parsed line, or None when the grammar might reject it."""
    pieces = text.split(",")
    if len(pieces) < 2:
        return None
    columns = _columns(pieces)
    values = [text[a:b] for a, b in columns]
    if not _SID.fullmatch(values[0]) or text[0] in _BLANKS:
        return None
    bare = _bare_commas(text, pieces)
    if len(values) == 2:
        word = values[1].rstrip(_BLANKS)
        if not _TYPE.fullmatch(word):
            return None
        columns[1] = (columns[1][0], columns[1][0] + len(word))
        if word == "correct":
            return TruthLine(row, text, values[0], True, field_columns=tuple(columns),
                             bare_commas=bare)
        return TruthLine(row, text, values[0], False, type=word,
                         field_columns=tuple(columns), bare_commas=bare)
    if len(values) < 4 or not _OFFSET.fullmatch(values[1]) or not _OFFSET.fullmatch(values[2]):
        return None
    if not _TYPE.fullmatch(values[3].rstrip(_BLANKS) if len(values) == 4 else values[3]):
        return None
    if len(values) == 4:
        columns[3] = (columns[3][0], columns[3][0] + len(values[3].rstrip(_BLANKS)))
    answers = tuple(values[4:])
    return TruthLine(row, text, values[0], False, int(values[1]), int(values[2]),
                     text[columns[3][0]:columns[3][1]], answers, tuple(columns), bare)


def _columns(pieces: Sequence[str]) -> list[tuple[int, int]]:
    """(start, end) of each comma-separated field, as the grammar's tokens stand.

    Blanks after a comma belong to the separator; blanks before a comma too, except after
    an answer (field 4 on), which runs up to the comma.  The last field keeps its trailing
    blanks: callers trim a last `correct` or type field themselves.
    """
    out = []
    pos = 0
    last = len(pieces) - 1
    for index, piece in enumerate(pieces):
        start = pos + (len(piece) - len(piece.lstrip(_BLANKS)) if index else 0)
        trim = index < last and index < 4
        end = pos + (len(piece.rstrip(_BLANKS)) if trim else len(piece))
        out.append((start, max(start, end)))
        pos += len(piece) + 1
    return out


def _bare_commas(text: str, pieces: Sequence[str]) -> tuple[int, ...]:
    """Columns of commas not followed by a space or tab."""
    out = []
    pos = 0
    for piece in pieces[:-1]:
        pos += len(piece)
        if text[pos + 1:pos + 2] not in (" ", "\t"):
            out.append(pos)
        pos += 1
    return tuple(out)


def parse_line_slow(row: int, text: str) -> TruthLine | TruthProblem:
    """Parse one line with the grammar; a problem saying what is wrong when it fails."""
    try:
        tree = parser("cged_truth", "document", "line").parse(text, start="line")
    except UnexpectedInput as exc:
        return TruthProblem(row, _message(exc, text), text)
    return line_from_tree(tree, row, text)


def line_from_tree(tree: Tree, row: int, text: str) -> TruthLine | TruthProblem:
    """The TruthLine for a parsed `line` (also the reference the tests compare with)."""
    tokens: list[Any] = list(tree.children)
    columns = [(t.start_pos, t.end_pos) if t is not None else _empty_column(text, tokens, i)
               for i, t in enumerate(tokens)]
    bare = _bare_commas(text, text.split(","))
    sid = str(tokens[0])
    if tree.data == "correct_line":
        return TruthLine(row, text, sid, True, field_columns=tuple(columns), bare_commas=bare)
    if tree.data == "type_line":
        return TruthLine(row, text, sid, False, type=str(tokens[1]),
                         field_columns=tuple(columns), bare_commas=bare)
    answers = tuple("" if t is None else str(t) for t in tokens[4:])
    if read_int(str(tokens[1])) is None or read_int(str(tokens[2])) is None:
        return TruthProblem(row, f"an offset has more than {MAX_DIGITS} digits", text)
    return TruthLine(row, text, sid, False, int(tokens[1]), int(tokens[2]), str(tokens[3]),
                     answers, tuple(columns), bare)


def _empty_column(text: str, tokens: list[Token | None], index: int) -> tuple[int, int]:
    """Where an empty answer stands: right after the blanks that follow its comma."""
    commas = [i for i, ch in enumerate(text) if ch == ","]
    pos = commas[index - 1] + 1
    while pos < len(text) and text[pos] in _BLANKS:
        pos += 1
    return pos, pos


def _message(exc: UnexpectedInput, text: str) -> str:
    column = getattr(exc, "column", 0)
    expected = sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())
    words = {"_SEP": "a comma", "OFFSET": "an offset", "TYPE": "an error type",
             "CORRECT": "`correct`", "SID": "a sentence id", "ANSWER": "a correction",
             "$END": "end of line", "_TRAIL": "end of line"}
    wanted = expected_words(parser("cged_truth", "document", "line"), expected, words)
    at = f"column {column}" if column else "start of line"
    if wanted:
        return f"malformed line at {at}: expected {' or '.join(wanted)}"
    return f"malformed line at {at}"
