"""Incremental linting (m2lsp.linting.incremental) against linting the whole text, edit
after edit."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from m2lsp.linting.incremental import LiveDocument, TextChange, split_lines
from m2lsp.linting.run import lint
from m2lsp.model import Format
from m2lsp.parsing.source import SourceText
from tests.conftest import ROOT, shared
from tests.strategies import messy_documents

# Pieces an annotator types, and pieces that break things: new blocks, merged blocks,
# new annotators (the file-wide context changes), CR and CRLF, Unicode line breaks.
PIECES = ["S ", "A ", "A 1 2|||R:DET|||the|||REQUIRED|||-NONE-|||0", "\n", "\n\n", " ", "x",
          "|||", "1", "3", "-1", "noop", "\r\n", "\r", "\t", "\u2028", "||", "2",
          "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1", "S The cat sat .\n"]


def random_change(rng: random.Random, lines: list[str]) -> TextChange:
    l0 = rng.randrange(len(lines))
    c0 = rng.randint(0, len(lines[l0]))
    l1 = min(len(lines) - 1, l0 + rng.choice([0, 0, 0, 0, 1, 2]))
    c1 = rng.randint(0 if l1 > l0 else c0, len(lines[l1]))
    text = "".join(rng.choice(PIECES) for _ in range(rng.choice([0, 1, 1, 1, 2])))
    return TextChange(text, (l0, c0), (l1, c1))


def expected_text(text: str, change: TextChange) -> str:
    assert change.start and change.end
    offsets = SourceText(text).line_offsets
    start = offsets[change.start[0]] + change.start[1]
    end = offsets[change.end[0]] + change.end[1]
    return text[:start] + change.text + text[end:]


def run_edits(text: str, seed: int, count: int) -> None:
    rng = random.Random(seed)
    doc = LiveDocument(text, Format.M2)
    assert doc.lint().diagnostics == lint(SourceText(text), Format.M2).diagnostics
    for step in range(count):
        change = random_change(rng, doc.lines)
        before = doc.text
        doc.apply([change])
        assert doc.text == expected_text(before, change), step
        fresh = lint(SourceText(doc.text), Format.M2).diagnostics
        assert doc.lint().diagnostics == fresh, (step, change)


@pytest.mark.slow
def test_a_thousand_random_edits_to_a_real_gold_file_keep_diagnostics_exact():
    gold = shared("conll2014/gold/official-2014.combined.m2").read_text("utf-8")
    lines = gold.split("\n")[:400]  # about 30 sentences: edits land in many blocks
    run_edits("\n".join(lines) + "\n", seed=2014, count=1000)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_random_edits_to_the_bundled_example(seed):
    run_edits((ROOT / "examples" / "annotated.m2").read_text("utf-8"), seed, 25)


# lines before the first block with line-rule findings (the head), blocks with them in
# their S, A and separator lines, a block at line 0
HEADS = ["x \n \nS a \nA 0 1|||X|||b|||REQUIRED|||-NONE-|||0\t\n \n\nS b\n",
         "\t\n\u2028x\nS a\n", "S a \n\n \n", " ", "A 0 1|||X|||b|||R|||-NONE-|||0 \n\nS c \n"]


@pytest.mark.parametrize("text", HEADS)
def test_an_opened_document_has_the_diagnostics_of_lint(text: str) -> None:
    expected = lint(SourceText(text), Format.M2).diagnostics
    assert any(d.code in ("X004", "M008", "M011") for d in expected)
    assert LiveDocument(text, Format.M2).lint().diagnostics == expected


@settings(max_examples=60, deadline=None)
@given(messy_documents())
def test_any_opened_document_has_the_diagnostics_of_lint(text: str) -> None:
    expected = lint(SourceText(text), Format.M2).diagnostics
    assert LiveDocument(text, Format.M2).lint().diagnostics == expected


@pytest.mark.parametrize("text", ["", "\n", "S a\r\nA 0 1|||X|||b|||REQUIRED|||-NONE-|||0",
                                  "x\r", "\r\n\r\n"])
def test_whole_text_changes_and_line_breaks(text):
    doc = LiveDocument("S old\n", Format.M2)
    doc.apply([TextChange(text)])
    assert doc.text == text
    assert doc.lines == SourceText(text).lines
    assert doc.lint().diagnostics == lint(SourceText(text), Format.M2).diagnostics


def test_a_cr_typed_before_an_lf_makes_one_crlf_break():
    doc = LiveDocument("S a\nS b\n", Format.M2)
    doc.apply([TextChange("\r", (0, 3), (0, 3))])
    assert doc.lines == ["S a", "S b", ""]
    assert doc.breaks == ["\r\n", "\n"]


def test_positions_beyond_the_end_are_clamped():
    doc = LiveDocument("S a\n", Format.M2)
    doc.apply([TextChange("x", (9, 9), (12, 0))])
    assert doc.text == "S a\nx"


def test_split_lines_matches_source_text():
    text = "a\r\nb\rc\n\nd"
    lines, breaks = split_lines(text)
    assert lines == SourceText(text).lines
    assert breaks == ["\r\n", "\r", "\n", "\n"]


@pytest.mark.parametrize("fmt", [Format.CGED, Format.TRUTH])
def test_other_formats_are_linted_whole(fmt):
    cged = ('<DOC>\n<TEXT id="1">\nabc\n</TEXT>\n'
            '<ERROR start_off="9" end_off="9" type="R"></ERROR>\n</DOC>\n')
    text = "A0001, 3, 4, R\nA0001, correct\n" if fmt is Format.TRUTH else cged
    doc = LiveDocument(text, fmt)
    doc.apply([TextChange("", (0, 0), (0, 1))])
    assert doc.lint().diagnostics == lint(SourceText(doc.text), fmt).diagnostics


def test_a_typo_annotator_is_one_warning_not_a_storm() -> None:
    """Typing `10` for `1` in one sentence of a 2-annotator file: M306 on that line and M302
    on that sentence (it lacks annotator 1 now), not M302 on the 999 others (it used to flag
    every sentence without annotator 10)."""
    blocks = [f"S s {i} .\nA 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||0\n"
              f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n" for i in range(1000)]
    doc = LiveDocument("\n".join(blocks), Format.M2)
    assert not [d for d in doc.lint().diagnostics if d.code in ("M302", "M306")]
    line = 4 * 500 + 2  # the noop line of sentence 500
    doc.apply([TextChange("10", (line, 46), (line, 47))])
    codes = [d.code for d in doc.lint().diagnostics]
    assert codes.count("M306") == 1 and codes.count("M302") == 1
    doc.apply([TextChange("1", (line, 46), (line, 48))])
    assert not [d for d in doc.lint().diagnostics if d.code in ("M302", "M306", "M303")]


def messy_text(rng: random.Random, blocks: int) -> str:
    """Blocks with errors, warnings and trailing whitespace here and there."""
    out = []
    for i in range(blocks):
        lines = [f"S s{i} a b c ."]
        for _ in range(rng.randint(0, 3)):
            start = rng.choice([0, 1, 2, 9])  # 9: past the end, an error
            lines.append(f"A {start} {start + 1}|||R:NOUN|||x|||REQUIRED|||-NONE-|||0"
                         + rng.choice(["", "", " "]))  # a space: a warning
        out.append("\n".join(lines) + rng.choice(["\n", "\n  \n"]))
    return "\n".join(out)


@pytest.mark.parametrize("limit", [1, 7, 40, 10**6])
def test_a_selection_keeps_the_most_severe_then_the_nearest(limit: int) -> None:
    rng = random.Random(limit)
    doc = LiveDocument(messy_text(rng, 60), Format.M2)
    for step in range(30):
        doc.apply([random_change(rng, doc.lines)])
        full = doc.lint().diagnostics
        focus = rng.randrange(len(doc.lines))
        chosen = doc.select(limit, focus)
        assert chosen.total == len(full) and len(chosen.diagnostics) == min(limit, len(full))
        assert set(chosen.diagnostics) <= set(full), step
        assert list(chosen.diagnostics) == sorted(chosen.diagnostics, key=lambda d: d.sort_key)
        if chosen.hidden:
            cut = max(d.severity for d in chosen.diagnostics)
            assert all(d in chosen.diagnostics for d in full if d.severity < cut)
            assert all(d.severity >= cut for d in full if d not in chosen.diagnostics)
        else:
            assert chosen.diagnostics == full
        first = rng.randrange(len(doc.lines))
        last = first + rng.randint(0, 5)
        assert sorted(doc.diagnostics_on(first, last), key=lambda d: d.sort_key) == [
            d for d in full if d.span.end_line >= first and d.span.line <= last]


def test_the_nearest_of_the_least_severe_kind_are_kept() -> None:
    """Only warnings (trailing whitespace): the ones shown are those around the focus."""
    lines = [f"S s{i} a .{' ' if i % 2 else ''}\n" for i in range(200)]
    doc = LiveDocument("\n".join(lines), Format.M2)
    chosen = doc.select(10, focus=200)
    assert chosen.total == 100 and chosen.hidden == 90
    rows = [d.span.line for d in chosen.diagnostics]
    assert all(d.code == "X004" for d in chosen.diagnostics)
    assert rows == list(range(182, 219, 4))  # blocks 91, 93 ... 109: five either side
