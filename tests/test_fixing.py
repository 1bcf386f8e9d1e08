"""`--fix`: idempotent, and never loses or reorders a line it did not mean to change."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from m2lsp.config import LintSettings
from m2lsp.diagnostic import Applicability
from m2lsp.linting.fixes import Taken, _overlaps, applicable, apply_once, fix_until_stable
from m2lsp.linting.run import lint
from m2lsp.model import Format
from m2lsp.parsing.source import SourceText
from tests.strategies import messy_documents

SAFE = frozenset({Applicability.SAFE})
BOTH = frozenset({Applicability.SAFE, Applicability.UNSAFE})


def check(source: SourceText):
    return lint(source, Format.M2).diagnostics


def touched_lines(fixes) -> set[int]:
    lines = set()
    for _, fix in fixes:
        for edit in fix.edits:
            lines.update(range(edit.span.line, max(edit.span.end_line, edit.span.line) + 1))
    return lines


def is_subsequence(needles: list[str], haystack: list[str]) -> bool:
    it = iter(haystack)
    return all(any(n == h for h in it) for n in needles)


@pytest.mark.slow
@pytest.mark.parametrize("allowed", [SAFE, BOTH], ids=["safe", "unsafe"])
@settings(max_examples=1000, deadline=None)
@given(text=messy_documents())
def test_each_round_keeps_untouched_lines_in_order(allowed, text: str) -> None:
    source = SourceText(text)
    fixes = applicable(check(source), allowed)
    fixed, used = apply_once(source, fixes)
    kept = [line for i, line in enumerate(source.lines) if i not in touched_lines(used)]
    assert is_subsequence(kept, fixed.lines)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(text=messy_documents())
def test_fix_is_idempotent(text: str) -> None:
    once = fix_until_stable(SourceText(text), check, SAFE).source
    twice = fix_until_stable(once, check, SAFE)
    assert twice.applied == 0
    assert twice.source.text == once.text
    assert not applicable(check(once), SAFE)


def test_fix_applies_only_safe_fixes_by_default() -> None:
    text = "S  The cat .\nA 0 1|||R:DET|||A|||REQUIRED|||-NONE-|||0 \n"
    outcome = fix_until_stable(SourceText(text), check)
    assert outcome.by_code == {"X004": 1}
    assert outcome.source.text == "S  The cat .\nA 0 1|||R:DET|||A|||REQUIRED|||-NONE-|||0\n"
    unsafe = fix_until_stable(SourceText(text), check, BOTH)
    assert unsafe.source.text.startswith("S The cat .\n")


def test_crlf_text_keeps_its_line_breaks_where_untouched() -> None:
    text = "P, 1, 2, S \r\nQ,3,4,M\r\n"
    keep = LintSettings(ignore=("T009",))  # T009 itself would make the file LF
    outcome = fix_until_stable(SourceText(text),
                               lambda s: lint(s, Format.TRUTH, keep).diagnostics)
    assert outcome.source.text == "P, 1, 2, S\r\nQ, 3, 4, M\r\n"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 6)), max_size=25))
def test_taken_ranges_conflict_exactly_as_pairwise_comparison(pairs) -> None:
    """The neighbour search of `Taken` finds every conflict the all-pairs check finds."""
    taken, kept = Taken(), []
    for start, length in pairs:
        new = (start, start + length, "")
        brute = any(_overlaps(new, old) for old in kept)
        assert taken.conflicts(new) == brute
        if not brute:
            taken.add(new[0], new[1])
            kept.append((new[0], new[1]))


def test_a_round_is_linear_in_the_fixes() -> None:
    """80,000 fixes (trailing spaces) in one round: quadratic, this took 43 s."""
    block = ("S The cat sat . \nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0 \n"
             "A 3 3|||M:ADV|||down|||REQUIRED|||-NONE-|||0\n\n")
    source = SourceText(block * 20_000)
    fixes = applicable(check(source), SAFE)
    assert len(fixes) >= 40_000
    new, used = apply_once(source, fixes)
    assert len(used) == len(fixes) and " \n" not in new.text
