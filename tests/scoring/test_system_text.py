"""The system file is not trusted blindly: the common scoring mistakes (swapped arguments, an
M2 file as the system, empty inputs, a byte-order mark, a detokenised or lowercased output)
are said before or beside the number, and the real CoNLL-2014 outputs raise no false alarm."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from m2lsp.cli import main
from m2lsp.scoring.system_text import looks_like_m2
from tests.conftest import SHARED_DATA

CONLL = SHARED_DATA / "conll2014"
GOLD = CONLL / "gold" / "official-2014.combined.m2"
SYSTEMS = CONLL / "systems"
needs_conll = pytest.mark.skipif(not GOLD.is_file(), reason="needs ../shared/data/conll2014")

SMALL_GOLD = ("S This is a test .\nA 3 4|||R:NOUN|||exam|||REQUIRED|||-NONE-|||0\n\n"
              "S A cat sat .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n")


@pytest.mark.parametrize(("text", "m2"), [
    (SMALL_GOLD, True),
    ("S a b .\nT0-A0 a b .\nA 0 1|||S|||c|||REQUIRED|||-NONE-|||0\n", True),
    ("This is a test .\nA cat sat .\n", False),
    ("S o S\nA line that starts like an edit\nand then prose\nmore prose\n", False),
    ("", False),
])
def test_looks_like_m2(text, m2) -> None:
    assert looks_like_m2(text) is m2


@pytest.fixture
def small(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    Path("gold.m2").write_text(SMALL_GOLD)
    Path("sys.txt").write_text("This is a exam .\nA cat sat .\n")
    Path("empty").write_text("")
    return tmp_path


# (argv, what stderr says) with exit 2
WRONG_INPUTS = [
    (["score", "gold.m2", "sys.txt"], "the arguments are swapped"),
    (["score", "gold.m2", "gold.m2"], "system file gold.m2 is an M2 file, but --metric m2"),
    (["score", "sys.txt", "sys.txt"], "gold file sys.txt is not an M2 file"),
    (["score", "empty", "empty"], "gold file empty has no sentence: there is nothing to score"),
    (["score", "empty", "gold.m2"], "system file empty is empty"),
    (["score", "--metric", "cgec", "gold.m2", "sys.txt"], "the arguments are swapped"),
    (["score", "--metric", "cgec", "empty", "empty"], "has no sentence"),
    (["score", "--metric", "errant", "sys.txt", "sys.txt"], "the reference sys.txt is not M2"),
    (["score", "--metric", "errant", "gold.m2", "sys.txt"], "the arguments are swapped"),
    (["score", "--metric", "errant", "empty", "empty"], "has no sentence"),
    (["compare", "gold.m2", "gold.m2", "sys.txt"], "the arguments are swapped"),
]


@pytest.mark.parametrize(("argv", "said"), WRONG_INPUTS)
def test_wrong_inputs_say_what_probably_happened(small, capsys, argv, said) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert said in captured.err
    assert captured.out == ""


@needs_conll
def test_a_byte_order_mark_in_the_system_is_a_warning_naming_the_line(tmp_path, capsys):
    """The score stays the NUS scorer's (which keeps the BOM in the first token)."""
    system = tmp_path / "CAMB"
    system.write_bytes(b"\xef\xbb\xbf" + (SYSTEMS / "CAMB").read_bytes())
    assert main(["score", str(system), str(GOLD)]) == 0
    captured = capsys.readouterr()
    assert "F_0.5       : 0.3731" in captured.out
    assert f"warning: {system}:1: U+FEFF BYTE ORDER MARK inside a token" in captured.err


@needs_conll
@pytest.mark.parametrize(("change", "said"), [
    (lambda line: re.sub(r" ([.,;:!?)])", r"\1", line), "looks detokenised: in 1297 of the 1301"),
    (str.lower, "looks lowercased: 1310 of the 1310"),
])
def test_detokenised_or_lowercased_output_gets_one_warning(tmp_path, capsys, change, said):
    system = tmp_path / "CAMB"
    lines = (SYSTEMS / "CAMB").read_text(encoding="utf-8").split("\n")
    system.write_text("\n".join(change(line) for line in lines), encoding="utf-8")
    assert main(["score", str(system), str(GOLD)]) == 0
    err = capsys.readouterr().err
    assert said in err
    assert err.count("warning:") == 1


@needs_conll
def test_the_real_outputs_raise_no_warning(capsys) -> None:
    """But NTHU's six lines that are other sentences (see below)."""
    for system in sorted(p for p in SYSTEMS.iterdir() if p.name.isupper()):
        assert main(["score", str(system), str(GOLD)]) == 0
        warnings = [w for w in capsys.readouterr().err.splitlines() if "warning" in w]
        expected = 1 if system.name == "NTHU" else 0
        assert len(warnings) == expected, system.name


@pytest.mark.parametrize(("name", "lines"), [
    ("NTHU", [38, 40, 41, 43, 165, 167]), ("AMU", []), ("CAMB", []), ("CUUI", []),
    ("IITB", []), ("INPUT", []), ("POST", []), ("UFC", [])])
def test_lines_that_are_other_sentences_are_named(name: str, lines: list[int]) -> None:
    """NTHU's CoNLL-2014 output has six lines that are other sentences; nothing said so."""
    from m2lsp.scoring.system_text import unlike_their_sources
    from tests.conftest import shared

    gold = shared("conll2014/gold/official-2014.combined.m2").read_text(encoding="utf-8")
    sources = [line[2:] for line in gold.split("\n") if line.startswith("S ")]
    system = shared(f"conll2014/systems/{name}").read_text(encoding="utf-8").splitlines()
    assert unlike_their_sources(system, sources) == lines


def test_the_misaligned_lines_are_warned_about(tmp_path, capsys) -> None:
    (tmp_path / "gold.m2").write_text(
        "S The cat sat on the mat .\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n\n"
        "S It was a very happy day .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n",
        encoding="utf-8")
    (tmp_path / "sys.txt").write_text("The dog sat on the mat .\nWhere are you going now ?\n",
                                      encoding="utf-8")
    assert main(["score", str(tmp_path / "sys.txt"), str(tmp_path / "gold.m2")]) == 0
    assert "1 line(s) share almost nothing with their source sentence (line 2)" in (
        capsys.readouterr().err)
