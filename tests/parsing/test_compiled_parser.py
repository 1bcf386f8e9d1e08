"""The compiled M2 parser (`_m2scan.c`) against the Python one: the same blocks, and suspect
bits that never hide a finding.

A rule with a suspect bit runs only on the blocks the compiled parser gave that bit, so the
bits must cover every block in which the rule finds something.  Checked on blocks built to
sit on every edge the bits decide (offsets at the token count, noops, annotators that only
differ in spaces, corrections equal to the tokens in Unicode spacing ...), on the shared
test strategies, on every real M2 file in ../shared/data, and on the generated messy file:
`lint` with and without the compiled parser gives the same diagnostics.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.generate import generate
from m2lsp.config import LintSettings
from m2lsp.linting.run import lint, m2_context, m2_counts
from m2lsp.model import Format, M2Document
from m2lsp.parsing import m2
from m2lsp.parsing.source import SourceText, decode
from m2lsp.parsing.suspects import ALL, Suspect, suspects
from m2lsp.rules.base import BlockSet
from m2lsp.rules.base import Scope as RuleScope
from m2lsp.rules.registry import all_rules
from tests.strategies import good_documents, lines, messy_documents

pytestmark = pytest.mark.skipif(m2.compiled is None, reason="the C parser was not built")

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
TOKENS = ["the", "cat", "a", "中", "é", "-NONE-", "x"]
SPACES = [" ", "  ", "\t", "\u3000", "\xa0", ""]
OFFSETS = ["-1", "0", "1", "2", "3", "4", "5", "-2", "007", "9" * 19, "9" * 20, "-" + "9" * 19]
TYPES = ["R:NOUN", "M:DET", "noop", "NOOP", "no-op", " noop", "No_Op", "UNK", "n o o p",
         "R:NOPE", "", "ｎｏｏｐ", "noop\x1c"]
ANNOTATORS = ["0", "1", "0 ", " 1", "00", "kim", "٣", "", "2", "10", "\t3 \t", "-1", "+1",
              " -0", "1 2", "\u30001", "1\xa0", " " + "7" * 100 + " ", "7" * 101, " \t"]
REQUIRED = ["REQUIRED", "OPTIONAL", "REQUIRED ", "required", ""]


@st.composite
def corrections(draw: st.DrawFn, tokens: list[str]) -> str:
    """A correction field: often the original tokens in some spacing, or alternatives."""
    pick = draw(st.integers(0, 6))
    if pick == 0 and tokens:
        i = draw(st.integers(0, len(tokens) - 1))
        j = draw(st.integers(i, len(tokens)))
        gap = draw(st.sampled_from(SPACES[:5]))
        return draw(st.sampled_from(["", " ", "\u3000"])) + gap.join(tokens[i:j])
    if pick == 1:
        return "||".join(draw(st.lists(st.sampled_from([*TOKENS, "", " a"]), min_size=2,
                                       max_size=3)))
    if pick == 2:
        return draw(st.sampled_from(["-NONE-", "", " ", "a  b", "a\tb", "dog ", "|", "x|"]))
    return draw(st.sampled_from(TOKENS))


@st.composite
def edge_blocks(draw: st.DrawFn) -> tuple[str, ...]:
    tokens = draw(st.lists(st.sampled_from(TOKENS), max_size=5))
    head = draw(st.sampled_from(["S ", "S ", "S ", "S  ", "A ", "T0 "]))
    sentence = head + draw(st.sampled_from(SPACES[:4])).join(tokens) + draw(
        st.sampled_from(["", "", " ", "\t"]))
    out = [sentence]
    for _ in range(draw(st.integers(0, 6))):
        if draw(st.integers(0, 9)) == 0:
            out.append(draw(lines))
            continue
        start, end = draw(st.sampled_from(OFFSETS)), draw(st.sampled_from(OFFSETS))
        out.append(f"A {start} {end}|||{draw(st.sampled_from(TYPES))}|||"
                   f"{draw(corrections(tokens))}|||{draw(st.sampled_from(REQUIRED))}|||"
                   f"-NONE-|||{draw(st.sampled_from(ANNOTATORS))}")
    return tuple(out)


BLOCK_RULES = [r for r in all_rules() if r.scope is RuleScope.M2_BLOCK]


def test_the_c_bits_are_those_of_suspects_py() -> None:
    assert {**{bit.name: bit.value for bit in Suspect}, "ALL": ALL} == m2.compiled.BITS


def assert_same_and_covered(key: tuple[str, ...]) -> None:
    [built] = m2.compiled.parse_blocks([key])
    reference = m2.parse_block(key)
    assert built == reference
    assert built.annotator_set == frozenset(e.annotator for e in reference.edits)
    assert built.type_set == frozenset(e.type for e in reference.edits)
    bits = suspects(built)
    assert suspects(reference) == ALL  # built in Python: every rule sees it
    document = M2Document((reference,), (0,), frozenset(), len(key))
    context = m2_context(SourceText("\n".join(key)), document, LintSettings())
    for rule in BLOCK_RULES:
        if rule.suspect is None or bits & rule.suspect:
            continue
        found = list(rule.check(BlockSet([reference]), context))
        assert not found, (rule.code, key, found)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(edge_blocks())
def test_edge_blocks_parse_alike_and_their_bits_cover_every_finding(key) -> None:
    assert_same_and_covered(key)


@settings(max_examples=300, deadline=None)
@given(st.lists(lines, min_size=1, max_size=6))
def test_any_lines_parse_alike_and_their_bits_cover_every_finding(block) -> None:
    assert_same_and_covered(tuple(block))


def lint_both_ways(text: str) -> tuple[tuple, tuple]:
    """The diagnostics with and without the compiled parser (and the file's counts, which
    are compared on the way)."""
    source = SourceText(text)
    with_c = lint(source, Format.M2)
    saved, m2.compiled = m2.compiled, None
    try:
        without = lint(SourceText(text), Format.M2)
        python_counts = m2_counts(with_c.document.blocks)  # counted in Python
    finally:
        m2.compiled = saved
    assert m2_counts(with_c.document.blocks) == python_counts
    return with_c.diagnostics, without.diagnostics


ODD_IDS = ["0", " 007 ", "٣", "0" * 150, "", "1 ", "\u30001", "00", "10", "-1", "kim", "1" * 101]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(ODD_IDS), max_size=4), max_size=6))
def test_the_file_counts_are_the_same_in_c(ids: list[list[str]]) -> None:
    text = "\n\n".join("\n".join(["S a b c"] + [
        f"A 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||{a}" for a in block]) for block in ids)
    lint_both_ways(text)


@settings(max_examples=300, deadline=None)
@given(st.one_of(good_documents(), messy_documents()))
def test_lint_is_the_same_with_and_without_the_compiled_parser(text: str) -> None:
    with_c, without = lint_both_ways(text)
    assert with_c == without


def real_m2_files() -> list[Path]:
    if not DATA.is_dir():
        return []
    return sorted(p for p in DATA.rglob("*") if p.is_file() and (
        p.suffix == ".m2" or ".m2." in p.name or p.name.endswith(".m2")))


@pytest.mark.skipif(not real_m2_files(), reason="../shared/data is not there")
@pytest.mark.parametrize("path", real_m2_files(), ids=lambda p: p.name)
def test_real_files_lint_alike(path: Path) -> None:
    text = decode(path.read_bytes()).text
    with_c, without = lint_both_ways(text)
    assert with_c == without
    document = m2.parse_m2(text)
    saved, m2.compiled = m2.compiled, None
    try:
        assert m2.parse_m2(text) == document
    finally:
        m2.compiled = saved


def test_the_generated_messy_file_lints_alike() -> None:
    with_c, without = lint_both_ways(generate(20_000, seed=3, defects=True))
    assert len(with_c) > 5000
    assert with_c == without
