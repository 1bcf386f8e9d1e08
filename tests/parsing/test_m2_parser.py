"""The M2 parser: the grammar is the definition, the fast path must agree with it, and no
input makes parsing fail."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from lark.exceptions import UnexpectedInput

from m2lsp.linting.run import lint
from m2lsp.model import Edit, Format
from m2lsp.parsing.m2 import (
    BlockCache,
    find_blocks,
    line_from_tree,
    line_parser,
    make_edit,
    parse_block,
    parse_line_fast,
    parse_line_lark,
    parse_line_slow,
    parse_m2,
    parse_with_lark,
    shape,
)
from m2lsp.parsing.source import decode
from tests.conftest import shared
from tests.strategies import good_documents, lines

EXAMPLES = 2000  # per property in the suite; `-m nightly` runs the nightly scale
DOCUMENTS = 5000  # arbitrary documents: with test_fixing's, over 10k per CI run


def lark_line(line: str):
    """What the grammar makes of one line: a model object, or None when it rejects it."""
    try:
        tree = line_parser().parse(line + "\n", start="line")
    except UnexpectedInput:
        return None
    return line_from_tree(tree.children[0], 0, line)


@settings(max_examples=EXAMPLES, deadline=None)
@given(lines)
def test_fast_path_agrees_with_the_grammar(line: str) -> None:
    assert parse_line_fast(0, line) == lark_line(line)


@pytest.mark.slow
@settings(max_examples=EXAMPLES // 4, deadline=None)
@given(good_documents())
def test_blocks_agree_with_the_document_grammar(text: str) -> None:
    reference = parse_with_lark(text)
    document = parse_m2(text)
    assert [first for first, _ in reference] == list(document.starts)
    assert [block for _, block in reference] == list(document.blocks)


@settings(max_examples=DOCUMENTS, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_parse_and_lint(data: bytes) -> None:
    source = decode(data)
    document = parse_m2(source)
    assert sum(len(b.lines) for b in document.blocks) <= len(source.lines)
    lint(source, Format.M2)


@pytest.mark.slow
@settings(max_examples=DOCUMENTS, deadline=None)
@given(st.text(max_size=200))
def test_any_text_parses_and_lints(text: str) -> None:
    for fmt in Format:
        lint(decode(text.encode("utf-8", errors="surrogatepass")), fmt)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.integers(-5, 50), st.integers(-5, 50),
       st.lists(st.text(max_size=5).filter(lambda s: "|||" not in s and "\n" not in s),
                min_size=5, max_size=5))
def test_make_edit_equals_the_dataclass_constructor(start, end, parts) -> None:
    line = f"A {start} {end}|||" + "|||".join(parts)
    built = make_edit(3, line, start, end, list(parts))
    assert built == Edit(3, line, start, end, parts[0], tuple(parts[1].split("||")),
                         parts[2], parts[3], parts[4])


@pytest.mark.nightly
@pytest.mark.slow
@settings(max_examples=200_000, deadline=None)
@given(lines)
def test_fast_path_agrees_with_the_grammar_nightly(line: str) -> None:
    assert parse_line_fast(0, line) == lark_line(line)


@pytest.mark.nightly
@pytest.mark.slow
@settings(max_examples=50_000, deadline=None)
@given(st.binary(max_size=2000))
def test_any_bytes_nightly(data: bytes) -> None:
    for fmt in Format:
        lint(decode(data), fmt)


# ---------------------------------------------------------------------------------------
# tables

@pytest.mark.parametrize(("line", "kind"), [
    ("S", "sentence-marker"), ("Sfoo", "sentence-marker"), ("S\tx", "sentence-marker"),
    ("Q x", "unknown-line"), ("# note", "unknown-line"), ("  A 1 2|||", "unknown-line"),
    ("A", "edit-marker"), ("A\t1 2|||X|||y|||R|||C|||0", "edit-marker"),
    ("A x 1|||X|||y|||R|||C|||0", "offset"), ("A 1|||X|||y|||R|||C|||0", "offset"),
    ("A 1.5 2|||X|||y|||R|||C|||0", "offset"), ("A 1 2", "offset"),
    ("A 1 2|||X|||y|||R|||C", "field-count"), ("A 1 2|||X", "field-count"),
    ("A 1 2|||X|||y|||R|||C|||0|||z", "field-count"),
    ("T0x", "target-marker"), ("T", "target-marker"), ("T0-A", "target-marker"),
])
def test_error_kinds(line: str, kind: str) -> None:
    problem = parse_line_slow(0, line)
    assert problem.kind == kind


@pytest.mark.parametrize(("line", "fields"), [
    ("A 3 4|||Prep|||a||b|||REQUIRED|||-NONE-|||0", ("Prep", ("a", "b"), "0")),
    ("A 3 4|||Prep||||||REQUIRED|||-NONE-|||0", ("Prep", ("",), "0")),
    ("A 3 4||||||||||||||||0", ("", ("",), "|0")),
    ("A 3 4|||X|||||a|||R|||C|||0", ("X", ("", "a"), "0")),
    ("A  3\t4 |||X|||y|||R|||C|||0", ("X", ("y",), "0")),
])
def test_a_line_fields_split_as_the_nus_scorer_splits(line, fields) -> None:
    edit = parse_line_fast(0, line)
    assert (edit.type, edit.corrections, edit.annotator) == fields
    assert edit == lark_line(line)


def test_blocks_split_at_blank_lines_and_s_lines() -> None:
    text = ["S a", "A 0 1|||X|||b|||R|||-|||0", "S c", "", "  ", "A 0 1|||X|||b|||R|||-|||0",
            "", "S d"]
    spans = find_blocks(text)
    assert [(s.start, s.end, s.separated) for s in spans] == [
        (0, 2, True), (2, 3, False), (5, 6, True), (7, 8, True)]
    document = parse_m2("\n".join(text))
    assert document.unseparated == {1}
    assert document.blocks[2].sentence is None


def test_the_cache_reuses_unchanged_blocks() -> None:
    cache = BlockCache()
    text = "S a b\nA 0 1|||X|||c|||R|||-|||0\n\nS d e\n"
    parse_m2(text, cache)
    assert cache.misses == 2
    parse_m2("S new\n\n" + text, cache)
    assert (cache.misses, cache.hits) == (3, 2)


def test_field_spans() -> None:
    edit = parse_block(["S a b", "A 0 1|||R:DET|||x||yy|||REQUIRED|||-NONE-|||12"]).edits[0]
    from m2lsp.model import EditField
    assert edit.columns(EditField.OFFSETS) == (2, 5)
    assert edit.columns(EditField.TYPE) == (8, 13)
    assert edit.columns(EditField.CORRECTIONS) == (16, 21)
    assert edit.correction_columns() == ((16, 17), (19, 21))
    assert edit.columns(EditField.ANNOTATOR) == (44, 46)


FIELD_VALUES = {  # what each part's columns hold, read from the parsed edit
    "START": lambda e: str(e.start), "END": lambda e: str(e.end), "TYPE": lambda e: e.type,
    "CORRECTIONS": lambda e: "||".join(e.corrections), "REQUIRED": lambda e: e.required,
    "COMMENT": lambda e: e.comment, "ANNOTATOR": lambda e: e.annotator,
    "LINE": lambda e: e.text,
}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="ab |:-0 \t\u3000", max_size=6), min_size=5, max_size=5),
       st.integers(0, 12), st.integers(0, 12))
def test_each_part_columns_hold_that_part(fields: list[str], start: int, end: int) -> None:
    line = f"A {start} {end}|||" + "|||".join(fields)
    block = parse_block(["S a b c", line])
    assume(block.edits and not any("|||" in f or f.endswith("|") for f in fields))
    edit = block.edits[0]
    from m2lsp.model import EditField
    for name, value in FIELD_VALUES.items():
        col, stop = edit.columns(EditField[name])
        assert edit.text[col:stop] == value(edit), name


def test_an_edit_built_by_hand_spans_its_whole_line() -> None:
    from m2lsp.model import EditField
    edit = Edit(0, "odd", 0, 1, "X", ("y",), "REQUIRED", "-NONE-", "0")
    assert {edit.columns(part) for part in EditField} == {(0, 3)}


@pytest.mark.parametrize("name", [
    "conll2014/gold/official-2014.combined.m2", "bea2019-dev/ABCN.dev.gold.bea19.m2",
    "nlpcc2018/nlpcc18.gold", "mucgec/demo.ref.m2.char", "mucgec/demo.hyp.m2.word",
])
def test_real_files_parse_the_same_with_lark(name: str) -> None:
    text = shared(name).read_text(encoding="utf-8")
    reference = parse_with_lark(text)
    document = parse_m2(text)
    assert not any(b.problems for b in document.blocks)
    assert [b for _, b in reference] == list(document.blocks)


MUTATIONS = st.sampled_from(["", " ", "  ", "\t", "|", "||", "|||", "-", "A", "S", "T", "0",
                             "12", "x", "é中", "R:NOUN", "-NONE-", "\x0b", "3.5", "T0-A1"])


@st.composite
def mutated_lines(draw: st.DrawFn) -> str:
    """Lines near well-formed ones: pieces inserted, deleted or replaced anywhere."""
    line = draw(st.one_of(lines, st.sampled_from([
        "A 3 4|||Prep|||on||in|||REQUIRED|||-NONE-|||0", "S The cat sat .", "T0-A1 text",
        "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1"])))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(line)))
        cut = draw(st.integers(0, 3))
        line = line[:at] + draw(MUTATIONS) + line[at + cut:]
    return line


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(st.one_of(lines, mutated_lines()))
def test_lines_judged_by_their_shape_equal_lines_judged_whole(line: str) -> None:
    """The shape memo of parse_line_slow gives what the grammar gives on the line itself:
    the same object, or the same problem at the same column.  (Blank lines separate blocks:
    no line parser sees one.)"""
    assume(line != "")
    assert parse_line_slow(4, line) == parse_line_lark(4, line)


@pytest.mark.parametrize(("line", "shape_text"), [
    ("A 12 3|||R:ART|||dog|||REQUIRED|||-NONE-|||0", "A 0 0|||xAxT|||x|||x|||-x-|||0"),
    ("S 中文 x9", "S x x0"), ("T10-A2 é", "T0-A0 x"),
])
def test_shapes(line: str, shape_text: str) -> None:
    key, columns = shape(line)
    assert key == shape_text and len(columns) == len(key)
    assert all(line[c] == k or k in "0x" for c, k in zip(columns, key, strict=True))
