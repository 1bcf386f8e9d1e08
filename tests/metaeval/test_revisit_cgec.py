"""`m2lsp meta-eval --dataset revisit-cgec` on RevisitCGEC's release with MuCGEC's and
YACLC's dev sets (the snapshots of wang136906578/RevisitCGEC, HillZhang1999/MuCGEC and
blcuicall/CCL2022-CLTC in ../shared/refs; ChERRANT's tables from the shared data): the
judged sentences found by their ids, Expected Wins as GJG15's `EW.pl` prints them, TrueSkill
as the mean of seeded runs, ChERRANT and CGEC metrics correlated, and the metrics that cannot
be scored on it refused."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from m2lsp.cli import main
from tests.conftest import refs, shared

FILES = {  # repository -> (path in its snapshot, where it goes)
    "wang136906578/RevisitCGEC": ("", "revisit-cgec"),
    "HillZhang1999/MuCGEC": ("data/MuCGEC/MuCGEC_dev.txt", "mucgec/MuCGEC_dev.txt"),
    "blcuicall/CCL2022-CLTC": ("datasets/track3/dev/yaclc-minimal_dev.para",
                               "yaclc/yaclc-minimal_dev.para"),
}


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("revisit")
    for repository, (inside, target) in FILES.items():
        found = refs(repository, inside)
        (folder / target).parent.mkdir(parents=True, exist_ok=True)
        if found.is_dir():
            shutil.copytree(found, folder / target)
        else:
            shutil.copyfile(found, folder / target)
    shutil.copytree(shared("mucgec/ChERRANT/data"), folder / "cherrant" / "data")
    return folder


@pytest.fixture(autouse=True)
def own_cache(tmp_path_factory, monkeypatch) -> None:
    monkeypatch.setenv("M2LSP_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))


def _meta(capsys, data: Path, *args: str) -> dict:
    assert main(["meta-eval", "--dataset", "revisit-cgec", "--data", str(data),
                 "--trueskill-runs", "3", "--format", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.slow
def test_human_scores_and_correlations(data, capsys) -> None:
    pytest.importorskip("trueskill")
    pytest.importorskip("pypinyin")
    pytest.importorskip("opencc")
    found = _meta(capsys, data, "--metric", "cherrant", "--metric", "cgec")
    assert found["system_names"] == ["bart", "char", "s2e", "spm", "t5", "word"]
    printed = subprocess.run(["perl", str(shared("meta-eval/gjg15/scripts/EW.pl"))],
                             stdin=(data / "revisit-cgec" / "judgments.xml").open("rb"),
                             capture_output=True, text=True)
    if printed.returncode == 0:  # EW.pl: "system 0.6394 (1, 1)" lines
        rows = [line.split() for line in printed.stdout.splitlines() if " (" in line]
        assert {r[0]: r[1] for r in rows} == {
            s: f"{v:.4f}" for s, v in found["human_scores"]["EW"].items()}
    from m2lsp.metaeval.judgments import read_judgments, trueskill

    expected = trueskill(read_judgments(data / "revisit-cgec" / "judgments.xml"), 3, 12345)
    assert found["human_scores"]["TS"] == expected
    assert "3 runs, seed 12345" in found["human"]["TS"]
    metrics = {m["metric"]: m for m in found["metrics"]}
    assert set(metrics) == {"cherrant", "cgec"}
    system = metrics["cherrant"]["system_level"]
    assert system["EW"]["pearson"] > 0.8 and system["TS"]["pearson"] > 0.8
    sentence = metrics["cherrant"]["sentence_level"]["rank"]
    assert 0.5 < sentence["accuracy"] < 0.8 and sentence["pairs"] > 5000


def test_the_judged_sentences_are_found_by_their_ids(data, capsys) -> None:
    from m2lsp.metaeval.datasets import load
    from m2lsp.metaeval.judgments import read_judgments

    dataset = load("revisit-cgec", data)
    judged = read_judgments(data / "revisit-cgec" / "judgments.xml")
    lines = dataset.judged_lines(judged)
    sources = dataset.prepared.sources.text.splitlines()  # made in memory
    dev = {"mucgec": (data / "mucgec" / "MuCGEC_dev.txt", 1),
           "yaclc": (data / "yaclc" / "yaclc-minimal_dev.para", 0)}
    for doc, (path, first) in dev.items():
        rows = {int(r.split("\t")[0]): r.split("\t")[1]
                for r in path.read_text(encoding="utf-8").splitlines() if r.strip()}
        for judgment, line in zip(judged, lines, strict=True):
            if judgment.doc == doc:  # src-id: the 0-based line of the dev file
                assert sources[line] == rows[judgment.sentence + first]
    assert len(sources) == 200 and sorted(set(lines)) == list(range(200))
    bart = dataset.output("bart").text.splitlines()
    release = (data / "revisit-cgec" / "system corrections" / "bart.yaclc.txt")
    assert bart[100:] == release.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("metric", ["gleu", "green"])
def test_whole_reference_metrics_are_refused(data, capsys, metric: str) -> None:
    assert main(["meta-eval", "--dataset", "revisit-cgec", "--data", str(data),
                 "--metric", metric, "--trueskill-runs", "3"]) == 2
    assert "its references vary in number" in capsys.readouterr().err


def test_a_folder_without_the_release_says_what_it_needs(tmp_path, capsys) -> None:
    assert main(["meta-eval", "--dataset", "revisit-cgec", "--data", str(tmp_path),
                 "--metric", "cherrant"]) == 2
    assert "wang136906578/RevisitCGEC" in capsys.readouterr().err
