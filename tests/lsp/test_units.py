"""Columns and LSP units: the per-line tables give what counting each character from the
line's start gives (the definition, written out below as the oracle), for any text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from m2lsp.lsp import convert

TEXT = st.text(alphabet=st.sampled_from(["a", " ", "é", "我", "😀", "\ud800", "\U00010348",
                                         "<", "\t"]), max_size=14)


def _width(text: str, encoding: str) -> int:
    if encoding == "utf-32" or text.isascii():
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def units_by_counting(line: str, col: int, encoding: str) -> int:
    return _width(line[:col], encoding) + max(0, col - len(line))


def col_by_counting(line: str, units: int, encoding: str) -> int:
    used = 0
    for index, ch in enumerate(line):
        if used >= units:
            return index
        used += _width(ch, encoding)
    return len(line)


@settings(max_examples=400, deadline=None)
@given(line=TEXT, encoding=st.sampled_from(["utf-8", "utf-16", "utf-32"]))
def test_tables_agree_with_counting(line: str, encoding: str) -> None:
    for col in range(len(line) + 3):
        assert convert.to_units(line, col, encoding) == units_by_counting(line, col, encoding)
    for units in range(_width(line, encoding) + 3):
        assert convert.to_col(line, units, encoding) == col_by_counting(line, units, encoding)


def test_the_protocols_encoding_kinds_are_taken_by_value() -> None:
    """The server holds lsprotocol's PositionEncodingKind, which equals its str but does
    not hash as it: a table keyed by the str alone took UTF-16 for code points."""
    from lsprotocol import types

    line = "A 1 2|||S|||𠮷|||REQUIRED"
    for kind, text in ((types.PositionEncodingKind.Utf16, "utf-16"),
                       (types.PositionEncodingKind.Utf8, "utf-8"),
                       (types.PositionEncodingKind.Utf32, "utf-32")):
        for col in range(len(line) + 1):
            assert convert.to_units(line, col, kind) == units_by_counting(line, col, text)
