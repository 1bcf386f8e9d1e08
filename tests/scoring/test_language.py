"""A metric made for one language refuses the other, naming the metric to use: ERRANT's
annotation of Chinese printed TP 0, FP 28, FN 43; cgec on English ran without a word."""

from __future__ import annotations

import pytest

from m2lsp.cli import main
from m2lsp.scripts import mismatch, script
from tests.conftest import shared

SCRIPTS = [("The cat sat on the mat .", "Latin"), ("冬阴功是泰国最著名的菜之一", "Chinese"),
           ("S 我 们 去 学 校\nA 0 1|||S|||你|||REQUIRED|||-NONE-|||0", "Chinese"),
           ("1 2 3 , .", None), ("", None), ("NLPCC 2018 的 数 据 集 里 有 一 些 英 文", "Chinese")]


@pytest.mark.parametrize(("text", "expected"), SCRIPTS)
def test_script(text: str, expected: str | None) -> None:
    assert script(text) == expected


def test_mismatch_names_both_scripts() -> None:
    assert mismatch("The cat sat .", "我们去学校了") == (
        "the system is in Latin script but the gold in Chinese")
    assert mismatch("The cat sat .", "The dog sat .") is None


CASES = [  # metric, system, gold, what the error names
    ("errant", "mucgec/demo.hyp", "mucgec/demo.ref.m2.char", "--metric cherrant"),
    ("cherrant", "conll2014/systems/CAMB", "conll2014/gold/official-2014.combined.m2",
     "--metric errant"),
]


@pytest.mark.parametrize(("metric", "system", "gold", "named"), CASES)
def test_a_wrong_language_metric_is_refused(capsys, metric, system, gold, named) -> None:
    assert main(["score", "--metric", metric, str(shared(system)), str(shared(gold))]) == 2
    assert named in capsys.readouterr().err


def test_m2_warns_when_the_system_and_the_gold_differ_in_script(tmp_path, capsys) -> None:
    gold = "S 我 们 去 学 校 了\nA 0 1|||S|||你|||REQUIRED|||-NONE-|||0\n"
    (tmp_path / "gold.m2").write_text(gold, encoding="utf-8")
    (tmp_path / "sys.txt").write_text("we went to school .\n", encoding="utf-8")
    assert main(["score", str(tmp_path / "sys.txt"), str(tmp_path / "gold.m2")]) == 0
    assert "the system is in Latin script but the gold in Chinese" in capsys.readouterr().err


def test_cgec_on_english_warns_naming_the_metrics_to_use(capsys) -> None:
    assert main(["score", "--metric", "cgec", str(shared("conll2014/systems/CAMB")),
                 str(shared("conll2014/gold/official-2014.combined.m2"))]) == 0
    assert "for English use --metric m2, errant or gleu" in capsys.readouterr().err


# (argv, exit code, a part of the one line the user sees)
CHINESE_FOR_ENGLISH = [
    (["score", "--metric", "cleme", "{D}/demo.hyp", "{D}/demo.ref.m2.char"], 2,
     "the hypothesis and the reference are Chinese, but --metric cleme (a plain-text "
     "hypothesis) annotates English with ERRANT: annotate it first with `m2lsp annotate "
     "--lang zh"),
    (["annotate", "--orig", "{D}/demo.input", "--cor", "{D}/demo.hyp"], 2,
     "the text is Chinese, but --lang en (the default) annotates English with ERRANT: use "
     "--lang zh"),
    (["score", "{D}/demo.hyp", "{D}/demo.ref.m2.char"], 2,
     "demo.hyp is Chinese written without spaces (not tokenized) but "),
    (["score", "{D}/demo.hyp", "{D}/demo.ref.m2.word"], 2,
     "demo.hyp is Chinese written without spaces (not tokenized) but "),
    (["score", "--metric", "cleme", "{D}/demo.hyp.m2.char", "{D}/demo.ref.m2.char"], 2,
     "sentence 2 (counted from 1): the hypothesis and the reference have different sources, "
     "from token 9: '：' in the hypothesis, ':' in the reference"),
]


@pytest.mark.parametrize(("argv", "code", "line"), CHINESE_FOR_ENGLISH,
                         ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_chinese_given_to_english_tools_is_named(capsys, argv, code, line) -> None:
    folder = str(shared("mucgec"))
    assert main([a.replace("{D}", folder) for a in argv]) == code
    err = [e for e in capsys.readouterr().err.splitlines() if e.startswith("m2lsp: error")]
    assert len(err) == 1 and line in err[0], err


def test_a_char_gold_says_split_chars_and_split_chars_scores(capsys) -> None:
    """MuCGEC's char-level gold against the unsplit hypothesis: the error names the way out,
    and with it the score is that of the hypothesis cut into characters (0.2903, against
    0.1955 before: a score of long wrong edits)."""
    system, gold = str(shared("mucgec/demo.hyp")), str(shared("mucgec/demo.ref.m2.char"))
    assert main(["score", system, gold]) == 2
    assert "give --split-chars" in capsys.readouterr().err
    assert main(["score", "--split-chars", system, gold]) == 0
    captured = capsys.readouterr()
    assert captured.out.endswith("F_0.5       : 0.2903\n")
    assert "|system:split-chars|" in captured.err
