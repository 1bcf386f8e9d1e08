"""Decoding never fails and says what went wrong; lines split as LSP splits them."""

from __future__ import annotations

import pytest

from m2lsp.parsing.source import SourceText, decode
from tests.conftest import shared


@pytest.mark.parametrize(("text", "lines"), [
    ("a\nb", ["a", "b"]), ("a\r\nb\r\n", ["a", "b", ""]), ("a\rb", ["a", "b"]),
    ("a\u2028b\x85c", ["a\u2028b\x85c"]), ("", [""]),
])
def test_lines_end_only_at_lf_cr_crlf(text, lines) -> None:
    source = SourceText(text)
    assert source.lines == lines
    assert source.normalized.split("\n") == lines


def test_bom_is_removed_and_remembered() -> None:
    source = decode(b"\xef\xbb\xbfS a\n")
    assert (source.text, source.bom, source.problem) == ("S a\n", True, None)


def test_gb18030_file_is_named_and_decoded() -> None:
    data = shared("cged/cged2020/truth_2020-m.txt").read_bytes()
    source = decode(data)
    assert source.problem is not None
    assert source.problem.offset == 33
    assert source.problem.likely == "gb18030"
    assert "1001,\t9,\t10,\tS,\t附件" in source.text
    assert decode(data, "gb18030").problem is None


def test_isolated_bad_bytes_are_reported_without_a_false_encoding() -> None:
    data = shared("cged/cged2016/nlptea16cged_release1.0/Test/CGED16_TOCFL_Test_Input.txt"
                  ).read_bytes()
    source = decode(data)
    assert source.problem.offset == 496147
    assert source.problem.likely is None
    assert "no common encoding decodes it all" in source.problem.describe()
    assert source.problem.bad_sequences == 2


def test_declared_encoding_that_fails_is_reported() -> None:
    source = decode("第一".encode(), "ascii")
    assert source.problem.encoding == "ascii" and source.problem.offset == 0


def test_offsets() -> None:
    source = SourceText("ab\r\ncd\nef")
    assert source.line_offsets == [0, 4, 7]
    assert source.offset(1, 1) == 5
    assert source.line_break(0) == "\r\n" and source.line_break(2) == ""
