"""Model folders that must not be trusted, scores that must not come stale from the cache,
and models that cannot give a meaningful number: each refused with one clear error (exit 2),
never code run, never a traceback, never a NaN.  Tiny models made here from a few sentences
(no shared data needed)."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from m2lsp.cli import main
from tests.conftest import ROOT
from tests.learned import models

pytestmark = pytest.mark.usefixtures("neural")

SOURCES = ["This are a test .", "He go to school yesterday .", "I has two cat ."]
HYPOTHESES = ["This is a test .", "He went to school yesterday .", "I have two cats ."]
TEXTS = SOURCES + HYPOTHESES


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("tiny")
    found = {"qe": models.bert(root / "qe", TEXTS, seed=1, head="classifier"),
             "se": models.bert(root / "se", TEXTS, seed=2),
             "gpt2": models.gpt2(root / "gpt2", TEXTS, seed=3)}
    (root / "src").write_text("\n".join(SOURCES) + "\n")
    (root / "hyp").write_text("\n".join(HYPOTHESES) + "\n")
    (root / "ref").write_text("\n".join(HYPOTHESES) + "\n")
    found.update(src=root / "src", hyp=root / "hyp", ref=root / "ref", root=root)
    return found


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv("M2LSP_CACHE_DIR", str(folder))
    return folder


def impara(tiny, qe=None, se=None) -> list[str]:
    return ["score", str(tiny["hyp"]), "--source", str(tiny["src"]), "--metric", "impara",
            "--impara-model-qe", str(qe or tiny["qe"]), "--impara-model-se",
            str(se or tiny["se"]), "--impara-no-cuda", "--format", "json"]


def bertscore(tiny, model=None, baseline=None) -> list[str]:
    return ["score", str(tiny["hyp"]), "--ref", str(tiny["ref"]), "--source",
            str(tiny["src"]), "--metric", "bertscore", "--bertscore-model-type",
            str(model or tiny["se"]), "--bertscore-num-layers", "1", "--bertscore-no-cuda",
            *(["--bertscore-baseline-path", str(baseline)] if baseline else
              ["--bertscore-no-rescale-with-baseline"]), "--format", "json"]


def scored(argv: list[str], capsys) -> float:
    assert main(argv) == 0, capsys.readouterr().err
    data = json.loads(capsys.readouterr().out)
    return data[data["metric"]]


def refused(argv: list[str], capsys) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert "Traceback" not in err and out == ""
    return err


# -- 1. a folder's own code never runs, whatever stdin says --------------------------------

SPY = "import pathlib\npathlib.Path({marker!r}).write_text('ran')\n"


def config_with_code(tiny, where: Path) -> Path:
    """The QE model, its config naming an unknown model type whose code is in the folder."""
    shutil.copytree(tiny["qe"], where)
    config = json.loads((where / "config.json").read_text())
    config["model_type"] = "spybert"
    config["auto_map"] = {"AutoConfig": "modeling_spy.SpyConfig",
                          "AutoModelForSequenceClassification": "modeling_spy.SpyModel"}
    (where / "config.json").write_text(json.dumps(config))
    (where / "modeling_spy.py").write_text(
        SPY.format(marker=str(where / "RAN")) + "from transformers import BertConfig, "
        "BertForSequenceClassification\nclass SpyConfig(BertConfig):\n    model_type = "
        "'spybert'\nclass SpyModel(BertForSequenceClassification):\n    config_class = "
        "SpyConfig\n")
    return where


def tokenizer_with_code(tiny, where: Path, source: str = "qe") -> Path:
    """A model whose tokenizer's config names a tokenizer class in the folder's code."""
    shutil.copytree(tiny[source], where)
    settings = json.loads((where / "tokenizer_config.json").read_text())
    settings["tokenizer_class"] = "SpyTokenizer"
    settings["auto_map"] = {"AutoTokenizer": ["tokenization_spy.SpyTokenizer", None]}
    (where / "tokenizer_config.json").write_text(json.dumps(settings))
    (where / "tokenization_spy.py").write_text(
        SPY.format(marker=str(where / "RAN")) + "from transformers import BertTokenizer\n"
        "class SpyTokenizer(BertTokenizer):\n    pass\n")
    return where


@pytest.mark.parametrize("made", [config_with_code, tokenizer_with_code])
def test_a_folder_with_code_of_its_own_is_refused_even_after_a_yes(
        tiny, tmp_path, monkeypatch, capsys, made) -> None:
    folder = made(tiny, tmp_path / "spy")
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\ny\ny\n"))
    err = refused(impara(tiny, qe=folder), capsys)
    assert not (folder / "RAN").exists()
    assert "never runs a model's code" in err and "--impara-model-qe" in err
    assert sys.stdin.read() == "y\ny\ny\n"  # never asked


def test_bert_scores_loader_never_runs_a_folders_code(tiny, tmp_path, monkeypatch,
                                                      capsys) -> None:
    folder = tokenizer_with_code(tiny, tmp_path / "spy", source="se")
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))
    err = refused(bertscore(tiny, model=folder), capsys)
    assert not (folder / "RAN").exists() and "never runs a model's code" in err


def test_the_question_never_reaches_stdout_of_a_json_run(tiny, tmp_path) -> None:
    folder = config_with_code(tiny, tmp_path / "spy")
    run = subprocess.run([sys.executable, "-m", "m2lsp", *impara(tiny, qe=folder)],
                         input="y\n", capture_output=True, text=True, cwd=ROOT, timeout=300,
                         env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert run.returncode == 2 and run.stdout == "" and "[y/N]" not in run.stderr
    assert not (folder / "RAN").exists()


@pytest.mark.parametrize("mode", [0o777, 0o775], ids=["777", "775"])
def test_a_cache_folder_others_may_write_to_is_not_used(tmp_path, monkeypatch, mode) -> None:
    """(A malformed line makes the checker build its Lark parser, which it would keep.)"""
    folder = tmp_path / "shared-cache"
    folder.mkdir()
    folder.chmod(mode)
    run = subprocess.run([sys.executable, "-m", "m2lsp", "check", "-q",
                          str(ROOT / "tests" / "data" / "cged-truth-malformed.txt")],
                         capture_output=True, text=True, cwd=ROOT, timeout=120,
                         env={**os.environ, "M2LSP_CACHE_DIR": str(folder)})
    assert "keeps no cache in the cache folder" in run.stderr and f"{mode:o}" in run.stderr
    assert list(folder.iterdir()) == []


# -- 2. the cache never answers for a model that changed ------------------------------------

def fresh(argv: list[str], capsys, monkeypatch) -> float:
    with monkeypatch.context() as m:
        m.setenv("M2LSP_CACHE_DIR", "")
        return scored(argv, capsys)


def swap_two_words(folder: Path) -> None:
    data = json.loads((folder / "tokenizer.json").read_text())
    vocab = data["model"]["vocab"]
    vocab["test"], vocab["school"] = vocab["school"], vocab["test"]
    (folder / "tokenizer.json").write_text(json.dumps(data))


def other_weights_same_size(folder: Path, donor: Path) -> None:
    weights = folder / "model.safetensors"
    before = weights.stat()
    shutil.copyfile(donor / "model.safetensors", weights)
    assert weights.stat().st_size == before.st_size
    os.utime(weights, ns=(before.st_atime_ns, before.st_mtime_ns))


@pytest.mark.parametrize("change", ["tokenizer", "weights"])
def test_a_changed_model_folder_is_scored_afresh(tiny, tmp_path, capsys, monkeypatch,
                                                 change) -> None:
    qe = Path(shutil.copytree(tiny["qe"], tmp_path / "qe"))
    argv = impara(tiny, qe=qe)
    first = scored(argv, capsys)
    signature = main(argv) == 0 and json.loads(capsys.readouterr().out)["signature"]
    if change == "tokenizer":
        swap_two_words(qe)
    else:
        donor = models.bert(tmp_path / "donor", TEXTS, seed=99, head="classifier")
        other_weights_same_size(qe, donor)
    again = scored(argv, capsys)
    assert again == fresh(argv, capsys, monkeypatch) != first
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["signature"] != signature


def test_another_baseline_file_is_scored_afresh(tiny, tmp_path, capsys, monkeypatch) -> None:
    one, two = tmp_path / "one.tsv", tmp_path / "two.tsv"
    one.write_text("LAYER,P,R,F\n0,0.1,0.2,0.3\n1,0.31,0.32,0.33\n")
    two.write_text("LAYER,P,R,F\n0,0.1,0.2,0.3\n1,0.5,0.6,0.55\n")
    first = scored(bertscore(tiny, baseline=one), capsys)
    second = scored(bertscore(tiny, baseline=two), capsys)
    assert second == fresh(bertscore(tiny, baseline=two), capsys, monkeypatch) != first
    two.write_text(one.read_text())  # the same path, another content
    assert scored(bertscore(tiny, baseline=two), capsys) == first


# -- 3, 4, 9, 14: numbers that would mean nothing, and failures without a traceback --------

def test_an_encoder_without_the_regressors_head_is_refused(tiny, capsys) -> None:
    err = refused(impara(tiny, qe=tiny["se"]), capsys)
    assert "classifier.weight" in err and "start them at random" in err


@pytest.mark.parametrize(("row", "says"), [
    ("1,1,1,1", "must be finite numbers below 1"),
    ("1,nan,0.1,0.1", "must be finite numbers below 1"),
])
def test_a_baseline_that_makes_no_finite_score_is_refused(tiny, tmp_path, capsys, row,
                                                           says) -> None:
    baseline = tmp_path / "b.tsv"
    baseline.write_text(f"LAYER,P,R,F\n0,0.1,0.2,0.3\n{row}\n")
    err = refused(bertscore(tiny, baseline=baseline), capsys)
    assert says in err and str(baseline) in err


def test_baseline_files_that_cannot_be_read(tiny, tmp_path, capsys) -> None:
    assert "no such baseline file" in refused(bertscore(tiny, baseline=tmp_path / "no.tsv"),
                                              capsys)
    latin = tmp_path / "latin.tsv"
    latin.write_bytes("LAYER,P,R,F\n0,0.1,0.2,0.3\n1,0.1,0.2,0.3 é\n".encode("latin-1"))
    assert "cannot be read" in refused(bertscore(tiny, baseline=latin), capsys)
    short = tmp_path / "short.tsv"
    short.write_text("LAYER,P,R,F\n0,0.1,0.2,0.3\n")
    assert "no BERTScore baseline for layer 1" in refused(bertscore(tiny, baseline=short),
                                                          capsys)


def test_a_model_of_another_kind_is_one_error(tiny, capsys) -> None:
    err = refused(impara(tiny, se=tiny["gpt2"]), capsys)  # GPT-2's tokenizer cannot pad
    assert "IMPARA: the model cannot score this input" in err and "padding" in err
    err = refused(bertscore(tiny, model=tiny["gpt2"]), capsys)
    assert "the folder has no model transformers can load" in err


def test_a_vocabulary_without_unk(tiny, tmp_path, capsys) -> None:
    se = Path(shutil.copytree(tiny["se"], tmp_path / "se"))
    (se / "tokenizer.json").unlink()
    vocab = (se / "vocab.txt").read_text().splitlines()
    (se / "vocab.txt").write_text("\n".join(v for v in vocab if v != "[UNK]") + "\n")
    (tiny["root"] / "odd").write_text("Zebras ?\n" * 3)
    argv = impara(tiny, se=se)
    argv[1] = str(tiny["root"] / "odd")
    assert "Traceback" not in refused(argv, capsys)


def test_a_missing_folder_fails_before_torch_loads(tiny, tmp_path) -> None:
    code = ("import sys\nfrom m2lsp.cli import main\n"
            f"code = main({impara(tiny, qe=tmp_path / 'nowhere')!r})\n"
            "print(code, 'torch' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert run.stdout.split() == ["2", "False"], run.stderr
    assert "there is no such folder" in run.stderr


def test_chinese_sentences_with_the_english_default_models_are_said(tiny, tmp_path,
                                                                     monkeypatch, capsys):
    """IMPARA's default models are English: Chinese input is warned about as ERRANT's
    English metrics warn (here before the models, which the machine lacks, are sought)."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    chinese = tmp_path / "zh.txt"
    chinese.write_text("我们知道吸烟对未成年人有害。\n他昨天去学校了。\n")
    assert main(["score", str(chinese), "--source", str(chinese), "--metric", "impara"]) == 2
    err = capsys.readouterr().err
    assert "IMPARA's default models are English" in err and "Chinese" in err
    argv = impara(tiny)
    argv[1] = argv[3] = str(chinese)
    assert main(argv) == 0
    assert "default models are English" not in capsys.readouterr().err


def test_a_classifier_of_two_labels_as_the_regressor_is_refused(tiny, tmp_path, capsys):
    two = models.bert(tmp_path / "two", TEXTS, seed=4, head="classifier", labels=2)
    err = refused(impara(tiny, qe=two), capsys)
    assert "gives 2 outputs a sentence; the metric reads 1" in err


# -- R4 12: a model whose weights are NaN gives no score, however its numbers compare -----

def nan_weights(source: Path, where: Path) -> Path:
    """`source`'s model with every weight a NaN (as a diverged training run saves it)."""
    import torch
    from transformers import AutoModelForCausalLM

    shutil.copytree(source, where)
    model = AutoModelForCausalLM.from_pretrained(where)
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.fill_(float("nan"))
    model.save_pretrained(where)
    return where


@pytest.mark.parametrize("metric", ["scribendi", "llm-s"])
def test_a_model_of_nan_weights_is_refused(tiny, tmp_path, capsys, metric) -> None:
    folder = nan_weights(tiny["gpt2"], tmp_path / "nan")
    model = {"scribendi": ["--scribendi-model", str(folder), "--scribendi-no-cuda"],
             "llm-s": ["--llm-model", str(folder), "--llm-no-cuda",
                       "--llm-cache", str(tmp_path / "replies.jsonl")]}[metric]
    err = refused(["score", str(tiny["hyp"]), "--source", str(tiny["src"]), "--metric",
                   metric, *model, "--format", "json"], capsys)
    assert "not a finite number" in err and str(folder) in err
    assert not (tmp_path / "replies.jsonl").exists() or \
        (tmp_path / "replies.jsonl").read_text() == ""  # no reply made of NaNs kept
