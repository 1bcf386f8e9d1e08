"""A misspelled option, metric or command: exit 2, one line saying what was meant, and the
command's one-line usage; never a positional taken from the misspelled option's value."""

from __future__ import annotations

import pytest

from m2lsp.cli import main

CASES = [
    (["score", "--metrc", "errant", "sys.txt", "gold.m2"],
     "m2lsp score: error: unknown option --metrc; did you mean --metric?"),
    (["score", "--betta", "1", "sys.txt", "gold.m2"],
     "m2lsp score: error: unknown option --betta; did you mean --beta?"),
    (["score", "sys.txt", "gold.m2", "--metric", "errnt"],
     "m2lsp score: error: unknown --metric 'errnt'; did you mean errant? (one of m2, errant, "
     "cherrant, cged, cgec, gleu, green, cleme, impara, some, scribendi, bertscore, gotoscorer, "
     "pt-errant, pt-m2, llm-s, llm-e)"),
    (["score", "--metric=errnt", "sys.txt", "gold.m2"],
     "m2lsp score: error: unknown --metric 'errnt'; did you mean errant? (one of m2, errant, "
     "cherrant, cged, cgec, gleu, green, cleme, impara, some, scribendi, bertscore, gotoscorer, "
     "pt-errant, pt-m2, llm-s, llm-e)"),
    (["scroe", "sys.txt", "gold.m2"],
     "m2lsp: error: unknown command 'scroe'; did you mean score? (one of check, rule, score, "
     "compare, errant-compare, serve, convert, annotate, errant-parallel, agree, report, "
     "cache, meta-eval, gotoscorer-weight, explain, merge, split, audit, curate, note, skeleton, "
     "retokenise, web)"),
    (["check", "--outptu-format", "json", "gold.m2"],
     "m2lsp check: error: unknown option --outptu-format; did you mean --output-format?"),
    (["annotate", "--orgi", "a.txt", "--cor", "b.txt"],
     "m2lsp annotate: error: unknown option --orgi; did you mean --orig?"),
    (["compare", "a", "b", "gold.m2", "--sampels", "9"],
     "m2lsp compare: error: unknown option --sampels; did you mean --samples?"),
    (["check", "-x", "gold.m2"], "m2lsp check: error: unknown option -x"),
]


@pytest.mark.parametrize(("argv", "line"), CASES, ids=lambda v: " ".join(v)
                         if isinstance(v, list) else None)
def test_a_misspelling_gets_did_you_mean(argv, line, capsys) -> None:
    with pytest.raises(SystemExit) as ended:
        main(argv)
    assert ended.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and err[0].startswith("usage: m2lsp")
    assert err[0].endswith("(--help: every option)") and len(err[0]) < 100
    assert err[1] == line


def test_an_abbreviation_still_works(tmp_path, monkeypatch, capsys) -> None:
    """argparse's unambiguous prefixes stay options (`--met m2`), and `-` and negative
    numbers stay values."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gold.m2").write_text("S a b .\nA 1 2|||X|||c|||REQUIRED|||-NONE-|||0\n\n")
    (tmp_path / "sys.txt").write_text("a c .\n")
    assert main(["score", "--met", "m2", "--bet", "1", "sys.txt", "gold.m2"]) == 0
    assert "F_1.0       : 1.0000" in capsys.readouterr().out


def test_the_score_usage_is_one_line(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["score"])
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "usage: m2lsp score [OPTIONS] system [gold]  (--help: every option)"
    assert len(err) == 2
