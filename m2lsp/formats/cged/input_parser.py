"""CGED test input files to `InputDocument`, line by line.

`grammar/cged_input.lark` defines a line.  The fast path reads the id up to the first tab
(exact for what the grammar allows, and tests prove it); a line it rejects is parsed by
Lark so that the problem names the column and what was expected there.
"""

from __future__ import annotations

import re
from typing import Any, cast

from lark import Tree
from lark.exceptions import UnexpectedInput

from m2lsp.formats.cged.model import InputDocument, InputLine, InputProblem
from m2lsp.parsing.grammar import expected_words, parser
from m2lsp.parsing.source import SourceText

_WRAPPED = re.compile(r"\(sid=([^()\t\r\n]+)\)\t")
_PLAIN = re.compile(r"([^\s()]+)\t")
_WORDS = {"WRAPPED_ID": "a sentence id", "ID": "a sentence id", "_TAB": "a tab",
          "SENTENCE": "the sentence", "$END": "end of line"}


def parse_input(source: SourceText | str) -> InputDocument:
    """Parse a CGED input file; never raises for bad input (see `problems`)."""
    lines = source.lines if isinstance(source, SourceText) else SourceText(source).lines
    parsed: list[InputLine] = []
    problems: list[InputProblem] = []
    for row, text in enumerate(lines):
        if not text:
            continue
        item = parse_line_fast(row, text) or parse_line_slow(row, text)
        if isinstance(item, InputLine):
            parsed.append(item)
        else:
            problems.append(item)
    return InputDocument(tuple(parsed), tuple(problems))


def parse_line_fast(row: int, text: str) -> InputLine | None:
    """The fast path: the parsed line, or None when the grammar might reject it."""
    match = _WRAPPED.match(text) or _PLAIN.match(text)
    if match is None:
        return None
    wrapped = match.re is _WRAPPED
    return InputLine(row, text, match.group(1), text[match.end():], wrapped,
                     (match.start(1), match.end(1)), match.end())


def parse_line_slow(row: int, text: str) -> InputLine | InputProblem:
    """Parse one line with the grammar; a problem saying what is wrong when it fails."""
    try:
        tree = parser("cged_input", "line").parse(text)
    except UnexpectedInput as exc:
        return InputProblem(row, _message(exc), text)
    return line_from_tree(tree, row, text)


def line_from_tree(tree: Tree, row: int, text: str) -> InputLine:
    """The InputLine for a parsed `line` (also the reference the tests compare with)."""
    ident, sentence = cast(list[Any], tree.children)
    start = sentence.start_pos if sentence is not None else len(text)
    return InputLine(row, text, str(ident), "" if sentence is None else str(sentence),
                     tree.data == "wrapped_line", (ident.start_pos, ident.end_pos), start)


def _message(exc: UnexpectedInput) -> str:
    column = getattr(exc, "column", 0)
    expected = sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())
    wanted = expected_words(parser("cged_input", "line"), expected, _WORDS)
    at = f"column {column}" if column else "start of line"
    if wanted:
        return (f"malformed line at {at}: expected {' or '.join(wanted)} (a line is "
                "`ID<TAB>sentence` or `(sid=ID)<TAB>sentence`)")
    return f"malformed line at {at}"
