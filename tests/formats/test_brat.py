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
        "T1\tR:NOUN 4 8\tcats\n#1\tAnnotatorNotes T1\tcat\n"
        "T2\tM:DET 16 16\t\n#2\tAnnotatorNotes T2\tthe\nA1\tAnnotator T2 1\n"
        "T3\tR:SPELL 5 7\tat\n#3\tAnnotatorNotes T3\tot\n"  # inside a token
        "T4\tR:VERB 9 12\tsat\n"  # no correction
        "R1\tDepends Arg1:T1 Arg2:T2\n", encoding="utf-8")
    assert main(["convert", str(tmp_path / "doc.ann"), "--to", "m2"]) == 1
    err = capsys.readouterr().err
    assert "sentence T3: span 5-7 ('at') does not start and end at token boundaries" in err
    assert "sentence T4: no correction (an AnnotatorNotes note) for it" in err
    assert "1 relation, event or normalisation line(s) have no place in M2" in err
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
