"""`m2lsp skeleton` (raw sentences to an M2 file to annotate) and `m2lsp retokenise` (a
token of an S line split, or tokens joined, every annotator's edits kept on their words)."""

from __future__ import annotations

from pathlib import Path

import pytest

from m2lsp.authoring.progress import progress
from m2lsp.cli import main
from m2lsp.model import corrected_sentence
from m2lsp.parsing.m2 import parse_m2
from m2lsp.parsing.source import SourceText
from tests.annotation.conftest import spacy_model

RAW = "I like this.\nThey don't go\n\nHe said: 'no'\n"
GOLD = ("S I like waythismakes me feel\n"
        "A 2 3|||R:OTHER|||the way this makes|||REQUIRED|||-NONE-|||0\n"
        "A 3 4|||R:VERB|||feel|||REQUIRED|||-NONE-|||0\n"
        "A 4 5|||R:VERB|||feeling|||REQUIRED|||-NONE-|||0\n"
        "A 3 3|||M:PRON|||it|||REQUIRED|||-NONE-|||1\n"
        "A 5 5|||M:PUNCT|||.|||REQUIRED|||-NONE-|||1\n"
        "\n"
        "S I saw them . .\n"
        "A 3 5|||R:PUNCT|||.|||REQUIRED|||-NONE-|||0\n"
        "A 4 5|||U:PUNCT||||||REQUIRED|||-NONE-|||1\n"
        "A 2 3|||R:PRON|||him|||REQUIRED|||-NONE-|||2\n")


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
def test_skeleton_tokenises_with_the_pipeline_and_writes_no_a_line(tmp_path: Path, capsys):
    raw = tmp_path / "raw.txt"
    raw.write_text(RAW, encoding="utf-8")
    code, out, _ = _run(capsys, "skeleton", str(raw), "--spacy-model", spacy_model())
    assert code == 0
    assert out == "S I like this .\n\nS They do n't go\n\nS He said : ' no '\n\n"


def test_a_skeleton_is_to_do_for_every_annotator(tmp_path: Path, capsys):
    raw, todo = tmp_path / "raw.txt", tmp_path / "todo.m2"
    raw.write_text("A b c\n\nd  e\n", encoding="utf-8")
    assert _run(capsys, "skeleton", str(raw), "--no-tok", "-o", str(todo))[0] == 0
    assert todo.read_text("utf-8") == "S A b c\n\nS d e\n\n"
    assert [str(p) for p in progress(parse_m2(SourceText(todo.read_text("utf-8"))))] == [
        "annotator 0: 0 of 2 sentences"]
    code, out, _ = _run(capsys, "check", str(todo))
    assert code == 0 and "No problems" in out  # nothing wrong: only to do
    code, out, _ = _run(capsys, "check", str(todo), "--select", "M502")
    assert out.count("M502 not yet annotated by annotator 0") == 2
    # one line written in a sentence makes it done
    todo.write_text("S A b c\nA 1 2|||R:NOUN|||B|||REQUIRED|||-NONE-|||0\n\nS d e\n\n",
                    encoding="utf-8")
    assert [str(p) for p in progress(parse_m2(SourceText(todo.read_text("utf-8"))))] == [
        "annotator 0: 1 of 2 sentences"]


def test_skeleton_of_chinese_is_characters(tmp_path: Path, capsys):
    raw = tmp_path / "raw.txt"
    raw.write_text("我 喜欢猫。\n", encoding="utf-8")
    assert _run(capsys, "skeleton", str(raw), "--lang", "zh")[1] == "S 我 喜 欢 猫 。\n\n"


@pytest.mark.parametrize(("argv", "first", "second"), [
    (["--sentence", "1", "--split", "2", "way this makes"],
     ["S I like way this makes me feel",
      "A 2 5|||R:OTHER|||the way this makes|||REQUIRED|||-NONE-|||0",
      "A 5 6|||R:VERB|||feel|||REQUIRED|||-NONE-|||0",
      "A 6 7|||R:VERB|||feeling|||REQUIRED|||-NONE-|||0",
      "A 5 5|||M:PRON|||it|||REQUIRED|||-NONE-|||1",
      "A 7 7|||M:PUNCT|||.|||REQUIRED|||-NONE-|||1"], None),
    (["--sentence", "2", "--join", "3", "5"], None,
     ["S I saw them ..",
      "A 3 4|||R:PUNCT|||.|||REQUIRED|||-NONE-|||0",
      "A 3 4|||U:PUNCT||||||REQUIRED|||-NONE-|||1",  # straddled the join: widened
      "A 2 3|||R:PRON|||him|||REQUIRED|||-NONE-|||2"]),
])
def test_retokenise_keeps_each_edit_on_its_words(tmp_path: Path, capsys, argv, first,
                                                 second):
    gold = tmp_path / "gold.m2"
    gold.write_text(GOLD, encoding="utf-8")
    code, out, err = _run(capsys, "retokenise", str(gold), *argv)
    assert code == 0
    before = parse_m2(SourceText(GOLD)).blocks
    after = parse_m2(SourceText(out)).blocks
    for old, new, lines in zip(before, after, (first, second), strict=True):
        assert list(new.lines) == (lines or list(old.lines))
    for annotator in "01":  # each corrected sentence's words do not change, only the cut
        assert _glued(corrected_sentence(after[0], annotator)) == _glued(
            corrected_sentence(before[0], annotator))
    assert ("straddled the join" in err) == (second is not None)
    assert out.count("\n\n") == 1 and out.endswith("|||2\n")


def _glued(text: str | None) -> str:
    return (text or "").replace(" ", "")


@pytest.mark.parametrize(("argv", "error"), [
    (["--sentence", "3", "--join", "0", "2"], "has 2 sentences"),
    (["--sentence", "1", "--split", "2", "way that makes"], "a split keeps the text"),
    (["--sentence", "1", "--split", "x", "a"], "is not a token number"),
    (["--sentence", "1", "--join", "3", "4"], "are not two or more"),
    (["--sentence", "1", "--split", "9", "a"], "is not one of the sentence's 5 tokens"),
])
def test_retokenise_refuses_with_a_reason(tmp_path: Path, capsys, argv, error):
    gold = tmp_path / "gold.m2"
    gold.write_text(GOLD, encoding="utf-8")
    code, _, err = _run(capsys, "retokenise", str(gold), *argv)
    assert code == 2 and error in err and "Traceback" not in err
    assert gold.read_text("utf-8") == GOLD


def test_retokenise_in_place(tmp_path: Path, capsys):
    gold = tmp_path / "gold.m2"
    gold.write_text(GOLD, encoding="utf-8")
    assert _run(capsys, "retokenise", str(gold), "--sentence", "1", "--split", "2",
                "way thismakes", "--in-place")[0] == 0
    assert gold.read_text("utf-8").startswith("S I like way thismakes me feel\n"
                                              "A 2 4|||R:OTHER|||")
