"""What NUS M2 scorer 3.2 accepts, m2lsp accepts, and prints as 3.2 prints it: gold lines with
more than six fields, `--beta 0`, and with `--python2` the bytes of `-v` as release 3.2 prints
them under Python 2.7.  Where a Python 2.7 and the release are on the machine, each case is
run beside it (tests/scoring/nus32.py says how they are found)."""

from __future__ import annotations

from pathlib import Path

import pytest

from m2lsp.cli import main
from m2lsp.cli.score import m2scorer_main
from tests.conftest import shared
from tests.scoring.nus32 import run_nus32

EXTRA = "A 3 4|||Prep|||in|||REQUIRED|||-NONE-|||0|||extra\n"
TRAILING = "A 3 4|||Prep|||in|||REQUIRED|||-NONE-|||0|||\n"
MINIMAL = "P 0.5000, R 1.0000, F 0.5556"


def _gold(tmp_path: Path, edit: str) -> tuple[Path, Path]:
    gold = tmp_path / "gold.m2"
    gold.write_text(f"S The cat sat on mat .\n{edit}\n", encoding="utf-8")
    system = tmp_path / "sys.txt"
    system.write_text("The dog sat in mat .\n", encoding="utf-8")
    return system, gold


def _summary(out: str) -> str:
    p, r, f = (line.split(":")[1].strip() for line in out.splitlines()[-3:])
    return f"P {p}, R {r}, F {f}"


@pytest.mark.parametrize("edit", [EXTRA, TRAILING], ids=["extra-field", "trailing-bars"])
def test_more_than_six_fields_are_scored_as_3_2_scores_them(tmp_path, capsys, edit) -> None:
    system, gold = _gold(tmp_path, edit)
    assert main(["score", str(system), str(gold)]) == 0
    out = capsys.readouterr().out
    assert _summary(out) == MINIMAL
    assert m2scorer_main([str(system), str(gold)]) == 0
    assert capsys.readouterr().out == out


@pytest.mark.parametrize("edit", [EXTRA, TRAILING], ids=["extra-field", "trailing-bars"])
def test_check_warns_of_the_fields_past_the_sixth(tmp_path, capsys, edit) -> None:
    _, gold = _gold(tmp_path, edit)
    assert main(["check", str(gold)]) == 1
    out = capsys.readouterr().out
    assert "M012" in out and "M003" not in out
    assert main(["check", str(gold), "--ignore", "M012"]) == 0


def test_fewer_than_six_fields_are_still_refused(tmp_path, capsys) -> None:
    system, gold = _gold(tmp_path, "A 3 4|||Prep|||in|||REQUIRED|||-NONE-\n")
    assert main(["score", str(system), str(gold)]) == 2
    assert "M001" in capsys.readouterr().err


@pytest.mark.parametrize("edit", [EXTRA, TRAILING], ids=["extra-field", "trailing-bars"])
def test_more_than_six_fields_beside_3_2(tmp_path, capsys, edit) -> None:
    system, gold = _gold(tmp_path, edit)
    reference = run_nus32("-v", system, gold)
    assert reference.returncode == 0, reference.stderr
    assert _summary(reference.stdout.decode()) == MINIMAL
    assert main(["score", "-v", "--python2", str(system), str(gold)]) == 0
    assert capsys.readouterr().out.encode() == reference.stdout


@pytest.mark.parametrize("command", [["score"], ["m2scorer"]])
def test_beta_0_is_precision(tmp_path, capsys, command) -> None:
    system, gold = _gold(tmp_path, "A 3 4|||Prep|||in|||REQUIRED|||-NONE-|||0\n")
    args = ["--beta", "0", str(system), str(gold)]
    code = main(["score", *args]) if command == ["score"] else m2scorer_main(args)
    assert code == 0
    assert capsys.readouterr().out == ("Precision   : 0.5000\nRecall      : 1.0000\n"
                                       "F_0.0       : 0.5000\n")


@pytest.mark.parametrize("metric", ["errant", "cherrant"])
def test_beta_0_is_refused_where_the_metric_divides_by_it(tmp_path, capsys, metric) -> None:
    system, gold = _gold(tmp_path, "A 3 4|||Prep|||in|||REQUIRED|||-NONE-|||0\n")
    assert main(["score", "--metric", metric, "--beta", "0", str(system), str(gold)]) == 2
    assert "--beta 0" in capsys.readouterr().err


def test_beta_0_beside_3_2(tmp_path, capsys) -> None:
    system, gold = _gold(tmp_path, "A 3 4|||Prep|||in|||REQUIRED|||-NONE-|||0\n")
    reference = run_nus32("-v", "--beta", "0", system, gold)
    assert reference.returncode == 0, reference.stderr
    assert main(["score", "-v", "--python2", "--beta", "0", str(system), str(gold)]) == 0
    assert capsys.readouterr().out.encode() == reference.stdout


# what release 3.2 prints under Python 2.7 (checked beside it below where it is there):
# u'' for text read from the files, '' for the empty strings the code writes itself
# (`-NONE-`, an insertion's original, an empty join), non-ASCII escaped, floats to 12 digits
PY2_GOLD = ("S The cat sat on mat .\nA 3 4|||Prep|||in|||REQUIRED|||-NONE-|||0\n"
            "A 5 5|||Pun|||!|||REQUIRED|||-NONE-|||0\n\n"
            "S Il a \u00e9t\u00e9 l\u00e0 .\nA 1 2|||Verb||||||REQUIRED|||-NONE-|||0\n"
            "A 3 3|||Det|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
            "S a b c\nA 0 1|||X|||-NONE-|||REQUIRED|||-NONE-|||0\n"
            "A 0 1|||X|||z|||REQUIRED|||-NONE-|||1\n\n")
PY2_SYSTEM = "The dog sat in the mat !\nIl \u00e9t\u00e9 l\u00e0-bas .\nb c\n"


def _py2_case(tmp_path: Path) -> tuple[Path, Path]:
    gold, system = tmp_path / "gold.m2", tmp_path / "sys.txt"
    gold.write_text(PY2_GOLD, encoding="utf-8")
    system.write_text(PY2_SYSTEM, encoding="utf-8")
    return system, gold


def test_python2_prints_3_2_s_reprs_and_floats(tmp_path, capsys) -> None:
    system, gold = _py2_case(tmp_path)
    assert main(["score", "-v", "--python2", str(system), str(gold)]) == 0
    out = capsys.readouterr().out
    assert "GOLD EDITS    : [(1, 2, u'a', [u'']), (3, 3, '', [''])]" in out
    assert "SOURCE        : Il a \u00e9t\u00e9 l\u00e0 .\n" in out
    assert "EDIT SEQ      : [(1, 2, u'a', ''), (3, 4, u'l\\xe0', u'l\\xe0-bas')]" in out
    assert "* (5, 5, '', u'!')\n" in out
    assert "precision     : 0.428571428571\n" in out
    assert "GOLD EDITS    : [(0, 1, u'a', [''])]" in out
    assert m2scorer_main(["-v", "--python2", str(system), str(gold)]) == 0
    assert capsys.readouterr().out == out
    assert main(["score", "-v", str(system), str(gold)]) == 0
    assert "precision     : 0.42857142857142855\n" in capsys.readouterr().out


def test_python2_beside_3_2(tmp_path, capsys) -> None:
    system, gold = _py2_case(tmp_path)
    reference = run_nus32("-v", system, gold)
    assert reference.returncode == 0, reference.stderr
    assert main(["score", "-v", "--python2", str(system), str(gold)]) == 0
    assert capsys.readouterr().out.encode() == reference.stdout


@pytest.mark.slow
@pytest.mark.parametrize("system", ["CAMB", "UFC"])
def test_python2_beside_3_2_on_conll2014(system, capsys) -> None:
    args = [shared(f"conll2014/systems/{system}"),
            shared("conll2014/gold/official-2014.combined.m2")]
    reference = run_nus32("-v", *args)
    assert reference.returncode == 0, reference.stderr
    assert m2scorer_main(["-v", "--python2", *map(str, args)]) == 0
    assert capsys.readouterr().out.encode() == reference.stdout


def test_python2_needs_verbose(tmp_path, capsys) -> None:
    system, gold = _py2_case(tmp_path)
    assert main(["score", "--python2", str(system), str(gold)]) == 2
    assert "--python2" in capsys.readouterr().err


def test_very_verbose_in_the_drop_in_says_what_it_prints(tmp_path, capsys) -> None:
    system, gold = _py2_case(tmp_path)
    assert m2scorer_main(["-v", str(system), str(gold)]) == 0
    verbose = capsys.readouterr().out
    assert m2scorer_main(["--very_verbose", str(system), str(gold)]) == 0
    out, err = capsys.readouterr()
    assert out == verbose
    assert "--very_verbose" in err and "not reproduced" in err
