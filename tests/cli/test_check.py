"""`m2lsp check` from the outside: exit codes, output formats, --fix, real data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from m2lsp.cli import main
from tests.conftest import SHARED_DATA, assert_snapshot, shared

SNAPSHOTS = Path(__file__).parent / "snapshots"
BAD = ("S The cat sat .\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0 \n"
       "A 5 6|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n")
GOOD = "S The cat sat .\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n"


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    Path("bad.m2").write_text(BAD, encoding="utf-8")
    Path("good.m2").write_text(GOOD, encoding="utf-8")
    Path("notes.md").write_text("# not checked\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("args", "code"), [
    (["good.m2"], 0), (["bad.m2"], 1), (["."], 1), (["bad.m2", "--exit-zero"], 0),
    (["missing.m2"], 2), (["bad.m2", "--select", "M1"], 1), (["bad.m2", "--select", "M3"], 0),
    (["bad.m2", "--ignore", "M102,X004"], 0), (["good.m2", "--encoding", "no-such"], 2),
    (["notes.md"], 2), (["notes.md", "--format", "m2"], 1),
])
def test_exit_codes(files: Path, args: list[str], code: int) -> None:
    assert main(["check", *args]) == code


def loop(name: str) -> str:
    Path(name).symlink_to(name + ".other")
    Path(name + ".other").symlink_to(name)
    return name


# Every path named on the command line is checked or reported: never a silent pass.
@pytest.mark.parametrize(("setup", "args", "error"), [
    (None, ["missing.m2"], "missing.m2: no such file or folder"),
    (loop, ["loop.m2"], "loop.m2: Too many levels of symbolic links"),
    (None, ["notes.md"], "notes.md: not recognised as M2, CGED SGML, a CGED truth file or"),
    (None, ["good.m2", "--select", "ZZZ"], "--select: no rule has the code or prefix ZZZ"),
    (None, ["good.m2", "--ignore", "M1,Q9"], "--ignore: no rule has the code or prefix Q9"),
    (None, ["good.m2", "--cged-input", "/nonexistent"],
     "--cged-input /nonexistent: no such file or folder"),
])
def test_what_cannot_be_checked_is_an_error_not_a_pass(files: Path, capsys, setup, args,
                                                       error: str) -> None:
    if setup is not None:
        setup(args[0])
    assert main(["check", *args]) == 2
    captured = capsys.readouterr()
    assert error in captured.err
    assert "passed" not in captured.out + captured.err
    assert "No problems found" not in captured.out


def test_a_clean_run_says_how_many_files_it_covered(files: Path, capsys) -> None:
    assert main(["check", "good.m2"]) == 0
    assert capsys.readouterr().out == "No problems found in 1 file.\n"
    Path("empty").mkdir()
    Path("empty/notes.txt").write_text("not gold data\n")
    assert main(["check", "empty"]) == 2  # a CI step pointed at the wrong folder fails
    captured = capsys.readouterr()
    assert captured.out == "No file was checked; 1 skipped (not M2 or CGED).\n"
    assert "empty: no M2 or CGED file found in this folder" in captured.err
    assert "error: no file was checked (1 skipped: not M2 or CGED); --allow-empty" in \
        captured.err
    assert main(["check", "empty", "--allow-empty"]) == 0
    assert capsys.readouterr().out == "No file was checked; 1 skipped (not M2 or CGED).\n"
    assert main(["check", "good.m2", "missing.m2"]) == 2
    assert capsys.readouterr().out == ("No problems found in 1 file; 1 could not be checked "
                                       "(see the errors above).\n")


@pytest.mark.parametrize("output", ["text", "json", "github", "sarif"])
def test_output_formats(files: Path, capsys: pytest.CaptureFixture, output: str) -> None:
    assert main(["check", "bad.m2", "--output-format", output]) == 1
    out = capsys.readouterr().out
    if output == "sarif":  # the rule table is the docs: snapshot the results only
        run = json.loads(out)["runs"][0]
        assert [r["id"] for r in run["tool"]["driver"]["rules"]][:2] == ["C001", "C002"]
        out = json.dumps(run["results"], indent=2, ensure_ascii=False) + "\n"
    elif output == "json":
        json.loads(out)
    assert_snapshot(SNAPSHOTS / f"bad.{output}", out)


def test_fix_writes_safe_fixes_only(files: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["check", "bad.m2", "--fix"]) == 1  # the offset error remains
    assert Path("bad.m2").read_text(encoding="utf-8") == BAD.replace("|||0 \n", "|||0\n")
    assert "fixed 1 problem" in capsys.readouterr().err
    assert main(["check", "bad.m2", "--fix"]) == 1
    assert Path("bad.m2").read_text(encoding="utf-8") == BAD.replace("|||0 \n", "|||0\n")


def test_fix_keeps_bom_unless_fixing_it_and_keeps_crlf(files: Path) -> None:
    Path("t.txt").write_bytes(b"A1,3,4,M\r\nA2, correct\r\n")
    assert main(["check", "t.txt", "--fix", "--ignore", "T009"]) == 0
    assert Path("t.txt").read_bytes() == b"A1, 3, 4, M\r\nA2, correct\r\n"
    assert main(["check", "t.txt", "--fix"]) == 0  # T009: CRLF defeats the 2018 scorer
    assert Path("t.txt").read_bytes() == b"A1, 3, 4, M\nA2, correct\n"
    Path("b.m2").write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    assert main(["check", "b.m2", "--fix"]) == 0
    assert Path("b.m2").read_bytes() == GOOD.encode()


def test_fix_refuses_files_that_do_not_decode(files: Path, capsys) -> None:
    data = "S 第一 句 \nA 0 1|||S|||二|||REQUIRED|||-NONE-|||0\n".encode("gb18030")
    Path("gb.m2").write_bytes(data)
    assert main(["check", "gb.m2", "--fix"]) == 1
    assert Path("gb.m2").read_bytes() == data
    assert "not fixed" in capsys.readouterr().err
    assert main(["check", "gb.m2", "--fix", "--encoding", "gb18030"]) == 0
    assert Path("gb.m2").read_bytes() == data.replace("句 \n".encode("gb18030"),
                                                      "句\n".encode("gb18030"))


def test_pyproject_configuration(files: Path) -> None:
    Path("pyproject.toml").write_text('[tool.m2lsp]\nignore = ["M102"]\n'
                                      'severity = {X004 = "error"}\n', encoding="utf-8")
    assert main(["check", "bad.m2", "--select", "M1"]) == 0
    assert main(["check", "bad.m2"]) == 1
    # a bad value is a usage error on the command line (the server logs it and goes on)
    Path("pyproject.toml").write_text('[tool.m2lsp]\ntaxonomy = "klingon"\n', encoding="utf-8")
    assert main(["check", "bad.m2"]) == 2


def test_truth_file_ids_come_from_the_companion_input(tmp_path: Path, capsys) -> None:
    (tmp_path / "X_Input.txt").write_text("(sid=A1)\t你好\n(sid=A2)\t他好\n", encoding="utf-8")
    (tmp_path / "X_Truth.txt").write_text("A1, correct\nA3, correct\n", encoding="utf-8")
    assert main(["check", str(tmp_path / "X_Truth.txt")]) == 1
    assert "T002 sentence id 'A3' is not in the input file" in capsys.readouterr().out


def test_real_data_checks_without_a_traceback(capsys: pytest.CaptureFixture) -> None:
    shared("conll2014")
    code = main(["check", str(SHARED_DATA)])
    captured = capsys.readouterr()
    assert code == 1
    assert "Traceback" not in captured.err
    out = captured.out
    # spot checks: each of these was verified by hand against the file
    assert "nlpcc18.gold:6652:3: M102 edit ends at token 202 but the sentence has 25" in out
    assert "nlpcc18.gold:4303:1: M402 repeats an earlier edit of annotator 0" in out
    assert "NLPTEA15_CGED_Test.sgml:7347:21: C004 start_off is ' '" in out
    assert "test_truth_2020mk.xml:30:1: C002 element has no <DOC> start tag" in out
    assert "official-2014.combined.m2:5:1: M302" in out
    assert "ABCN.dev.gold.bea19.m2" not in out


def test_json_is_what_the_json_module_writes(tmp_path: Path) -> None:
    """The templates of the JSON renderer against json.dumps on varied diagnostics: fixes
    with several edits, related information, quotes, tabs and non-ASCII text."""
    from m2lsp.linting.run import lint
    from m2lsp.model import Format
    from m2lsp.output import FileReport
    from m2lsp.output.json import diagnostic_json, render
    from m2lsp.parsing.source import SourceText

    texts = {Format.M2: BAD + "\nS 中文 \"引号\"\tx \n"
             "A 0 1|||R:NOM|||a\tb|||REQUIRED|||-NONE-|||0\n"
             "A 0 1|||R:NOM|||a\tb|||REQUIRED|||-NONE-|||0\nA 3 1|||M:DET|||é|||X|||Y|||kim\n"
             "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n",
             Format.TRUTH: "A1,3,4,M\r\nA2, correct\r\nA2, 9, 1, Q\r\n"}
    for fmt, text in texts.items():
        found = lint(SourceText(text), fmt).diagnostics
        assert any(d.related for d in found) or fmt is Format.TRUTH
        assert any(d.fix for d in found)
        reports = [FileReport('dir/"odd"\tname', found)]
        expected = [diagnostic_json(r.path, d) for r in reports for d in r.diagnostics]
        assert render(reports) == json.dumps(expected, ensure_ascii=False, indent=2) + "\n"
    assert render([]) == "[]\n"


def test_one_summary_line_and_none_with_quiet(files: Path, capsys) -> None:
    """`-q` prints the diagnostics only; without it, one summary line (not two)."""
    assert main(["check", "bad.m2"]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines()[-1].startswith("Found ")
    assert captured.out.endswith(" in 1 file.\n") or "in 1 file (" in captured.out
    assert captured.err == ""
    assert main(["check", "bad.m2", "-q"]) == 1
    captured = capsys.readouterr()
    assert "Found" not in captured.out and captured.err == ""
    assert all(line.startswith("bad.m2:") for line in captured.out.splitlines())


def test_named_files_of_unknown_format_with_skip_unknown(files: Path, capsys) -> None:
    Path("pom.xml").write_text('<?xml version="1.0"?>\n<project><a/></project>\n')
    assert main(["check", "pom.xml"]) == 2  # named, so meant: not recognised
    assert "pom.xml: not recognised as M2" in capsys.readouterr().err
    assert main(["check", "pom.xml", "good.m2", "--skip-unknown"]) == 0
    assert capsys.readouterr().out == ("No problems found in 1 file; 1 skipped (not M2 or "
                                       "CGED).\n")


CGED_DATA = sorted(p for p in (SHARED_DATA / "cged").rglob("*") if p.is_file()
                   and p.name != "SOURCES.tsv" and not p.name.startswith("README")
                   and "Evaluation" not in p.name) if (SHARED_DATA / "cged").is_dir() else []


@pytest.mark.skipif(not CGED_DATA, reason="needs ../shared/data/cged")
def test_every_cged_data_file_is_checked(capsys) -> None:
    """Truth files, input files (both id styles, CGED 2018's `.xml` one too) and SGML: each
    recognised and checked (exit 0 or 1, never 'not recognised')."""
    for path in CGED_DATA:
        assert main(["check", "-q", str(path)]) in (0, 1), (path, capsys.readouterr().err)
        assert "not recognised" not in capsys.readouterr().err


def test_a_2014_style_truth_and_input_pair(tmp_path, monkeypatch, capsys) -> None:
    """NLP-TEA 2014: `(sid=ID)<TAB>sentence` inputs, `sid, Type` truth lines; the truth's
    ids are checked against the input beside it."""
    monkeypatch.chdir(tmp_path)
    Path("NLPTEA14_TestInput.txt").write_text("(sid=C1-1711-2)\t可能到２０４０年\n"
                                              "(sid=C1-1721-1)\t一九五零年\n", encoding="utf-8")
    Path("NLPTEA14_TestTruth.txt").write_text("C1-1711-2, Selection\nC1-1721-1, correct\n"
                                              "C1-9999-1, Missing\n", encoding="utf-8")
    assert main(["check", "NLPTEA14_TestInput.txt"]) == 0
    assert main(["check", "NLPTEA14_TestTruth.txt"]) == 1
    out = capsys.readouterr().out
    assert "NLPTEA14_TestTruth.txt:3:1: T002 sentence id 'C1-9999-1' is not in the input" in out


MIXED_ENDINGS = ("S The cat sat .\r\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0 \n\n"
                 "S A b .\nA 0 1|||R:X|||c|||REQUIRED|||-NONE-|||0\n\n")


def test_fixable_counts_what_fix_fixes(files: Path, capsys) -> None:
    """Two rules (M010, X003) flag the same CRLF line with the same fix: `check` counts it
    once, as `--fix` does (it said "3 fixable", then "fixed 2")."""
    Path("mixed.m2").write_bytes(MIXED_ENDINGS.encode())
    assert main(["check", "mixed.m2"]) == 1
    out = capsys.readouterr().out
    assert "M010" in out and "X003" in out
    assert out.splitlines()[-1] == "Found 3 problems in 1 file (2 fixable with `--fix`)."
    assert main(["check", "mixed.m2", "--fix"]) == 0
    assert capsys.readouterr().err == "m2lsp: mixed.m2: fixed 2 problem(s)\n"


def test_fixes_only_the_first_fixes_bring_out_are_said(files: Path, capsys) -> None:
    """A CRLF file is one block to the NUS scorer; once its endings are fixed, a duplicate
    edit shows and is fixed too: the count says which were not in `check`'s."""
    Path("crlf.m2").write_bytes(b"S The cat sat .\r\n" + 2 * (
        b"A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\r\n") + b"\r\n")
    assert main(["check", "crlf.m2"]) == 1
    assert "(1 fixable with `--fix`)" in capsys.readouterr().out
    assert main(["check", "crlf.m2", "--fix"]) == 0
    assert capsys.readouterr().err == ("m2lsp: crlf.m2: fixed 2 problem(s) (1 of them found "
                                       "only once the first fixes were made)\n")


@pytest.mark.parametrize(("names", "last"), [
    (["empty.m2"], "Nothing to check: the file is empty."),
    (["empty.m2", "blank.m2"], "Nothing to check: all 2 files are empty."),
    (["empty.m2", "good.m2"], "No problems found in 2 files; 1 of them empty (nothing in it "
                              "to check)."),
])
def test_an_empty_file_is_not_said_to_pass(files: Path, capsys, names, last) -> None:
    Path("empty.m2").write_text("", encoding="utf-8")
    Path("blank.m2").write_text("\n\n", encoding="utf-8")
    assert main(["check", *names]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == last and "No problems found in 1 file" not in out


def test_fail_on_lets_warnings_pass_and_still_prints_them(tmp_path, capsys) -> None:
    gold = tmp_path / "gold.m2"
    gold.write_text("S He go to school .\nA 1 2|||M:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0"
                    "\n", encoding="utf-8")  # M409 and M405, both warnings
    assert main(["check", "--taxonomy", "errant", str(gold)]) == 1
    capsys.readouterr()
    assert main(["check", "--taxonomy", "errant", "--fail-on", "error", str(gold)]) == 0
    out = capsys.readouterr().out
    assert "M409" in out and "Found 2 problems" in out
    gold.write_text("S He go .\nA 1 9|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0\n",
                    encoding="utf-8")  # M102, an error
    assert main(["check", "--taxonomy", "errant", "--fail-on", "error", str(gold)]) == 1
