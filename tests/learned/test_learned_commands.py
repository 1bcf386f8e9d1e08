"""The learned metrics everywhere a metric goes (score, compare, report, meta-eval, the API),
their errors, their cache and their start-up, on models the tests made."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import m2lsp
from m2lsp.cli import main
from tests.conftest import ROOT, shared
from tests.test_api import LEARNED

pytestmark = pytest.mark.usefixtures("neural")


def impara(made) -> list[str]:
    return ["--metric", "impara", "--impara-model-qe", str(made["qe"]),
            "--impara-model-se", str(made["se"])]


def test_score_text_json_and_intervals(conll, made, capsys) -> None:
    args = ["score", str(conll.path("CAMB")), "--source", str(conll.path("INPUT")),
            *impara(made)]
    assert main([*args, "--bootstrap", "30", "--sentence-level"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("IMPARA      : 0.")
    assert out[1].startswith("1\t") and len([x for x in out if "\t" in x]) == 1312
    assert any(x.startswith("95% bootstrap intervals (30 resamples") for x in out)
    signature = out[-1]
    assert signature.startswith(f"IMPARA|qe:{made['qe']}@") and "|threshold:0.9|" in signature
    assert main([*args, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["metric"] == "impara" and data["aggregate"] == "mean"
    assert data["impara"] == pytest.approx(sum(data["sentence_scores"]) / 1312, abs=1e-12)
    assert data["signature"] == signature


def test_the_sources_may_come_from_an_m2_gold(conll, made, capsys) -> None:
    assert main(["score", str(conll.path("CAMB")), str(conll.gold), *impara(made),
                 "--format", "json"]) == 0
    from_gold = json.loads(capsys.readouterr().out)["sentence_scores"]
    mine = m2lsp.score(conll.systems["CAMB"], metric="impara", sources=conll.sources,
                       impara_model_qe=str(made["qe"]), impara_model_se=str(made["se"]))
    assert from_gold == mine.data["sentence_scores"]


@pytest.mark.parametrize(("args", "message"), [
    (["--source"], "needs the sources: SYSTEM --source SRC"),
    (["--source", "short"], "has 3 lines but"),
])
def test_inputs_that_cannot_be_scored(tmp_path: Path, made, capsys, args, message) -> None:
    system = tmp_path / "system"
    system.write_text("a b\nc d\ne f\n")
    (tmp_path / "short").write_text("a b\nc d\n")
    given = [str(tmp_path / a) if a == "short" else a for a in args if a != "--source"]
    source = ["--source", *given] if given else []
    assert main(["score", str(system), *source, *impara(made)]) == 2
    assert message in capsys.readouterr().err


def test_a_model_that_cannot_be_had_is_one_clear_error(tmp_path: Path, monkeypatch,
                                                         capsys) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    (tmp_path / "s").write_text("a b\n")
    assert main(["score", str(tmp_path / "s"), "--source", str(tmp_path / "s"),
                 "--metric", "impara"]) == 2
    err = capsys.readouterr().err
    assert "cannot load the model 'gotutiyan/IMPARA-QE'" in err
    assert f"HF_HOME={tmp_path / 'hf'}" in err and "--impara-model-qe /path/to" in err
    assert "Traceback" not in err
    assert main(["score", str(tmp_path / "s"), "--source", str(tmp_path / "s"),
                 "--metric", "scribendi", "--scribendi-model", str(tmp_path / "none")]) == 2
    assert "there is no such folder" in capsys.readouterr().err


def test_scores_are_read_back_from_the_cache(conll, made, monkeypatch) -> None:
    import m2lsp.learned.some as some

    options = {"some_model_g": str(made["g"]), "some_model_f": str(made["f"]),
               "some_model_m": str(made["m"])}
    first = m2lsp.score(conll.systems["AMU"][:50], metric="some",
                        sources=conll.sources[:50], **options)

    def refuse(*args):
        raise AssertionError("the models ran again")

    monkeypatch.setattr(some, "fresh", refuse)
    again = m2lsp.score(conll.systems["AMU"][:50], metric="some",
                        sources=conll.sources[:50], **options)
    assert again.data["sentence_scores"] == first.data["sentence_scores"]


def test_other_weights_make_another_signature(conll, made, tmp_path: Path) -> None:
    from tests.learned import models

    other = models.bert(tmp_path / "qe", conll.sources, seed=99, head="classifier")
    texts = ["A cat sat .", "The dog ."]

    def signature(qe: Path) -> str:
        return m2lsp.score(texts, metric="impara", sources=texts, impara_model_qe=str(qe),
                           impara_model_se=str(made["se"])).signature

    assert signature(made["qe"]).split("|")[1] != signature(other).split("|")[1]


def test_compare_and_report(conll, made, tmp_path: Path, capsys) -> None:
    systems = [str(conll.path(n)) for n in ("AMU", "CAMB")]
    assert main(["compare", *systems, str(conll.gold), *impara(made), "--samples", "50"]) == 0
    assert "\np = " in capsys.readouterr().out.replace("\np < ", "\np = ")  # (50: 0.1)
    out = tmp_path / "r.json"
    assert main(["report", str(conll.gold), *systems, *impara(made), "--samples", "50",
                 "--format", "json", "-o", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["main"] == "impara" and len(report["pairs"]) == 1
    alone = m2lsp.score(conll.systems["AMU"], metric="impara", sources=conll.sources,
                        impara_model_qe=str(made["qe"]), impara_model_se=str(made["se"]))
    assert report["systems"][0]["scores"]["impara"] == alone.score


def test_bertscore_takes_plain_references_in_the_api(conll, made) -> None:
    columns = [[refs[k] for refs in conll.references[:40]] for k in range(2)]
    options = {"bertscore_model_type": str(made["bs"]), "bertscore_num_layers": 2,
               "bertscore_baseline_path": str(made["baseline"])}
    plain = m2lsp.score(conll.systems["CAMB"][:40], metric="bertscore",
                        sources=conll.sources[:40], references=columns, **options)
    assert plain.warnings == () or all("bert-score" in w for w in plain.warnings)
    assert 0 < len(plain.data["sentence_scores"]) == 40


@pytest.mark.slow
def test_meta_eval_matches_gec_metrics_seeda(made, gec_metrics, tmp_path: Path,
                                             monkeypatch, capsys) -> None:
    """gec-metrics' MetaEvalSEEDA (its own IMPARA: system level; m2lsp's sentence scores:
    sentence level) against `m2lsp meta-eval --metric impara`.  Its sentence level with its
    own IMPARA differs a little: a hypothesis two systems share is scored in two batches,
    so float32 noise makes wins of ties; m2lsp scores it once (a tie)."""
    seeda = shared("meta-eval/seeda")
    tree = tmp_path / "SEEDA"
    (tree / "outputs" / "subset").mkdir(parents=True)
    for path in (seeda / "outputs" / "subset").iterdir():
        (tree / "outputs" / "subset" / path.name).symlink_to(path)
    for name in ("scores", "data"):
        (tree / name).symlink_to(seeda / name)
    for k in (0, 1):  # IMPARA reads no reference; the loader wants the files
        (tree / "outputs" / "subset" / f"REF{k}.txt").symlink_to(
            seeda / "outputs" / "subset" / "INPUT.txt")
    assert main(["meta-eval", "--dataset", "seeda", "--data", str(seeda), *impara(made),
                 "--format", "json"]) == 0
    mine = json.loads(capsys.readouterr().out)["metrics"][0]
    monkeypatch.chdir(tmp_path)
    from gec_metrics.meta_eval import MetaEvalSEEDA

    meta = MetaEvalSEEDA(MetaEvalSEEDA.Config(system="base"))
    theirs = meta.corr_system(gec_metrics.IMPARA(gec_metrics.IMPARA.Config(
        model_qe=str(made["qe"]), model_se=str(made["se"]), no_cuda=True)))
    for key in ("ew_edit", "ew_sent", "ts_edit", "ts_sent"):
        corr, found = getattr(theirs, key), mine["system_level"][key[:2].upper() + key[2:]]
        assert found["pearson"] == pytest.approx(corr.pearson, abs=1e-6)
        assert found["spearman"] == pytest.approx(corr.spearman, abs=1e-12)

    class Mine(gec_metrics.MetricBaseForReferenceFree):
        def score_sentence(self, sources, hypotheses):
            return m2lsp.score(hypotheses, metric="impara", sources=sources,
                               impara_model_qe=str(made["qe"]),
                               impara_model_se=str(made["se"])).data["sentence_scores"]

    sentence = meta.corr_sentence(Mine())
    for kind in ("edit", "sent"):
        assert mine["sentence_level"][kind]["accuracy"] == getattr(sentence, kind).accuracy
        assert mine["sentence_level"][kind]["kendall"] == getattr(sentence, kind).kendall


def test_without_torch_the_learned_metrics_say_which_extra(tmp_path: Path) -> None:
    (tmp_path / "s").write_text("a b\n")
    code = ("import sys; sys.modules['torch'] = None; from m2lsp.cli import entry; "
            f"sys.argv = ['m2lsp', 'score', {str(tmp_path / 's')!r}, '--source', "
            f"{str(tmp_path / 's')!r}, '--metric', 'impara']; entry()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2
    assert "pip install 'm2lsp[neural]'" in done.stderr and "Traceback" not in done.stderr


def test_the_other_metrics_never_import_torch(tmp_path: Path) -> None:
    gold = tmp_path / "g.m2"
    gold.write_text("S a b\nA 1 2|||R:NOUN|||c|||REQUIRED|||-NONE-|||0\n\n")
    code = ("import sys, m2lsp; "
            f"m2lsp.score(['a c'], gold={str(gold)!r}); "
            "print(sorted(m for m in ('torch', 'transformers', 'bert_score') "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.stdout.strip() == "[]", done.stderr


def model_options(made) -> dict[str, dict[str, object]]:
    """The options that point each metric with models at the models the tests made."""
    weights = {"bertscore_model_type": str(made["bs"]), "bertscore_num_layers": 2,
               "bertscore_baseline_path": str(made["baseline"])}
    return {
        "impara": {"impara_model_qe": str(made["qe"]), "impara_model_se": str(made["se"])},
        "some": {"some_model_g": str(made["g"]), "some_model_f": str(made["f"]),
                 "some_model_m": str(made["m"])},
        "scribendi": {"scribendi_model": str(made["gpt2"])},
        "bertscore": weights, "pt-errant": weights, "pt-m2": weights,
        "llm-s": {"llm_model": str(made["llm"])}, "llm-e": {"llm_model": str(made["llm"])},
    }


@pytest.mark.slow
def test_to_dict_is_the_commands_json(conll, made, capsys, english_pipeline, tmp_path) -> None:
    """As tests/test_api.py's table does for the other metrics (on CAMB's first 40 sentences:
    what is compared is the JSON's shape and digits, which the whole file adds nothing to;
    tests/learned/test_against_gec_metrics.py holds the whole-file numbers)."""
    table = {**model_options(made), "gotoscorer": {}}
    assert set(table) == LEARNED  # with tests/test_api.py's table: every metric
    system, gold = _head(conll, 40, tmp_path)
    for name, options in table.items():
        flags = [x for k, v in options.items() for x in (f"--{k.replace('_', '-')}", str(v))]
        assert main(["score", "--metric", name, "--format", "json", system, gold, *flags]) == 0
        printed = json.loads(capsys.readouterr().out)
        assert m2lsp.score(system, gold=gold, metric=name, **options).to_dict() == printed


def _head(conll, count: int, folder: Path) -> tuple[str, str]:
    """CAMB's first `count` sentences and their gold, as files in `folder`."""
    blocks = conll.gold.read_text(encoding="utf-8").split("\n\n")[:count]
    (folder / "gold.m2").write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    (folder / "CAMB").write_text("\n".join(conll.systems["CAMB"][:count]) + "\n",
                                 encoding="utf-8")
    return str(folder / "CAMB"), str(folder / "gold.m2")


def test_the_learned_metrics_keep_the_contract(conll, made, english_pipeline,
                                               tmp_path) -> None:
    """tests/scoring/test_contract.py's contract, for the metrics that need models."""
    from tests.scoring.test_contract import LEARNED as NEEDING_MODELS
    from tests.scoring.test_contract import keeps_the_contract

    values = model_options(made)
    assert set(values) == NEEDING_MODELS
    system, gold = _head(conll, 30, tmp_path)
    for name, given in values.items():
        keeps_the_contract(name, Path(system), Path(gold), given)


def test_an_import_that_fails_inside_transformers_names_the_cause(tmp_path: Path) -> None:
    """transformers raises an ImportError that names no module when huggingface-hub is
    of a version it refuses: the message said `(None is not installed)`."""
    (tmp_path / "s").write_text("a b\n")
    why = "huggingface-hub>=0.34.0,<1.0 is required, but found huggingface-hub==2.4.0"
    stand_in = tmp_path / "site" / "transformers"
    stand_in.mkdir(parents=True)
    (stand_in / "__init__.py").write_text(f"raise ImportError({why!r})\n")
    code = ("from m2lsp.cli import entry; import sys; "
            f"sys.argv = ['m2lsp', 'score', {str(tmp_path / 's')!r}, '--source', "
            f"{str(tmp_path / 's')!r}, '--metric', 'impara']; entry()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": os.pathsep.join(
                              [str(tmp_path / "site"), str(ROOT)])})
    assert done.returncode == 2, done.stderr
    assert why in done.stderr and "None is not installed" not in done.stderr
    assert "Traceback" not in done.stderr
