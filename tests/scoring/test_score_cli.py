"""The scoring command lines: flags, clear errors, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from m2lsp.cli import main
from m2lsp.cli.score import m2scorer_main

GOLD = "S a b .\nA 1 2|||X|||c|||REQUIRED|||-NONE-|||0\n\nS d e .\n"


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    Path("gold.m2").write_text(GOLD, encoding="utf-8")
    Path("sys.txt").write_text("a c .\nd e .\n", encoding="utf-8")
    Path("short.txt").write_text("a c .\n", encoding="utf-8")
    Path("gb.txt").write_bytes("a 中 .\nd e .\n".encode("gb18030"))
    return tmp_path


def test_m2scorer_flags_as_the_nus_scorer_spells_them(files, capsys) -> None:
    assert m2scorer_main(["--beta", "1.0", "--max_unchanged_words", "3",
                          "--ignore_whitespace_casing", "sys.txt", "gold.m2"]) == 0
    assert capsys.readouterr().out == ("Precision   : 1.0000\nRecall      : 1.0000\n"
                                       "F_1.0       : 1.0000\n")


@pytest.mark.parametrize("argv", [["sys.txt"], ["--nope", "sys.txt", "gold.m2"],
                                  ["--beta", "x", "sys.txt", "gold.m2"]])
def test_m2scorer_usage_errors_exit_like_the_nus_scorer(files, capsys, argv) -> None:
    assert m2scorer_main(argv) == 255  # sys.exit(-1)
    assert "Usage: m2scorer.py" in capsys.readouterr().err


def test_different_sentence_counts_say_both_counts(files, capsys) -> None:
    assert main(["score", "short.txt", "gold.m2"]) == 2
    err = capsys.readouterr().err
    assert "has 1 sentences but gold file gold.m2 has 2" in err
    assert "line 2" in err


def test_unreadable_and_undecodable_files(files, capsys) -> None:
    assert main(["score", "missing.txt", "gold.m2"]) == 2
    assert "cannot read system file missing.txt" in capsys.readouterr().err
    assert main(["score", "gb.txt", "gold.m2"]) == 2
    assert "not valid UTF-8 at byte 2" in capsys.readouterr().err
    assert main(["score", "gb.txt", "gold.m2", "--encoding", "gb18030"]) == 0


def test_gold_files_the_nus_scorer_would_misread_are_refused(files, capsys) -> None:
    Path("crlf.m2").write_bytes(GOLD.replace("\n", "\r\n").encode())
    assert main(["score", "sys.txt", "crlf.m2"]) == 2
    assert "crlf.m2:3:" in capsys.readouterr().err
    Path("orphan.m2").write_text("A 1 2|||X|||c|||REQUIRED|||-NONE-|||0\n\nS a b .\n")
    assert main(["score", "short.txt", "orphan.m2"]) == 2
    assert "M002" in capsys.readouterr().err


SCORE, COMPARE = ["score", "sys.txt", "gold.m2"], ["compare", "sys.txt", "sys.txt", "gold.m2"]


def test_a_sentence_over_the_memory_bound_is_named(files, capsys) -> None:
    Path("long.txt").write_text("x " * 3000 + "\nd e .\n", encoding="utf-8")
    assert main(["score", "--max-lattice-memory", "1", "long.txt", "gold.m2"]) == 2
    err = capsys.readouterr().err
    assert "sentence 1 (gold line 1) cannot be scored exactly within 1 MiB" in err
    assert m2scorer_main(["--max_lattice_memory", "1", "long.txt", "gold.m2"]) == 2
    assert "--max_lattice_memory MIB raises the bound" in capsys.readouterr().err


def test_gold_edits_that_change_the_score_are_said(tmp_path: Path, capsys) -> None:
    """The bundled example: an edit past its sentence (dropped by the scorer) and a repeated
    edit (counted twice); a backwards edit added.  Warned with counts and lines, in the
    JSON too; the drop-in m2scorer stays as quiet as the NUS scorer."""
    from tests.conftest import ROOT

    gold = (ROOT / "examples" / "annotated.m2").read_text(encoding="utf-8")
    gold += "\nS a b c\nA 2 1|||R:OTHER|||x|||REQUIRED|||-NONE-|||0\n"
    (tmp_path / "gold.m2").write_text(gold, encoding="utf-8")
    sources = [line[2:] for line in gold.splitlines() if line.startswith("S ")]
    (tmp_path / "sys.txt").write_text("\n".join(sources) + "\n", encoding="utf-8")
    system, gold_path = str(tmp_path / "sys.txt"), str(tmp_path / "gold.m2")
    assert main(["score", system, gold_path]) == 0
    err = capsys.readouterr().err
    assert "1 gold edit(s) lie outside their sentence" in err and "(line 19)" in err
    assert "1 gold edit(s) repeat an earlier edit" in err and "(line 10)" in err
    assert "1 gold edit(s) start after they end" in err and "(line 24)" in err
    assert f"`m2lsp check {gold_path}` lists every problem" in err
    assert main(["score", "--format", "json", system, gold_path]) == 0
    found = json.loads(capsys.readouterr().out)["gold_warnings"]
    assert [(w["kind"], w["count"], w["lines"]) for w in found] == [
        ("dropped", 1, [19]), ("backwards", 1, [24]), ("repeated", 1, [10])]
    assert m2scorer_main([system, gold_path]) == 0
    assert capsys.readouterr().err == ""


def test_noops_and_clean_gold_give_no_warning(files, capsys) -> None:
    Path("noop.m2").write_text("S a b .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n"
                               "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n",
                               encoding="utf-8")
    Path("one.txt").write_text("a b .\n", encoding="utf-8")
    assert main(["score", "one.txt", "noop.m2"]) == 0
    assert main(["score", "sys.txt", "gold.m2"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all(x.startswith("m2lsp: signature: M2|") for x in err)


@pytest.mark.parametrize("metric", ["m2", "gleu", "cgec"])
def test_every_text_output_has_its_signature(files, capsys, metric) -> None:
    """In the output where it is m2lsp's own, beside it on stderr where stdout is the
    reference tool's output byte for byte."""
    assert main(["score", "--metric", metric, "sys.txt", "gold.m2"]) == 0
    captured = capsys.readouterr()
    prefix = {"m2": "M2|beta:0.5|", "gleu": "GLEU|refs:1|", "cgec": "CGEC|"}[metric]
    if metric == "cgec":
        assert prefix in captured.out and "signature" not in captured.err
    else:
        assert prefix not in captured.out
        assert f"m2lsp: signature: {prefix}" in captured.err
    assert "|m2lsp:" in captured.out + captured.err


def test_errant_signature_and_an_empty_file_is_called_empty(files, capsys) -> None:
    Path("hyp.m2").write_text(GOLD, encoding="utf-8")
    assert main(["score", "--metric", "errant", "hyp.m2", "gold.m2"]) == 0
    assert "m2lsp: signature: ERRANT|" in capsys.readouterr().err
    Path("empty.m2").write_text("", encoding="utf-8")
    assert main(["errant-compare", "-hyp", "empty.m2", "-ref", "gold.m2"]) == 2
    err = capsys.readouterr().err
    assert "hypothesis file empty.m2 is empty but reference file gold.m2 has 2 sentences" in err
    assert "1 sentences" not in err


def test_cged_2018_says_what_crlf_in_the_truth_does_to_corrections(files, capsys) -> None:
    """evaluation.pl keeps the CR in a truth answer and splits it off a result's: a CRLF
    truth matches no correction, even its own copy; a CRLF result is read right."""
    truth = "s1, 2, 3, S, 好\ns2, correct\n"
    Path("truth.txt").write_text(truth, encoding="utf-8")
    Path("crlf.txt").write_bytes(truth.replace("\n", "\r\n").encode())
    for result in ("truth.txt", "crlf.txt"):
        assert main(["score", "--metric", "cged", "--cged-report", "2018", result,
                     "crlf.txt"]) == 0
        captured = capsys.readouterr()
        assert "Correction Level\nPre = 0" in captured.out
        assert "crlf.txt:1: CRLF line ends: evaluation.pl keeps the CR in each correction " \
               "of the truth (1 line(s))" in captured.err
    assert main(["score", "--metric", "cged", "--cged-report", "2018", "crlf.txt",
                 "truth.txt"]) == 0
    captured = capsys.readouterr()
    assert "Correction Level\nPre = 1" in captured.out and "CRLF" not in captured.err
