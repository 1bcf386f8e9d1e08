"""The gec-metrics variants beside the authors' tools, each against gec-metrics 0.1.2 itself
(installed in the test environment, run beside):

- `--metric gleu --gleu-variant gec-metrics`: its `GLEU` class, corpus and sentence level;
  the class is loaded from the installed package's files without the package's `__init__`
  (which imports torch and its LLM metric), so the comparison runs in a second;
- `--metric errant --errant-variant gec-metrics`: its `ERRANT` class's choice of reference
  on F at full precision (errant_compare rounds F to 4 decimals first).
"""

from __future__ import annotations

import importlib.util
import json
import sys
import types
from pathlib import Path

import pytest

from m2lsp.cli import main
from tests.conftest import shared

GOLD = "conll2014/gold/official-2014.combined.m2"
HEAD = 300  # CoNLL-2014 sentences the comparisons run on


def gec_metrics_module(name: str) -> types.ModuleType:
    """gec-metrics' `metrics/NAME.py`, imported under a private package name whose path is
    the installed package's `metrics/` folder: its relative imports (`.base`, `.green`)
    resolve there, and the package's `__init__` never runs.  `base.py` imports
    `gecommon.apply_edits` (which loads spaCy, 4 s), never called by GLEU: an empty
    `gecommon` stands in while it is imported, and is taken away after."""
    spec = importlib.util.find_spec("gec_metrics")
    if spec is None or spec.submodule_search_locations is None:
        pytest.skip("gec-metrics is not installed (scripts/test installs it)")
    for needed in ("gecommon", "trueskill"):
        if importlib.util.find_spec(needed) is None:
            pytest.skip(f"{needed} (a gec-metrics dependency) is not installed")
    folder = Path(next(iter(spec.submodule_search_locations))) / "metrics"
    package = "_gec_metrics_metrics"
    if package not in sys.modules:
        stub = types.ModuleType(package)
        stub.__path__ = [str(folder)]
        sys.modules[package] = stub
    lent = "gecommon" not in sys.modules
    if lent:
        gecommon = types.ModuleType("gecommon")
        gecommon.apply_edits = None  # type: ignore[attr-defined]
        sys.modules["gecommon"] = gecommon
    try:
        return importlib.import_module(f"{package}.{name}")
    finally:
        if lent:
            del sys.modules["gecommon"]


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


# gec-metrics' src/gec_metrics/metrics/gleu_test.py
SOURCES = ["This sentences contain gramamtical error .", "This is a sentence .",
           "This is no change .", "I bought a pen to write a letter to a friend ."]
HYPOTHESES = ["This sentence contains a grammatical error .",
              "the sentence was corrected into completely different one .",
              "This is no change .", "I bought a pen to write a letter to a friend ."]
REFERENCES = [["This sentence contains a grammatical error .", "dummy sentence .",
               "This is no change .", "I bought a pen to write a letter to the friend ."],
              ["These sentences contain grammatical errors .", "another dummy sentence .",
               "This is no change .",
               "I bought a pen to write the letter to the friend ."]]


@pytest.fixture(scope="module")
def conll(tmp_path_factory) -> dict[str, Path]:
    """The first HEAD sentences of CoNLL-2014: sources, the two annotators' corrected
    sentences, and three systems' outputs, one sentence a line."""
    from m2lsp.scoring.sentence_inputs import from_m2

    folder = tmp_path_factory.mktemp("conll")
    sources, references, _ = from_m2(shared(GOLD), None)
    files = {"src": write(folder / "src", sources[:HEAD])}
    for k in (0, 1):
        files[f"ref{k}"] = write(folder / f"ref{k}", [r[k] for r in references[:HEAD]])
    for system in ("AMU", "CAMB", "INPUT"):
        lines = shared(f"conll2014/systems/{system}").read_text(encoding="utf-8")
        files[system] = write(folder / system, lines.splitlines()[:HEAD])
    return files


def lines_of(path: Path) -> list[str]:
    """A file's lines as gec-metrics' readers give them (stripped)."""
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]


def gleu_json(capsys, system: Path, sources: Path, references: list[Path],
              *more: str) -> dict:
    assert main(["score", "--metric", "gleu", "--gleu-variant", "gec-metrics", "--format",
                 "json", "--sent", *more, str(system), "--source", str(sources), "--ref",
                 *map(str, references)]) == 0
    return json.loads(capsys.readouterr().out)


def test_gleu_equals_gec_metrics_on_its_own_test(tmp_path, capsys) -> None:
    gleu = gec_metrics_module("gleu")
    scorer = gleu.GLEU(gleu.GLEU.Config())
    src, hyp = write(tmp_path / "src", SOURCES), write(tmp_path / "hyp", HYPOTHESES)
    refs = [write(tmp_path / f"ref{k}", r) for k, r in enumerate(REFERENCES)]
    found = gleu_json(capsys, hyp, src, refs)
    assert found["gleu"] == scorer.score_corpus(SOURCES, HYPOTHESES, REFERENCES)
    assert found["sentence_scores"] == scorer.score_sentence(SOURCES, HYPOTHESES, REFERENCES)
    assert found["gleu"] == pytest.approx(0.2913773302697463, abs=1e-12)  # its test's value


@pytest.mark.parametrize("system", ["AMU", "CAMB", "INPUT"])
def test_gleu_equals_gec_metrics_on_conll(conll, system, capsys) -> None:
    gleu = gec_metrics_module("gleu")
    sources, hypotheses = lines_of(conll["src"]), lines_of(conll[system])
    references = [lines_of(conll["ref0"]), lines_of(conll["ref1"])]
    scorer = gleu.GLEU(gleu.GLEU.Config(iter=50))
    found = gleu_json(capsys, conll[system], conll["src"], [conll["ref0"], conll["ref1"]],
                      "--iter", "50")
    assert found["gleu"] == scorer.score_corpus(sources, hypotheses, references)
    assert found["sentence_scores"] == scorer.score_sentence(sources, hypotheses, references)


def test_gleu_variant_prints_as_gecmetrics_eval(conll, capsys) -> None:
    """`gecmetrics-eval` prints `Score=... | Metric=gleu | hyp_file=...`; the signature
    names the variant; the JFLEG variant's number differs."""
    argv = ["score", "--metric", "gleu", "--iter", "20", str(conll["AMU"]), "--source",
            str(conll["src"]), "--ref", str(conll["ref0"]), str(conll["ref1"])]
    assert main([*argv, "--gleu-variant", "gec-metrics"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Score=0.") and out.endswith(f" | Metric=gleu | hyp_file="
                                                       f"{conll['AMU']}\n")
    assert main([*argv, "--gleu-variant", "gec-metrics", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "scorer:gec-metrics-0.1.2-gleu" in data["signature"]
    assert main([*argv, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["gleu"] != data["gleu"]
    assert main([*argv, "--gleu-variant", "gec-metrics", "--fix-seed"]) == 2
    assert "--fix-seed" in capsys.readouterr().err


# --- ERRANT's choice of reference -------------------------------------------------------

def spacy_model() -> str:
    from tests.annotation.conftest import spacy_model as found

    return found()


@pytest.fixture(scope="module")
def seeda_references(tmp_path_factory) -> dict[str, Path]:
    """SEEDA's judged sentences and their two CoNLL-2014 references, plain text (what
    gec-metrics' download script makes as REF0.txt and REF1.txt)."""
    from m2lsp.metaeval.datasets import load
    from m2lsp.metaeval.scores import gold_for
    from m2lsp.scoring.sentence_inputs import from_m2

    folder = tmp_path_factory.mktemp("seeda")
    dataset = load("seeda", shared("meta-eval"), None, "fce", "test")
    gold = gold_for(dataset, shared(GOLD), folder)
    sources, references, _ = from_m2(gold, None)
    files = {"src": write(folder / "INPUT.txt", sources)}
    for k in (0, 1):
        files[f"ref{k}"] = write(folder / f"REF{k}.txt", [r[k] for r in references])
    return files


@pytest.mark.slow
def test_errant_chooses_references_as_gec_metrics_does(seeda_references, seeda_gec_metrics,
                                                       capsys) -> None:
    """SEEDA's PIE at beta 2: gec-metrics keeps references on F at full precision (F
    0.45817); errant_compare's choice on rounded F gives 0.45804.  gec-metrics' ERRANT runs
    in the SEEDA meta-evaluation's process (tests/conftest.py), on the same sentences and
    references as the files here, which it has parsed and annotated there already."""
    model = spacy_model()
    files = seeda_references
    pie = shared("meta-eval/seeda/outputs/subset/PIE.txt")
    theirs = seeda_gec_metrics["errant_pie_beta_2"]
    found = {}
    for variant in ("errant", "gec-metrics"):
        assert main(["score", "--metric", "errant", "--errant-variant", variant, "--beta", "2",
                     "--spacy-model", model, "--format", "json", str(pie), "--source",
                     str(files["src"]), "--ref", str(files["ref0"]), str(files["ref1"])]) == 0
        found[variant] = json.loads(capsys.readouterr().out)
    counts = found["gec-metrics"]["counts"]
    assert (counts["true_positives"], counts["false_positives"],
            counts["false_negatives"]) == (theirs["tp"], theirs["fp"], theirs["fn"])
    assert round(theirs["f"], 5) == 0.45817
    assert found["errant"]["f"] == 0.458  # 0.45804, as errant_compare prints it
    assert "choice:full-precision-f" in found["gec-metrics"]["signature"]
