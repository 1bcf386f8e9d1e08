"""`m2lsp convert`: offsets as a table, round trips on real data, each output's shape."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from m2lsp.cli import main
from m2lsp.formats.cged import conversion, writer
from m2lsp.formats.cged.parser import parse_cged
from m2lsp.formats.m2.annotators import annotators
from m2lsp.formats.parallel.conversion import to_parallel
from m2lsp.formats.unconverted import Unconverted
from m2lsp.parsing.m2 import parse_m2
from tests.conftest import SHARED_DATA

SGML = """<DOC>
<TEXT id="s1">我送你那裡</TEXT>
<ERROR start_off="4" end_off="4" type="M" answer="到"></ERROR>
<ERROR start_off="1" end_off="2" type="W"></ERROR>
<ERROR start_off="5" end_off="5" type="R"></ERROR>
<ERROR start_off="3" end_off="3" type="S" answer="他"></ERROR>
</DOC>
<DOC>
<TEXT id="s2">他們高興</TEXT>
</DOC>
"""
M2 = """S 我 送 你 那 裡
A 0 2|||UNK|||我 送|||REQUIRED|||-NONE-|||0
A 2 3|||S|||他|||REQUIRED|||-NONE-|||0
A 3 3|||M|||到|||REQUIRED|||-NONE-|||0
A 4 5|||R|||-NONE-|||REQUIRED|||-NONE-|||0

S 他 們 高 興
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
"""


def convert(tmp_path: Path, name: str, text: str, *args: str) -> str:
    (tmp_path / name).write_text(text, encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["convert", str(tmp_path / name), *args]) == 0
    return out.getvalue()


def test_cged_to_m2_offsets_and_corrections(tmp_path, capsys):
    # M at 4 is the insertion point 3; R corrects to -NONE-; W 1..2 has no answer: not an
    # M2 edit unless --detection-only, which writes it as UNK with the covered text; the
    # edits in offset order
    assert convert(tmp_path, "a.sgml", SGML, "--to", "m2", "--detection-only") == M2
    assert main(["convert", str(tmp_path / "a.sgml"), "--to", "m2"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "sentence s1: error W at 1..2 has no correction" in captured.err


def test_m2_to_cged_to_m2_is_exact(tmp_path):
    sgml = convert(tmp_path, "a.m2", M2, "--to", "cged")
    assert '<ERROR start_off="4" end_off="4" type="M" answer="到"></ERROR>' in sgml
    assert '<ERROR start_off="1" end_off="2" type="S"></ERROR>' in sgml  # UNK: detection
    assert convert(tmp_path, "b.sgml", sgml, "--to", "m2", "--detection-only") == M2


def test_truth_and_parallel(tmp_path):
    assert convert(tmp_path, "a.sgml", SGML, "--to", "truth") == (
        "s1, 4, 4, M, 到\ns1, 1, 2, W\ns1, 5, 5, R\ns1, 3, 3, S, 他\ns2, correct\n")
    assert convert(tmp_path, "a.m2", M2, "--to", "parallel", "--no-spaces") == (
        "我送你那裡\t我送他到那\n他們高興\t他們高興\n")


MUCGEC = SHARED_DATA / "mucgec" / "demo.hyp.m2.char"


@pytest.mark.skipif(not MUCGEC.is_file(), reason="../shared/data/mucgec is absent")
def test_real_char_m2_round_trip_is_exact(tmp_path):
    """MuCGEC's hypothesis (one annotator, R/M/S/W) through CGED and back, ChERRANT's
    target lines aside."""
    lines = MUCGEC.read_text(encoding="utf-8").split("\n")
    plain = "\n".join(x for x in lines if not x.startswith("T")).strip() + "\n"
    sgml = writer.to_cged(conversion.from_m2(parse_m2(plain)))
    assert conversion.to_m2(conversion.from_cged(parse_cged(sgml))) == plain


CGED = [SHARED_DATA / "cged" / "cged2018" / "train_CGED2018.xml",
        SHARED_DATA / "cged" / "cged2015" / "nlptea15cged_release1.0" / "Training"
        / "NLPTEA15_CGED_Training.sgml"]


@pytest.mark.parametrize("path", CGED, ids=["2018", "2015"])
def test_real_cged_round_trip_keeps_every_error(path):
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    sentences = conversion.from_cged(parse_cged(path.read_text(encoding="utf-8")))
    problems: list[Unconverted] = []
    back = conversion.from_m2(parse_m2(conversion.to_m2(sentences, True, problems)))
    assert len(back) == len(sentences) > 400
    left_out = {}
    for problem in problems:  # with --detection-only: errors M2 cannot hold
        assert any(why in problem.reason for why in ("has the span of", "overlaps", "outside"))
        left_out[problem.where] = left_out.get(problem.where, 0) + 1
    for before, after in zip(sentences, back, strict=True):
        assert after.text == before.text.replace(" ", "").replace("\t", "")
        known = conversion._corrections(before)
        # CGED 2015 writes some M errors as wide as the missing word (13..14 for two
        # characters); M2 keeps only the insertion point, so they come back as 13..13.  An
        # error without a correction is UNK (detection only), back as M or S.
        expected = sorted(
            ((e.start, e.start if e.type == "M" else e.end,
              e.type if a is not None or e.type in "RM" else "S",
              None if e.type == "R" else a)
             for e, a in zip(before.errors, known, strict=True)),
            key=lambda x: (x[0] - (x[2] != "M" and x[1] >= x[0]), x[1]))
        got = [(e.start, e.end, e.type, e.answer) for e in after.errors]
        assert len(got) + left_out.get(f"sentence {before.id}", 0) == len(expected)
        assert [e for e in got if e not in expected] == [], (before, expected)


CONFLICTING = ("S a b c\nA 0 2|||R:OTHER|||x|||REQUIRED|||-NONE-|||0\n"
               "A 1 2|||R:OTHER|||y|||REQUIRED|||-NONE-|||0\n"
               "A 0 1|||R:OTHER|||z|||REQUIRED|||-NONE-|||1\n\nS d e\n"
               "A 1 9|||R:OTHER|||f|||REQUIRED|||-NONE-|||0\n")


@pytest.mark.parametrize("name, text, target, reports", [
    ("a.m2", CONFLICTING, "parallel", [
        "sentence 1 (line 1): annotator 0's edits overlap or lie outside the sentence",
        "sentence 2 (line 6): annotator 0's edits overlap"]),
    ("a.sgml", SGML.replace('start_off="5" end_off="5" type="R"', 'start_off="x" type="R"'),
     "m2", ["sentence s1 (line 5): error 'R' has no readable type or offsets",
            "sentence s1: error W at 1..2 has no correction"]),
    ("c.m2", "S 我 们 好\nA 2 2|||M|||,|||REQUIRED|||-NONE-|||0\n", "truth", [
        "sentence 1: the correction ',' has a comma, which a truth file cannot hold"]),
])
def test_what_cannot_be_converted_is_reported_and_nothing_written(
        tmp_path, capsys, name, text, target, reports) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    output = tmp_path / "out"
    assert main(["convert", str(tmp_path / name), "--to", target, "-o", str(output)]) == 1
    err = capsys.readouterr().err
    assert all(report in err for report in reports), err
    assert err.count("m2lsp: error: ") == len(reports)
    assert not output.exists()
    assert main(["convert", str(tmp_path / name), "--to", target, "-o", str(output),
                 "--skip-unconvertible"]) == 0
    assert err.replace("error: ", "warning: ").split("\n")[:len(reports)] == \
        capsys.readouterr().err.split("\n")[:len(reports)]
    assert output.exists()


# -- every converter's output passes `m2lsp check` ------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from m2lsp.diagnostic import Severity  # noqa: E402
from m2lsp.linting.run import lint  # noqa: E402
from m2lsp.model import Format  # noqa: E402
from m2lsp.parsing.source import SourceText  # noqa: E402
from tests.strategies import good_documents  # noqa: E402


@st.composite
def char_sentences(draw: st.DrawFn) -> list[conversion.CharSentence]:
    """CGED sentences as data has them: errors in any order, repeated, overlapping, past the
    sentence's end, with and without answers."""
    out = []
    for number in range(draw(st.integers(0, 4))):
        text = draw(st.text(alphabet="我你他的了是在有", min_size=1, max_size=12))
        errors = []
        for _ in range(draw(st.integers(0, 5))):
            start = draw(st.integers(1, len(text) + 2))
            end = draw(st.integers(start, start + 3))
            kind = draw(st.sampled_from("RMSW"))
            answer = draw(st.sampled_from([None, None, "好", "不是", ""]))
            errors.append(conversion.CharError(start, end, kind, answer or None))
        correction = draw(st.sampled_from([None, text + "了"]))
        out.append(conversion.CharSentence(f"s{number}", text, tuple(errors), correction))
    return out


def _findings(text: str, fmt: Format, least: Severity = Severity.HINT) -> list[str]:
    """`m2lsp check`'s findings on `text`, those at least as severe as `least`."""
    return [f"{d.code} {d.message}" for d in lint(SourceText(text), fmt).diagnostics
            if d.severity <= least]


@settings(max_examples=150, deadline=None)
@given(char_sentences(), st.booleans())
def test_cged_to_m2_output_passes_check(sentences, detection_only) -> None:
    """What cannot be carried is reported, never written as a doubtful edit: the M2 has no
    finding at all, and every error is either an edit or a report."""
    problems: list[Unconverted] = []
    m2 = conversion.to_m2(sentences, detection_only, problems)
    assert _findings(m2, Format.M2) == []
    written = sum(line.startswith("A ") and "noop" not in line for line in m2.split("\n"))
    assert written + len(problems) == sum(len(s.errors) for s in sentences)


@settings(max_examples=150, deadline=None)
@given(char_sentences())
def test_m2_to_cged_and_truth_output_passes_check(sentences) -> None:
    """Valid char-level M2 (as the converter writes it) to CGED SGML and to a truth file: no
    error (what M2 allows and CGED's rules doubt, a one-character W, stays a warning)."""
    m2 = conversion.to_m2(sentences, True, [])
    back = conversion.from_m2(parse_m2(m2))
    if back:
        assert _findings(writer.to_cged(back), Format.CGED, Severity.ERROR) == []
        assert _findings(writer.to_truth(back), Format.TRUTH, Severity.ERROR) == []


@settings(max_examples=200, deadline=None)
@given(good_documents())
def test_parallel_has_one_column_per_annotator_on_every_line(text) -> None:
    document = parse_m2(text)
    width = 1 + len(annotators(document))
    rows = to_parallel(document, header=True).split("\n")[:-1]
    assert rows[0].split("\t")[0] == "source"
    assert all(len(row.split("\t")) == width for row in rows), rows


@pytest.mark.skipif(not (SHARED_DATA / "conll2014").is_dir(), reason="needs conll2014")
def test_conll_parallel_has_both_annotators_on_every_line(tmp_path, capsys) -> None:
    """The repro: 224 of 1,312 rows had 2 columns (no line of annotator 1) and 1,088 had 3."""
    gold = SHARED_DATA / "conll2014" / "gold" / "official-2014.combined.m2"
    assert main(["convert", str(gold), "--to", "parallel"]) == 0
    captured = capsys.readouterr()
    rows = captured.out.split("\n")[:-1]
    assert len(rows) == 1312 and {len(r.split("\t")) for r in rows} == {3}
    assert "columns: source, annotator 0, annotator 1" in captured.err
    assert main(["convert", str(gold), "--to", "parallel", "--header"]) == 0
    assert capsys.readouterr().out.split("\n")[0] == "source\tannotator 0\tannotator 1"


def test_a_truth_file_written_passes_its_own_check(tmp_path) -> None:
    """A comma inserted: the truth file keeps the error without the correction, and
    `check` finds nothing in it (it once wrote `1, 3, 3, M, ,`, which T003 then flagged)."""
    (tmp_path / "c.m2").write_text("S 我 们 好\nA 2 2|||M|||,|||REQUIRED|||-NONE-|||0\n",
                                   encoding="utf-8")
    out = tmp_path / "c.truth"
    assert main(["convert", str(tmp_path / "c.m2"), "--to", "truth", "-o", str(out),
                 "--skip-unconvertible"]) == 0
    assert out.read_text(encoding="utf-8") == "1, 3, 3, M\n"
    assert main(["check", "--format", "cged-truth", str(out)]) == 0


# -- no converter writes a wrong file with exit 0 ----------------------------------------

@pytest.mark.parametrize("target", ["cged", "truth"])
@pytest.mark.parametrize(("text", "says"), [
    ("S So I think we cannot go .\nA 1 2|||R:PRON|||we|||REQUIRED|||-NONE-|||0\n\n",
     "CGED positions are characters of Chinese text"),
    ("S 我们 喜欢 猫 。\nA 1 2|||S|||爱|||REQUIRED|||-NONE-|||0\n\n",
     "Chinese cut into words"),
])
def test_m2_that_is_no_char_level_chinese_is_refused(tmp_path, capsys, target, text, says):
    """English M2 became glued tokens with token numbers as character offsets; word-level
    Chinese, word numbers as character offsets; both with exit 0, and `check` passed them."""
    gold = tmp_path / "gold.m2"
    gold.write_text(text * 12, encoding="utf-8")  # enough text to tell its script and cut
    assert main(["convert", str(gold), "--to", target, "-o", str(tmp_path / "out")]) == 2
    assert says in capsys.readouterr().err and not (tmp_path / "out").exists()


def test_edits_that_are_no_span_of_their_sentence_are_refused(tmp_path, capsys):
    gold = tmp_path / "gold.m2"
    gold.write_text("S 我 喜 欢 猫 。\nA 0 9|||S|||你|||REQUIRED|||-NONE-|||0\n"
                    "A 3 2|||S|||狗|||REQUIRED|||-NONE-|||0\n"
                    "A 1 2|||S|||爱|||REQUIRED|||-NONE-|||0\n"
                    "A 1 2|||S|||爱|||REQUIRED|||-NONE-|||0\n\n" + "S 我 们 好 。\n\n" * 8,
                    encoding="utf-8")
    for target in ("cged", "truth"):
        assert main(["convert", str(gold), "--to", target, "-o", str(tmp_path / "out")]) == 1
        err = capsys.readouterr().err
        assert "(line 2): edit 0 9 lies outside the sentence of 5 characters" in err
        assert "(line 3): edit 3 2 ends before it starts" in err
        assert "(line 5): edit 1 2 repeats an earlier edit" in err
        assert not (tmp_path / "out").exists()
    assert main(["convert", str(gold), "--to", "truth", "--skip-unconvertible"]) == 0
    assert capsys.readouterr().out.startswith("1, 2, 2, S, 爱\n2, correct\n")


def test_a_ua_gec_text_longer_than_its_tokenised_sentences_is_refused(tmp_path, capsys):
    """The tokenised source had one sentence, the .ann two: one was written, the second
    and its edit dropped, with exit 0."""
    for folder in ("annotated", "source-sentences-tokenized", "target-sentences-tokenized"):
        (tmp_path / folder).mkdir()
    (tmp_path / "annotated" / "doc1.a1.ann").write_text(
        "Я {пишу=>писав:::error_type=G/Tense} листа .\nВін {йде=>пішов:::error_type="
        "G/Tense} додому .\n", encoding="utf-8")
    (tmp_path / "source-sentences-tokenized" / "doc1.src.txt").write_text(
        "Я пишу листа .\n", encoding="utf-8")
    (tmp_path / "target-sentences-tokenized" / "doc1.a1.txt").write_text(
        "Я писав листа .\nВін пішов додому .\n", encoding="utf-8")
    assert main(["convert", str(tmp_path / "annotated" / "doc1.a1.ann"), "--to", "m2"]) == 2
    err = capsys.readouterr().err
    assert "its tokenised file has 1 sentence(s), but the text has 2 non-empty line(s)" in err
