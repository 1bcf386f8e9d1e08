"""Semantic tokens of each format, as (text, kind) tables."""

from __future__ import annotations

import pytest

from m2lsp.editor.highlighting import LEGEND, tokens
from m2lsp.model import Format

CASES = [
    (Format.M2, "S The cat", [("S", "keyword")]),
    (Format.M2, "A 1 2|||R:NOUN|||dog||cats|||REQUIRED|||-NONE-|||0", [
        ("A", "keyword"), ("1", "number"), ("2", "number"), ("|||", "operator"),
        ("R:NOUN", "type"), ("|||", "operator"), ("dog", "string"), ("||", "operator"),
        ("cats", "string"), ("|||", "operator"), ("REQUIRED", "enumMember"),
        ("|||", "operator"), ("-NONE-", "comment"), ("|||", "operator"), ("0", "parameter")]),
    (Format.M2, "A -1 -1|||noop|||-NONE-", [
        ("A", "keyword"), ("-1", "number"), ("-1", "number"), ("|||", "operator"),
        ("noop", "type"), ("|||", "operator"), ("-NONE-", "enumMember")]),
    (Format.M2, "A 3|||", [("A", "keyword"), ("3", "number"), ("|||", "operator")]),
    (Format.M2, "T0-A0 我 们", [("T0-A0", "keyword")]),
    (Format.M2, "Sentence without a mark", []),
    (Format.CGED, '<ERROR start_off="3" end_off="4" type="S"></ERROR>', [
        ("ERROR", "keyword"), ("start_off", "property"), ('"3"', "number"),
        ("end_off", "property"), ('"4"', "number"), ("type", "property"), ('"S"', "string"),
        ("ERROR", "keyword")]),
    (Format.TRUTH, "00038800481, 6, 7, S", [
        ("00038800481", "parameter"), ("6", "number"), ("7", "number"), ("S", "type")]),
    (Format.TRUTH, "00038800481,\tcorrect", [("00038800481", "parameter"),
                                             ("correct", "type")]),
]


@pytest.mark.parametrize(("fmt", "line", "expected"), CASES)
def test_tokens_by_kind(fmt, line, expected):
    found = tokens([line], fmt)
    assert [(line[t.col:t.col + t.length], LEGEND[t.kind]) for t in found] == expected


def test_a_line_range_only_yields_its_lines():
    lines = ["S a", "A 0 1|||X|||b|||REQUIRED|||-NONE-|||0", "", "S c"]
    assert {t.line for t in tokens(lines, Format.M2, 1, 2)} == {1}
    assert {t.line for t in tokens(lines, Format.M2, 3, 99)} == {3}
