"""CGED SGML and truth files: real releases parse, the truth fast path agrees with the
grammar."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from m2lsp.formats.cged.model import CgedType
from m2lsp.formats.cged.parser import parse_cged
from m2lsp.formats.cged.truth_parser import parse_line_fast, parse_line_slow, parse_truth
from m2lsp.parsing.source import decode
from tests.conftest import shared

CGED15 = "cged/cged2015/nlptea15cged_release1.0/"


@pytest.mark.parametrize(("name", "encoding", "docs", "errors", "problems"), [
    (CGED15 + "Training/NLPTEA15_CGED_Training.sgml", None, 2205, 2205, 0),
    (CGED15 + "Test/NLPTEA15_CGED_Test.sgml", None, 1000, 1000, 0),
    ("cged/cged2018/train_CGED2018.xml", None, 402, 1067, 0),
    ("cged/cged2020/test_truth_2020mk.xml", "gb18030", 1456, 3662, 302),
])
def test_real_releases(name, encoding, docs, errors, problems) -> None:
    document = parse_cged(decode(shared(name).read_bytes(), encoding))
    assert len(document.docs) == docs
    assert sum(len(d.errors) for d in document.docs) == errors
    assert len(document.problems) == problems


def test_both_styles() -> None:
    text = ('<DOC>\n<SENTENCE id="A2-0001">我送你那裡</SENTENCE>\n<MISTAKE start_off="4" '
            'end_off="4">\n<TYPE>Missing</TYPE>\n<CORRECTION>我送你到那裡</CORRECTION>\n'
            '</MISTAKE>\n</DOC>\n<DOC>\n<TEXT id="1000">\n一个月干下来\n</TEXT>\n<CORRECTION>\n'
            '一个月下来\n</CORRECTION>\n<ERROR start_off="4"end_off="4" type="R" answer="">'
            '</ERROR>\n</DOC>\n')
    first, second = parse_cged(text).docs
    assert (first.id, first.text, first.style) == ("A2-0001", "我送你那裡", "sentence")
    assert (first.errors[0].start, first.errors[0].kind) == (4, CgedType.MISSING)
    assert first.errors[0].correction == "我送你到那裡"
    assert (second.text, second.correction, second.style) == ("一个月干下来", "一个月下来", "text")
    error = second.errors[0]
    assert (error.start, error.end, error.kind, error.answer) == (4, 4, CgedType.REDUNDANT, "")
    assert [a.glued for a in error.attributes] == [False, True, False, False]
    assert second.text_span.line == 9 and second.text_span.col == 0


def test_a_broken_doc_costs_one_problem() -> None:
    text = ('<DOC><TEXT id="1">甲</TEXT><ERROR start_off=1></ERROR></DOC>\n'
            '<DOC><TEXT id="2">乙</TEXT></DOC>\n')
    document = parse_cged(text)
    assert [d.id for d in document.docs] == ["2"]
    assert len(document.problems) == 1 and document.problems[0].span.line == 0


@pytest.mark.parametrize("name", [
    CGED15 + "Test/NLPTEA15_CGED_TestTruth.txt", CGED15 + "Tool/NLPTEA15_Toy_Result.txt",
    "cged/cged2016/nlptea16cged_release1.0/Test/CGED16_HSK_Test_Truth.txt",
    "cged/cged2018/test_truth0.txt",
])
def test_truth_files_agree_with_the_grammar(name) -> None:
    for row, line in enumerate(decode(shared(name).read_bytes()).lines):
        if line:
            fast = parse_line_fast(row, line)
            assert fast is None or fast == parse_line_slow(row, line)


truth_chars = st.sampled_from([*"0123456789,, \t\tabcSMRW正确 xcorrect-", "correct"])


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(st.lists(truth_chars, max_size=25).map("".join))
def test_truth_fast_path_agrees_with_the_grammar(line: str) -> None:
    agree(parse_line_fast, parse_line_slow, line)


def agree(fast_path, grammar, line: str) -> None:
    """The fast path gives the grammar's line, or None where the grammar rejects it."""
    fast, slow = fast_path(0, line), grammar(0, line)
    if fast is None:
        assert not hasattr(slow, "sid")
    else:
        assert fast == slow


def test_truth_fields() -> None:
    document = parse_truth("00038800481, 6, 7, S, 理解, 了解\n"
                           "1001,\t9,\t10,\tS,\t附件\nX, correct\n")
    first, second, third = document.lines
    assert (first.start, first.end, first.type, first.answers) == (6, 7, "S", ("理解", "了解"))
    assert second.answers == ("附件",) and second.span(4).col == 16
    assert third.correct and not document.problems


def test_the_2014_truth_form() -> None:
    """NLP-TEA 2014: `sid, Type` (the error type of a sentence, no offsets), blanks before
    the id read past, as the official tool trims its lines."""
    document = parse_truth("C1-1711-1, Redundant\n\tB1-0201-1, missing \nA2-1, correct\n")
    first, second, third = document.lines
    assert first.sentence_level and first.type == "Redundant" and first.type_index == 1
    assert first.span(first.type_index).col == 11 and first.kind is CgedType.REDUNDANT
    assert second.sid == "B1-0201-1" and second.lead == 1 and second.span(0).col == 1
    assert second.type == "missing" and second.span(1).col == 12
    assert third.correct and not third.sentence_level and not document.problems


@pytest.mark.parametrize(("text", "fmt"), [
    ("C1-1711-1, Redundant\nC1-1781-1, correct\n", "cged-truth"),
    ("C1-1711-1, Selection\n", "cged-truth"),
    ("\tB2-1452-2, correct\n", "cged-truth"),
    ("Hello, world\n", None),  # a `word, word` line is no truth line
    ("name, value\nx, y\n", None),
])
def test_2014_truth_files_are_recognised_by_content(text, fmt) -> None:
    from m2lsp.parsing.detect import detect_format

    found = detect_format("truth.txt", text)
    assert (found.value if found else None) == fmt


input_chars = st.sampled_from([*"(sid=)\t\t 12AB-中文,", "(sid=", "\t"])


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(st.lists(input_chars, max_size=20).map("".join))
def test_input_fast_path_agrees_with_the_grammar(line: str) -> None:
    from m2lsp.formats.cged import input_parser as cged_input

    agree(cged_input.parse_line_fast, cged_input.parse_line_slow, line)


INPUT_FILES = ["cged/cged2015/nlptea15cged_release1.0/Test/NLPTEA15_CGED_TestInput.txt",
               "cged/cged2016/nlptea16cged_release1.0/Test/CGED16_HSK_Test_Input.txt",
               "cged/cged2018/test_CGED2018.xml"]


@pytest.mark.parametrize("name", INPUT_FILES)
def test_real_input_files_are_recognised_and_agree_with_the_grammar(name) -> None:
    """Both id styles; CGED 2018's test input is one despite its name (`.xml`)."""
    from m2lsp.formats.cged.input_parser import parse_input, parse_line_fast, parse_line_slow
    from m2lsp.model import Format
    from m2lsp.parsing.detect import detect_format

    source = decode(shared(name).read_bytes())
    assert detect_format(name, source.text) is Format.INPUT
    document = parse_input(source)
    assert len(document.lines) > 900 and not document.problems
    for line in document.lines[:300]:
        assert parse_line_fast(line.row, line.text) == parse_line_slow(line.row, line.text)


@pytest.mark.parametrize(("text", "fmt"), [
    ("(sid=A2-0003-1)\t我先恭喜妳\n", "cged-input"),
    ("12345\t在不正常的家庭\n", "cged-input"),
    ("name\tvalue\nx\ty\n", None),  # a two-column TSV is no input file
    ("12345\t中\textra column\n", None),
])
def test_input_files_are_recognised_by_content(text, fmt) -> None:
    from m2lsp.parsing.detect import detect_format

    found = detect_format("input.txt", text)
    assert (found.value if found else None) == fmt


ESSAY = """<ESSAY title="寫給筆友的一封信">
<TEXT>
<SENTENCE id="B1-0110-1">不知道為什麼我們等到現在在才打算見面</SENTENCE>
<SENTENCE id="B1-0110-2">我會穿著一個黃色的襯衫</SENTENCE>
<SENTENCE id="B1-0110-3">我很高興</SENTENCE>
</TEXT>
<MISTAKE id="B1-0110-1">
<TYPE>Redundant</TYPE>
<CORRECTION>不知道為什麼我們等到現在才打算見面</CORRECTION>
</MISTAKE>
<MISTAKE id="B1-0110-2">
<TYPE>Selection</TYPE>
<CORRECTION>我會穿著一件黃色的襯衫</CORRECTION>
</MISTAKE>
</ESSAY>

<ESSAY title="二">
<TEXT>
<SENTENCE id="B1-0112-1">我的計畫是十點早上</SENTENCE>
</TEXT>
<MISTAKE id="B1-9999-1">
<TYPE>Disorder</TYPE>
<CORRECTION>我的計畫是早上十點</CORRECTION>
</MISTAKE>
</ESSAY>
"""


def test_the_2014_essay_style() -> None:
    """NLP-TEA 2014: an <ESSAY> of <SENTENCE>s, MISTAKEs naming a sentence but no offsets;
    recognised, parsed sentence by sentence, and checked without offset findings."""
    from m2lsp.linting.run import lint
    from m2lsp.model import Format
    from m2lsp.parsing.detect import detect_format
    from m2lsp.scoring.cged.inputs import items_from_sgml

    assert detect_format("A2_CFL_test.sgml", ESSAY) is Format.CGED
    document = parse_cged(ESSAY)
    assert [(d.id, d.style, [e.type for e in d.errors]) for d in document.docs] == [
        ("B1-0110-1", "essay", ["Redundant"]), ("B1-0110-2", "essay", ["Selection"]),
        ("B1-0110-3", "essay", []), ("B1-0112-1", "essay", [])]
    assert document.docs[0].text == "不知道為什麼我們等到現在在才打算見面"
    assert [p.message for p in document.problems] == [
        "<MISTAKE> with id 'B1-9999-1', no sentence of its <ESSAY>: it belongs to no "
        "sentence"]
    codes = [d.code for d in lint(decode(ESSAY.encode()), Format.CGED).diagnostics]
    assert codes == ["C001"]  # the stray MISTAKE only: no offset findings
    items = items_from_sgml(document)
    assert [(i.sid, i.position, i.type) for i in items][:3] == [
        ("B1-0110-1", "", "Redundant"), ("B1-0110-2", "", "Selection"),
        ("B1-0110-3", "", "correct")]
