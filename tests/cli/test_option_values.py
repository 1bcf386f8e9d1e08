"""Numeric options and configuration files: a value no scorer can use is refused before any
work (exit 2, naming what is expected), never printed as `F_inf : nan` or ended in a
traceback; a broken or misspelt [tool.m2lsp] is an error naming the file and line, or the
key closest to the misspelt one."""

from __future__ import annotations

from pathlib import Path

import pytest

from m2lsp.cli import main
from m2lsp.cli.score import m2scorer_main

GOLD = "S The cat sat .\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n\n"

BAD_VALUES = [  # (command, flag, value)
    *((["score", "sys.txt", "gold.m2"], "--beta", v) for v in ("nan", "inf", "1e309", "-1")),
    (["score", "sys.txt", "gold.m2", "--metric", "cherrant"], "--beta", "nan"),
    (["agree", "gold.m2"], "--beta", "nan"), (["agree", "gold.m2"], "--beta", "-1"),
    (["agree", "gold.m2"], "--beta", "0"),
    (["report", "gold.m2", "sys.txt", "--format", "md"], "--beta", "nan"),
    (["score", "sys.txt", "gold.m2"], "--max-unchanged-words", "99999999999999999999"),
    (["score", "sys.txt", "gold.m2"], "--max-unchanged-words", "-1"),
    (["score", "sys.txt", "--metric", "gleu", "--ref", "ref.txt", "--source", "sys.txt",
      "--fix-seed"], "--digits", "30"),
    (["score", "sys.txt", "--metric", "gleu", "--ref", "ref.txt", "--source", "sys.txt"],
     "--iter", "0"),
    (["score", "sys.txt", "gold.m2"], "--bootstrap", "-5"),
    (["score", "sys.txt", "gold.m2"], "--time-limit", "nan"),
    (["score", "sys.txt", "gold.m2"], "--max-lattice-memory", "1e3"),
    (["score", "sys.txt", "gold.m2"], "--jobs", "0"),
    (["score", "sys.txt", "gold.m2"], "--seed", "-1"),
    (["compare", "sys.txt", "sys.txt", "gold.m2"], "--samples", "0"),
    (["compare", "sys.txt", "sys.txt", "gold.m2"], "--samples", "-3"),
    (["score", "sys.txt", "gold.m2"], "--max-lattice-memory", "-1"),
    (["report", "gold.m2", "sys.txt", "--format", "md"], "--samples", "1e9"),
    (["errant-compare", "-hyp", "gold.m2", "-ref", "gold.m2"], "-b", "nan"),
]


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    Path("gold.m2").write_text(GOLD, encoding="utf-8")
    Path("sys.txt").write_text("The dog sat .\n", encoding="utf-8")
    Path("ref.txt").write_text("The dog sat .\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("command", "flag", "value"), BAD_VALUES)
def test_a_value_out_of_range_is_refused(files: Path, capsys: pytest.CaptureFixture,
                                         command: list[str], flag: str, value: str) -> None:
    with pytest.raises(SystemExit) as stop:
        main([*command, flag, value])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {flag}" in err and "expected" in err and "Traceback" not in err


@pytest.mark.parametrize("option", [["--beta", "nan"], ["--beta=-1"],
                                    ["--max_unchanged_words", "99999999999999999999"]])
def test_m2scorer_refuses_them_too(files: Path, capsys: pytest.CaptureFixture,
                                   option: list[str]) -> None:
    assert m2scorer_main([*option, "sys.txt", "gold.m2"]) == 255
    assert "expected" in capsys.readouterr().err


def test_usable_values_still_score(files: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["score", "sys.txt", "gold.m2", "--beta", "2", "--max-unchanged-words",
                 "3", "--seed", "4294967295"]) == 0
    assert "F_2.0" in capsys.readouterr().out


# -- configuration ----------------------------------------------------------------------

BROKEN = [
    ("[tool.m2lsp\nmetric = \"errant\"\n", "pyproject.toml:1:12: not valid TOML"),
    ("[tool.m2lsp]\nmetric = \"errant\"\nmetric = \"m2\"\n", "pyproject.toml:3:"),
    ("[tool.m2lsp]\nbeta = nan\n", "option 'beta' = nan is invalid"),
    ("[tool.m2lsp]\nmetrik = \"errant\"\n", "unknown m2lsp option 'metrik' (did you mean "
                                            "'metric'?)"),
    ("[tool.m2lsp]\nselec = [\"M1\"]\n", "(did you mean 'select'?)"),
]


@pytest.mark.parametrize(("toml", "said"), BROKEN)
@pytest.mark.parametrize("command", [["check", "gold.m2"], ["score", "sys.txt", "gold.m2"]])
def test_a_broken_configuration_is_an_error(files: Path, capsys: pytest.CaptureFixture,
                                            toml: str, said: str, command: list[str]) -> None:
    Path("pyproject.toml").write_text(toml, encoding="utf-8")
    assert main(command) == 2
    assert said in capsys.readouterr().err


def test_another_tools_broken_file_is_not_ours(files: Path) -> None:
    Path("pyproject.toml").write_text("[tool.black\nline-length = 1\n", encoding="utf-8")
    assert main(["check", "gold.m2"]) == 0


def test_bootstrap_zero_is_refused_not_ignored(files: Path, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["score", "sys.txt", "gold.m2", "--bootstrap", "0"])
    assert stop.value.code == 2 and "argument --bootstrap" in capsys.readouterr().err


def test_the_order_named_is_the_commands_own(files: Path, capsys) -> None:
    assert main(["compare", "gold.m2", "sys.txt", "sys.txt"]) == 2
    assert "the order is `m2lsp compare SYSTEM_A SYSTEM_B GOLD`" in capsys.readouterr().err
    assert main(["score", "--metric", "errant", "gold.m2", "sys.txt"]) == 2
    assert "`m2lsp score --metric errant SYSTEM GOLD`" in capsys.readouterr().err


def test_annotate_refuses_an_empty_source(files: Path, capsys) -> None:
    Path("empty.txt").write_text("", encoding="utf-8")
    assert main(["annotate", "--orig", "empty.txt", "--cor", "empty.txt"]) == 2
    assert "has no sentence: there is nothing to annotate" in capsys.readouterr().err


def test_the_references_hash_ignores_line_ends(files: Path, capsys) -> None:
    Path("crlf.txt").write_bytes(b"The dog sat .\r\n")
    hashes = []
    for ref in ("ref.txt", "crlf.txt"):
        assert main(["score", "--metric", "gleu", "--format", "json", "sys.txt", "--ref", ref,
                     "--source", "sys.txt"]) == 0
        hashes.append(capsys.readouterr().out.split("refs-hash:")[1][:12])
    assert hashes[0] == hashes[1]
