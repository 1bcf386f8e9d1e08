"""brat standoff: M2 written as a brat document and read back gives the same bytes
(CoNLL-2014's 1,312 sentences, both annotators, noops), a brat .ann is recognised by its
lines and never taken for UA-GEC's, and what brat has that M2 cannot hold is said."""

from __future__ import annotations

from pathlib import Path

import pytest

from m2lsp.cli import main
from m2lsp.parsing.detect import detect_format
from tests.conftest import shared

GOLD = "conll2014/gold/official-2014.combined.m2"


def test_the_round_trip_is_identical_on_conll_2014(tmp_path: Path, capsys) -> None:
    gold = shared(GOLD)
    assert main(["convert", str(gold), "--to", "brat", "-o", str(tmp_path / "conll.ann")]) == 0
    text = (tmp_path / "conll.txt").read_text("utf-8").splitlines()
    assert len(text) == 1312 and text[0] == "Keeping the Secret of Genetic Testing"
    ann = (tmp_path / "conll.ann").read_text("utf-8")
    assert ann.startswith("T1\tArtOrDet 81 85\tmore\n#1\tAnnotatorNotes T1\t\n"
                          "A1\tAnnotator T1 0\n")
    assert detect_format(tmp_path / "conll.ann", ann) is None  # not UA-GEC's
    assert main(["convert", str(tmp_path / "conll.ann"), "--to", "m2", "-o",
                 str(tmp_path / "back.m2")]) == 0
    assert (tmp_path / "back.m2").read_bytes() == gold.read_bytes()
    conf = (tmp_path / "annotation.conf").read_text("utf-8")  # brat shows the types
    assert "[entities]\nArtOrDet\n" in conf and "\nAnnotator\tArg:<ENTITY>, Value:0|1\n" in conf
    assert "ArtOrDet | ArtOrDet" in (tmp_path / "visual.conf").read_text("utf-8")
    capsys.readouterr()


def test_check_says_it_does_not_lint_brat(tmp_path: Path, capsys) -> None:
    """It said 'No problems found' (taken for UA-GEC), with exit 0."""
    (tmp_path / "doc.ann").write_text("T1\tR:NOUN 4 7\tcat\n#1\tAnnotatorNotes T1\tdog\n",
                                      encoding="utf-8")
    assert main(["check", str(tmp_path / "doc.ann")]) == 2
    err = capsys.readouterr().err
    assert "brat standoff: m2lsp does not lint it" in err
    assert main(["convert", str(tmp_path / "doc.ann"), "--to", "m2"]) == 2
    assert f"reads its text from {tmp_path / 'doc.txt'}, which is not there" in \
        capsys.readouterr().err


def test_what_m2_cannot_hold_is_said(tmp_path: Path, capsys) -> None:
    (tmp_path / "doc.txt").write_text("The cats sat on mat .\n", encoding="utf-8")
    (tmp_path / "doc.ann").write_text(
        "T1\tR:NOUN 4 8\tcats\n#1\tAnnotatorNotes T1\tcat\nA2\tAnnotator T1 0\n"
        "T2\tM:DET 16 16\t\n#2\tAnnotatorNotes T2\tthe\nA1\tAnnotator T2 1\n"
        "T3\tR:SPELL 5 7\tat\n#3\tAnnotatorNotes T3\tot\n"  # inside a token
        "T4\tR:VERB 9 12\tsat\n"  # no correction
        "T5\tR:PREP 13 15\ton\n#5\tAnnotatorNotes T5\tat\n"  # no annotator
        "R1\tDepends Arg1:T1 Arg2:T2\n", encoding="utf-8")
    assert main(["convert", str(tmp_path / "doc.ann"), "--to", "m2"]) == 1
    err = capsys.readouterr().err
    assert "annotation T3: span 5-7 ('at') does not start and end at token boundaries" in err
    assert "annotation T4: no correction (an AnnotatorNotes note) for it" in err
    assert "annotation T5: no Annotator attribute" in err  # was silently annotator 0
    assert "annotation R1: 1 relation, event or normalisation line(s) have no place" in err
    assert "4 annotation(s) could not be fully converted" in err
    assert "sentence T" not in err
    assert main(["convert", str(tmp_path / "doc.ann"), "--to", "m2",
                 "--skip-unconvertible"]) == 0
    assert capsys.readouterr().out == (
        "S The cats sat on mat .\nA 1 2|||R:NOUN|||cat|||REQUIRED|||-NONE-|||0\n"
        "A 4 4|||M:DET|||the|||REQUIRED|||-NONE-|||1\n\n")


@pytest.mark.parametrize("line", ["A 1 2|||R NOUN|||x|||REQUIRED|||-NONE-|||0",
                                  "A 1 2|||R:NOUN|||x|||REQUIRED|||my note|||0"])
def test_m2_fields_brat_cannot_hold_are_refused(tmp_path: Path, capsys, line) -> None:
    (tmp_path / "g.m2").write_text(f"S The cat sat .\n{line}\n\n", encoding="utf-8")
    assert main(["convert", str(tmp_path / "g.m2"), "--to", "brat", "-o",
                 str(tmp_path / "out.ann")]) == 1
    assert "brat's labels and attribute values are one word" in capsys.readouterr().err
    assert not (tmp_path / "out.ann").exists()


TEXT = "The cats sat on mat .\n"


def _note(t: int, kind: str, start: int | str, end: int | str, correction: str,
          annotator: str = "0") -> str:
    return (f"T{t}\t{kind} {start} {end}\tx\n#{t}\tAnnotatorNotes T{t}\t{correction}\n"
            f"A{t}\tAnnotator T{t} {annotator}\n")


@pytest.mark.parametrize(("ann", "said"), [
    (_note(1, "R:NOUN", "9" * 5000, "9" * 5000, "cat"), "an offset of 5,000 digits"),
    (_note(1, "R:NOUN", 4, "1" + "0" * 4999, "cat"), "an offset of 5,000 digits"),
    (_note(1, "R:NOUN", 4, 8, "cat").replace("T1", "T" + "7" * 5000), "A 1 2|||R:NOUN"),
    ("".join(_note(t, "R:NOUN", 4, 8, "cat", str(t)) for t in range(1, 8))
     + "Tx\tR:VERB 9 12\tsat\n", "annotation Tx: no correction"),
])
def test_what_int_cannot_read_is_reported_not_a_traceback(tmp_path: Path, capsys, ann: str,
                                                          said: str) -> None:
    """A 5,000-digit offset was a ValueError traceback (int() stops at 4,300 digits), as
    was an annotation id that is no number."""
    (tmp_path / "doc.txt").write_text(TEXT, encoding="utf-8")
    (tmp_path / "doc.ann").write_text(ann, encoding="utf-8")
    assert main(["convert", str(tmp_path / "doc.ann"), "--to", "m2"]) in (0, 1)
    captured = capsys.readouterr()
    assert said in captured.err + captured.out and "Traceback" not in captured.err


def test_edits_are_written_in_offset_order_and_pass_check(tmp_path: Path, capsys) -> None:
    """Annotations numbered out of offset order gave M2 that `check` flagged (M304)."""
    (tmp_path / "doc.txt").write_text(TEXT, encoding="utf-8")
    (tmp_path / "doc.ann").write_text(
        _note(1, "M:DET", 16, 16, "the") + _note(2, "R:NOUN", 4, 8, "cat", "1")
        + _note(3, "R:NOUN", 4, 8, "cat") + _note(4, "R:VERB", 9, 12, "sits", "1"),
        encoding="utf-8")
    assert main(["convert", str(tmp_path / "doc.ann"), "--to", "m2", "-o",
                 str(tmp_path / "doc.m2")]) == 0
    assert (tmp_path / "doc.m2").read_text("utf-8") == (
        "S The cats sat on mat .\n"
        "A 1 2|||R:NOUN|||cat|||REQUIRED|||-NONE-|||0\n"
        "A 1 2|||R:NOUN|||cat|||REQUIRED|||-NONE-|||1\n"
        "A 4 4|||M:DET|||the|||REQUIRED|||-NONE-|||0\n"
        "A 2 3|||R:VERB|||sits|||REQUIRED|||-NONE-|||1\n\n")
    assert main(["check", str(tmp_path / "doc.m2")]) == 0, capsys.readouterr().out
