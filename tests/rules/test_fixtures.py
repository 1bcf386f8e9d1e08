"""Every rule has a fixture file that triggers it; its diagnostics (and, for fixable rules,
the text after applying that rule's fixes) are snapshots next to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from m2lsp.config import LintSettings
from m2lsp.curation.keys import sentence_key
from m2lsp.curation.notes import Note
from m2lsp.curation.sidecars import Sidecars
from m2lsp.diagnostic import Applicability
from m2lsp.linting.fixes import apply_once
from m2lsp.linting.run import Corpus, lint
from m2lsp.model import Format
from m2lsp.parsing.source import decode
from m2lsp.rules.registry import all_rules
from tests.conftest import assert_snapshot

FIXTURES = Path(__file__).parent / "fixtures"
FORMATS = {".m2": Format.M2, ".sgml": Format.CGED, ".truth": Format.TRUTH,
           ".input": Format.INPUT, ".md": Format.MULTIGEC, ".ann": Format.ANN,
           ".jsonl": Format.BEA_JSON}
KNOWN_IDS = {"T002": frozenset({"A2-0001", "A2-0002"})}
# MultiGEC: the fixture as a reference (G006) or hypothesis (G007) of an original with
# essays 1 and 2
CORPUS = {"G006": Corpus("ref", frozenset({"1", "2"}), "xx-corpus-orig-dev.md"),
          "G007": Corpus("hyp", frozenset({"1", "2"}), "xx-corpus-orig-dev.md")}
# curation and notes: the files beside the fixture, as `check` reads them (a gold whose
# sentences 2 and 3 are still to decide; one whose sentences 2 and 3 annotators changed
# since they were decided; a note on an edit gone, one on a sentence gone; notes that
# cannot be read)
SIDECARS = {
    "N001": Sidecars(unfinished=frozenset({sentence_key(["She", "arrive", "at", "Monday", "."]),
                                           sentence_key(["It", "rain", "."])})),
    "N002": Sidecars(notes=(
        Note("ana", "2026-01-01T00:00:00Z", sentence_key(["She", "arrive", "at", "Monday", "."]),
             "on or in?", edit="2 3|||R:PREP|||on"),
        Note("ben", "2026-01-01T00:00:00Z", sentence_key(["It", "rains", "."]), "",
             unsure=True),
        Note("ana", "2026-01-01T00:00:00Z", sentence_key(["He", "go", "to", "school", "."]),
             "kept", edit="1 2|||R:VERB:SVA|||goes"))),
    "N004": Sidecars(unfinished=frozenset(), changed=(
        (sentence_key(["She", "arrive", "at", "Monday", "."]), ("1",)),
        (sentence_key(["It", "rain", "."]), ("0", "1")))),
    "N003": Sidecars(problems=(
        "the notes cannot be read: N003.m2.notes.jsonl:2: not a note (Expecting value: line "
        "1 column 1 (char 0)); each line is a JSON object with who, time, sentence and text",
    )),
}
SLOW = {"M412"}  # loads a spaCy pipeline
CODES = [rule.code for rule in all_rules()]


def _params(codes: list[str]) -> list:
    return [pytest.param(c, marks=pytest.mark.slow) if c in SLOW else c for c in codes]


def fixture_of(code: str) -> Path:
    matches = [p for p in FIXTURES.iterdir() if p.stem == code and p.suffix in FORMATS]
    assert len(matches) == 1, f"rule {code} needs exactly one fixture file in {FIXTURES}"
    return matches[0]


def render(path: Path, code: str) -> tuple[str, list]:
    source = decode(path.read_bytes())
    result = lint(source, FORMATS[path.suffix], _settings(code), known_ids=KNOWN_IDS.get(code),
                  corpus=CORPUS.get(code), sidecars=SIDECARS.get(code))
    own = [d for d in result.diagnostics if d.code == code]
    lines = [f"{d.span.line + 1}:{d.span.col + 1}-{d.span.end_line + 1}:{d.span.end_col + 1} "
             f"{d.code} {d.severity.label}: {d.message}"
             + (f" [fix: {d.fix.title} ({d.fix.applicability.value})]" if d.fix else "")
             for d in own]
    return "\n".join(lines) + "\n", own


def _settings(code: str) -> LintSettings:
    """The defaults, with an opt-in rule selected by its code."""
    return LintSettings(select=("ALL", code))


@pytest.mark.parametrize("code", _params(CODES))
def test_rule_fixture(code: str) -> None:
    path = fixture_of(code)
    text, own = render(path, code)
    assert own, f"the fixture of {code} does not trigger it"
    assert_snapshot(path.with_suffix(".expected"), text)


@pytest.mark.parametrize("code", _params([r.code for r in all_rules() if r.fix_title]))
def test_rule_fix(code: str) -> None:
    path = fixture_of(code)
    source = decode(path.read_bytes())
    _, own = render(path, code)
    fixes = [(d.code, d.fix) for d in own if d.fix is not None]
    assert fixes, f"{code} has a fix title but its fixture produces no fix"
    fixed, _ = apply_once(source, fixes)
    assert_snapshot(path.with_suffix(".fixed"), ("\ufeff" if fixed.bom else "") + fixed.text)
    after = [d for d in lint(fixed, FORMATS[path.suffix], _settings(code),
                             known_ids=KNOWN_IDS.get(code))
             .diagnostics if d.code == code and d.fix is not None
             and d.fix.applicability is Applicability.SAFE]
    assert not after, f"{code}: safe fixes remain after applying them: {after}"


def test_every_fixture_belongs_to_a_rule() -> None:
    stems = {p.stem for p in FIXTURES.iterdir() if p.suffix in FORMATS}
    assert stems == set(CODES)


@pytest.mark.parametrize("code", _params([r.code for r in all_rules() if r.opt_in]))
def test_opt_in_rules_run_only_when_named(code: str) -> None:
    source = decode(fixture_of(code).read_bytes())
    fmt = FORMATS[fixture_of(code).suffix]
    for select, runs in ((("ALL",), False), ((code[0],), False), ((code[:2],), True),
                         (("ALL", code), True)):
        found = [d for d in lint(source, fmt, LintSettings(select=select)).diagnostics
                 if d.code == code]
        assert bool(found) == runs, select


@pytest.mark.parametrize("code", _params([r.code for r in all_rules() if r.fix_title]))
def test_no_fix_undoes_another(code: str) -> None:
    """`--fix` with every rule on, twice: the second run finds nothing to change (two fixes
    that undid each other said "fixed 10 problem(s)" and left the file as it was)."""
    from m2lsp.linting.fixes import fix_until_stable

    path = fixture_of(code)
    fmt = FORMATS[path.suffix]
    both = frozenset({Applicability.SAFE, Applicability.UNSAFE})

    def check(source):
        return lint(source, fmt, _settings(code), known_ids=KNOWN_IDS.get(code)).diagnostics

    first = fix_until_stable(decode(path.read_bytes()), check, both)
    second = fix_until_stable(first.source, check, both)
    assert second.applied == 0 and second.source.text == first.source.text, second.by_code


def test_a_trailing_bare_comma_is_reported_without_a_fix() -> None:
    from m2lsp.linting.fixes import fix_until_stable

    source = decode(b"1, 3, 3, M, ,\n")

    def check(text):
        return lint(text, Format.TRUTH, LintSettings()).diagnostics

    found = [d for d in check(source) if d.code == "T003"]
    assert found and found[0].fix is None
    outcome = fix_until_stable(source, check)
    assert outcome.applied == 0 and outcome.source.text == source.text


def test_fixes_that_undo_each_other_stop_and_count_nothing() -> None:
    """A rule adding a space and another removing it: the round that returns to an earlier
    text stops there, and nothing is counted as fixed."""
    from m2lsp.diagnostic import Diagnostic, Fix, Severity, TextEdit
    from m2lsp.linting.fixes import fix_until_stable
    from m2lsp.model import Span
    from m2lsp.parsing.source import SourceText

    def check(source):
        line = source.text.rstrip("\n")
        span = Span.on_line(0, len(line), len(line))
        if line.endswith(" "):
            edit = TextEdit(Span.on_line(0, len(line) - 1, len(line)), "")
        else:
            edit = TextEdit(span, " ")
        return [Diagnostic("Z1", "flip", Severity.WARNING, span,
                           fix=Fix("flip", (edit,)))]

    outcome = fix_until_stable(SourceText("a,\n"), check)
    assert outcome.applied == 0 and outcome.source.text == "a,\n"
