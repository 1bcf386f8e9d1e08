"""`m2lsp meta-eval` against the published numbers and the reference scripts:

- gec-metrics' tests score systems with a "metric" that is each hypothesis's length in
  characters and publish the correlations they expect (SEEDA system and sentence level,
  the window analysis, GJG15): given as score files, m2lsp reproduces every one;
- SEEDA's own `utils/corr_system.py`, `corr_sentence.py` and `window_analysis_system.py`
  (run beside, with NumPy and SciPy) print the same numbers for m2lsp's M2 scores;
- Expected Wins computed from GJG15's judgments.xml equal the paper's Table 3(b).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import m2lsp
from m2lsp.cli import main
from m2lsp.metaeval.datasets import GJG15_PUBLISHED, SEEDA_SUBSETS, SEEDA_SYSTEMS
from tests.conftest import shared

REL = 1e-12  # exact sums here, scipy's floating sums there: an ulp or two apart


@pytest.fixture(scope="module")
def data() -> Path:
    return shared("meta-eval/seeda").parent


def lines(path: Path) -> list[str]:
    """A system output as gec-metrics reads it: trailing blanks off every line."""
    return [s.rstrip() for s in path.read_text(encoding="utf-8").rstrip().split("\n")]


def outputs(data: Path, dataset: str) -> dict[str, Path]:
    if dataset == "seeda":
        return {s: data / "seeda" / "outputs" / "subset" / f"{s}.txt" for s in SEEDA_SYSTEMS}
    return {s: data / "gjg15" / "original" / "official_submissions" / s
            for s in GJG15_PUBLISHED["EW"]}


def length_files(data: Path, dataset: str, folder: Path) -> tuple[Path, Path]:
    """The length metric's system scores (SYSTEM<TAB>SCORE) and sentence scores (DIR/S.txt)."""
    scores, per_sentence = folder / f"{dataset}.tsv", folder / dataset
    per_sentence.mkdir()
    rows = []
    for system, path in outputs(data, dataset).items():
        hypotheses = lines(path)
        rows.append(f"{system}\t{sum(len(h) for h in hypotheses)}\n")
        (per_sentence / f"{system}.txt").write_text(
            "".join(f"{len(h)}\n" for h in hypotheses), encoding="utf-8")
    scores.write_text("".join(rows), encoding="utf-8")
    return scores, per_sentence


def meta_json(capsys, *args: str) -> dict:
    assert main(["meta-eval", "--format", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)


# gec-metrics 0.x, src/gec_metrics/meta_eval/{seeda,gjg}_test.py
GEC_METRICS_SEEDA = {
    "EW_edit": (0.42736690406501093, 0.4545454545454546),
    "EW_sent": (0.4532076150049142, 0.5454545454545455),
    "TS_edit": (0.4834645229702062, 0.5944055944055945),
    "TS_sent": (0.4880423593992749, 0.5524475524475525),
}
GEC_METRICS_SEEDA_SENTENCE = {"edit": (0.5365853658536586, 0.07317073170731707),
                              "sent": (0.5455708346658139, 0.09114166933162776)}
GEC_METRICS_WINDOWS_TS_EDIT = [  # window 4
    (-0.12719090478691203, 0.19999999999999998), (0.5900362463225375, 0.7999999999999999),
    (0.15518369973793955, 0.39999999999999997), (0.1205407475751627, 0.39999999999999997),
    (0.02436579076767783, 0.0), (-0.02121433684516863, 0.19999999999999998),
    (-0.16182645121353734, -0.39999999999999997), (-0.23114390326454237, -0.39999999999999997),
    (0.40786665626270313, 0.39999999999999997)]
GEC_METRICS_GJG15 = {"EW": (-0.175093788793105, -0.016483516483516484),
                     "TS": (-0.2232996476764572, -0.06043956043956044)}


def test_seeda_reproduces_gec_metrics_length_values(data, tmp_path, capsys) -> None:
    scores, per_sentence = length_files(data, "seeda", tmp_path)
    found = meta_json(capsys, "--data", str(data), "--scores", f"length={scores}",
                      "--sentence-scores", f"length={per_sentence}", "--window", "4")
    length = found["metrics"][0]
    for human, (pearson, spearman) in GEC_METRICS_SEEDA.items():
        assert length["system_level"][human]["pearson"] == pytest.approx(pearson, rel=REL)
        assert length["system_level"][human]["spearman"] == pytest.approx(spearman, rel=REL)
    for judged, (accuracy, kendall) in GEC_METRICS_SEEDA_SENTENCE.items():
        assert length["sentence_level"][judged]["accuracy"] == accuracy
        assert length["sentence_level"][judged]["kendall"] == kendall
    windows = [(w["pearson"], w["spearman"]) for w in length["windows"]
               if w["human"] == "TS_edit"]
    assert windows == [pytest.approx(w, rel=REL, abs=1e-15) for w in GEC_METRICS_WINDOWS_TS_EDIT]


def test_gjg15_reproduces_gec_metrics_length_values(data, tmp_path, capsys) -> None:
    scores, _ = length_files(data, "gjg15", tmp_path)
    found = meta_json(capsys, "--dataset", "gjg15", "--data", str(data), "--scores",
                      f"length={scores}")
    for human, (pearson, spearman) in GEC_METRICS_GJG15.items():
        level = found["metrics"][0]["system_level"][human]
        assert level["pearson"] == pytest.approx(pearson, rel=REL)
        assert level["spearman"] == pytest.approx(spearman, rel=REL)


def test_expected_wins_from_the_judgments_are_table_3b(data) -> None:
    from m2lsp.metaeval.run import ranking

    found = {s: v for s, v, _ in ranking(data / "gjg15" / "judgments.xml")}
    assert {s: round(v, 3) for s, v in found.items()} == GJG15_PUBLISHED["EW"]


def test_judgments_alone_print_the_ranking(data, capsys) -> None:
    assert main(["meta-eval", "--judgments", str(data / "gjg15" / "judgments.xml"),
                 "--digits", "3"]) == 0
    assert capsys.readouterr().out.splitlines()[1:3] == ["   1  AMU     0.628",
                                                         "   2  RAC     0.566"]


@pytest.mark.parametrize("runs", [[], ["--trueskill-runs", "2"]])
def test_the_ranking_has_a_header(data, capsys, runs) -> None:
    assert main(["meta-eval", "--judgments", str(data / "gjg15" / "judgments.xml"),
                 "--digits", "3", *runs]) == 0
    head = capsys.readouterr().out.splitlines()[0].split()
    assert head == ["rank", "system", "EW", *(["TrueSkill"] if runs else [])]


@pytest.mark.parametrize("aggregation", ["trueskill", "expected-wins"])
def test_the_footer_signature_names_the_aggregation(data, tmp_path, capsys,
                                                    aggregation) -> None:
    _, per_sentence = length_files(data, "seeda", tmp_path)
    args = ["meta-eval", "--data", str(data), "--sentence-scores", f"length={per_sentence}"]
    assert main([*args, "--aggregation", aggregation]) == 0
    footer = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert footer.startswith("META-EVAL|") and footer.endswith(f"|aggregation:{aggregation}")
    assert main(args) == 0
    assert "aggregation" not in capsys.readouterr().out.rstrip().splitlines()[-1]


# --- SEEDA's own scripts, run beside on m2lsp's M2 scores --------------------------------


@pytest.fixture(scope="module")
def m2_files(data, tmp_path_factory) -> tuple[Path, Path, Path]:
    """m2lsp's M2 scores of all 15 SEEDA systems in both layouts: SEEDA's (one score a line
    in alphabetical order; DIR/SYSTEM.txt) and m2lsp's SYSTEM<TAB>SCORE."""
    from m2lsp.metaeval.datasets import load
    from m2lsp.metaeval.scores import gold_for, metric_scores

    folder = tmp_path_factory.mktemp("seeda-m2")
    dataset = load("seeda", data, "all")
    gold = gold_for(dataset, shared("conll2014/gold/official-2014.combined.m2"), folder)
    m2 = metric_scores(dataset, "m2", gold)
    assert m2.sentences is not None
    column, table, per_sentence = folder / "m2.txt", folder / "m2.tsv", folder / "sentences"
    column.write_text("".join(f"{m2.system[s]!r}\n" for s in SEEDA_SYSTEMS), encoding="utf-8")
    table.write_text("".join(f"{s}\t{m2.system[s]!r}\n" for s in SEEDA_SYSTEMS),
                     encoding="utf-8")
    per_sentence.mkdir()
    for system, values in m2.sentences.items():
        (per_sentence / f"{system}.txt").write_text("".join(f"{v!r}\n" for v in values),
                                                    encoding="utf-8")
    return column, table, per_sentence


def run_script(script: Path, *args: str) -> list[tuple[str, float]]:
    """What one of SEEDA's scripts prints, as (name, number) in order."""
    out = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True,
                         check=True).stdout
    return [(k, float(v)) for k, v in re.findall(r"^(\w+): (\S+)$", out, re.MULTILINE)]


def ours(capsys, data: Path, files: tuple[Path, Path, Path], *args: str) -> dict:
    _, table, per_sentence = files
    return meta_json(capsys, "--data", str(data), "--scores", f"m2={table}",
                     "--sentence-scores", f"m2={per_sentence}", *args)["metrics"][0]


@pytest.mark.slow
@pytest.mark.parametrize("subset", list(SEEDA_SUBSETS))
def test_system_level_equals_corr_system(data, m2_files, capsys, subset) -> None:
    pytest.importorskip("scipy")
    found = ours(capsys, data, m2_files, "--systems", subset)["system_level"]
    for human in ("EW_edit", "EW_sent", "TS_edit", "TS_sent"):
        printed = dict(run_script(
            data / "seeda" / "utils" / "corr_system.py", "--human_score",
            str(data / "seeda" / "scores" / "human" / f"{human}.txt"), "--metric_score",
            str(m2_files[0]), "--systems", subset))
        assert found[human]["pearson"] == pytest.approx(printed["Pearson"], rel=REL), human
        assert found[human]["spearman"] == pytest.approx(printed["Spearman"], rel=REL), human


@pytest.mark.parametrize(("subset", "order"), [("base", "higher"), ("+INPUT", "higher"),
                                               ("+REF-F_GPT-3.5", "higher"), ("all", "higher"),
                                               ("base", "lower")])
def test_sentence_level_equals_corr_sentence(data, m2_files, capsys, subset, order) -> None:
    found = ours(capsys, data, m2_files, "--systems", subset, "--order",
                 order)["sentence_level"]
    for judged in ("edit", "sent"):
        printed = dict(run_script(
            data / "seeda" / "utils" / "corr_sentence.py", "--human_score",
            str(data / "seeda" / "data" / f"judgments_{judged}.xml"), "--metric_score",
            str(m2_files[2]), "--systems", subset, "--order", order))
        assert found[judged]["accuracy"] == printed["Accuracy"], judged
        assert found[judged]["kendall"] == printed["Kendall"], judged


@pytest.mark.parametrize("size", [4, 8])
def test_windows_equal_window_analysis_system(data, m2_files, capsys, size) -> None:
    pytest.importorskip("scipy")
    windows = ours(capsys, data, m2_files, "--window", str(size))["windows"]
    for human in ("TS_sent", "EW_edit"):
        printed = run_script(data / "seeda" / "utils" / "window_analysis_system.py",
                             "--human_score",
                             str(data / "seeda" / "scores" / "human" / f"{human}.txt"),
                             "--metric_score", str(m2_files[0]), "--window_size", str(size))
        mine = [(name, w[name.lower()]) for w in windows if w["human"] == human
                for name in ("Pearson", "Spearman")]
        assert [k for k, _ in mine] == [k for k, _ in printed]
        assert [v for _, v in mine] == [pytest.approx(v, rel=REL, abs=1e-15)
                                        for _, v in printed]


# --- what users give wrong -----------------------------------------------------------------


@pytest.mark.parametrize(("content", "message"), [
    ("BART\t0.5\n", "no score for BERT-fuse"),
    ("BART 0.5 0.6\n", "expected SYSTEM<TAB>SCORE"),
    ("BART\tnope\n", "expected SYSTEM<TAB>SCORE"),
    ("BART\t0.5\nBART\t0.6\n", "a second score for BART"),
])
def test_a_bad_score_file_is_a_clear_error(data, tmp_path, capsys, content, message) -> None:
    scores = tmp_path / "s.tsv"
    scores.write_text(content, encoding="utf-8")
    assert main(["meta-eval", "--data", str(data), "--scores", f"x={scores}"]) == 2
    assert message in capsys.readouterr().err


def test_no_data_folder_says_how_to_give_one(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.delenv("M2LSP_META_EVAL_DATA", raising=False)
    monkeypatch.chdir(tmp_path)
    scores = tmp_path / "s.tsv"
    scores.write_text("A\t1\n", encoding="utf-8")
    assert main(["meta-eval", "--scores", f"x={scores}"]) == 2
    assert "--data DIR, the setting meta-eval-data, or $M2LSP_META_EVAL_DATA" in (
        capsys.readouterr().err)


def test_nothing_to_meta_evaluate_is_a_usage_error(data, capsys) -> None:
    assert main(["meta-eval", "--data", str(data)]) == 2
    assert "nothing to meta-evaluate" in capsys.readouterr().err


# --- the API and the formats ----------------------------------------------------------------


def test_the_api_equals_the_command_line(data, m2_files, capsys) -> None:
    _, table, per_sentence = m2_files
    cli = meta_json(capsys, "--data", str(data), "--scores", f"m2={table}",
                    "--sentence-scores", f"m2={per_sentence}")
    api = m2lsp.meta_eval(data=data, scores={"m2": table}, sentence_scores={"m2": per_sentence})
    assert api.to_dict() == cli
    assert api.signature == "META-EVAL|seeda|systems:base|n:12"


@pytest.mark.parametrize(("format", "expected"), [
    ("text", "seeda (base, 12 systems): system level, Pearson / Spearman"),
    ("md", "| metric | SEEDA-E, Expected Wins |"),
    ("latex", "\\toprule"),
])
def test_every_format_renders(data, m2_files, capsys, format, expected) -> None:
    _, table, _ = m2_files
    assert main(["meta-eval", "--data", str(data), "--scores", f"m2={table}", "--format",
                 format]) == 0
    out = capsys.readouterr().out
    assert expected in out and "META-EVAL|seeda|systems:base|n:12" in out


def test_a_registry_metric_is_scored_here_with_intervals(data, m2_files, capsys) -> None:
    """`--metric m2` scores the systems itself (the same numbers as its scores given as
    files) and, having per-sentence statistics, resamples the sentences for intervals."""
    given = ours(capsys, data, m2_files)
    scored = meta_json(capsys, "--data", str(data), "--metric", "m2", "--gold",
                       str(shared("conll2014/gold/official-2014.combined.m2")),
                       "--bootstrap", "200")["metrics"][0]
    assert scored["sentence_level"] == given["sentence_level"]
    for human, level in scored["system_level"].items():
        assert level["pearson"] == pytest.approx(given["system_level"][human]["pearson"],
                                                 rel=REL)
        low, high = level["pearson_interval"]
        assert -1 <= low <= high <= 1


@pytest.mark.slow
def test_the_report_has_a_meta_eval_section(data, tmp_path, capsys) -> None:
    """`m2lsp report --meta-eval seeda`: the report's metric meta-evaluated (the numbers of
    `m2lsp meta-eval`), a table and one scatter plot per human score on the page."""
    gold = shared("conll2014/gold/official-2014.combined.m2")
    systems = [str(shared(f"conll2014/systems/{s}")) for s in ("CAMB", "AMU")]
    common = ["report", str(gold), *systems, "--meta-eval", "seeda", "--meta-eval-data",
              str(data), "--samples", "20"]
    assert main([*common, "--format", "json"]) == 0
    meta = json.loads(capsys.readouterr().out)["meta_eval"]
    alone = meta_json(capsys, "--data", str(data), "--metric", "m2", "--gold", str(gold))
    assert meta == alone
    page = tmp_path / "report.html"
    assert main([*common, "-o", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert 'id="meta-eval-table"' in html and 'id="fig-meta-eval-m2"' in html
    figure = html[html.index('id="fig-meta-eval-m2"'):]
    assert figure.count("SEEDA-S, TrueSkill") >= 1 and "TransGEC" in figure
    assert main([*common, "--format", "md"]) == 0
    table = capsys.readouterr().out
    assert "System level on seeda (base), Pearson / Spearman:" in table
    assert "| m2 | 0.7580 / 0.7692 |" in table


@pytest.mark.slow
def test_trueskill_from_the_judgments_agrees_with_table_3c(data) -> None:
    """One seeded TrueSkill run over GJG15's judgments.xml (WMT's settings) against the
    paper's Table 3(c), which averages many runs: the same order but for neighbours the
    paper puts in one cluster, and Pearson above 0.99; the same seed, the same numbers."""
    pytest.importorskip("trueskill")
    from m2lsp.metaeval.judgments import read_judgments, trueskill
    from m2lsp.metaeval.statistics import pearson, spearman

    judged = read_judgments(data / "gjg15" / "judgments.xml")
    found = trueskill(judged, runs=1, seed=7)
    published = GJG15_PUBLISHED["TS"]
    names = list(published)
    ours, theirs = [found[n] for n in names], [published[n] for n in names]
    assert pearson(ours, theirs) > 0.99 and spearman(ours, theirs) > 0.97
    assert trueskill(judged[:300], runs=1, seed=7) == trueskill(judged[:300], runs=1, seed=7)


def test_judgments_add_their_expected_wins_as_a_human_score(data, tmp_path, capsys) -> None:
    scores, _ = length_files(data, "gjg15", tmp_path)
    found = meta_json(capsys, "--dataset", "gjg15", "--data", str(data), "--scores",
                      f"length={scores}", "--judgments", str(data / "gjg15" / "judgments.xml"))
    assert found["human"]["EW:judgments.xml"] == "Expected Wins of judgments.xml"
    level = found["metrics"][0]["system_level"]
    # computed Expected Wins round to Table 3(b): nearly the published correlation
    assert level["EW:judgments.xml"]["pearson"] == pytest.approx(level["EW"]["pearson"],
                                                                 abs=5e-3)


# --- D5: NaN made a perfect correlation -----------------------------------------------------


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e309", "NaN"])
def test_a_score_that_is_not_finite_is_refused(data, tmp_path, capsys, value) -> None:
    """One system's score NaN gave Pearson 1.0000 in all four columns and exit 0."""
    scores, _ = length_files(data, "seeda", tmp_path)
    rows = scores.read_text("utf-8").splitlines()
    rows[3] = rows[3].split("\t")[0] + "\t" + value
    scores.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert main(["meta-eval", "--data", str(data), "--scores", f"x={scores}"]) == 2
    err = capsys.readouterr().err
    assert f"seeda.tsv:4: {rows[3].split()[0]}'s score {value!r} is not a finite number" in err


@pytest.mark.parametrize(("change", "message"), [
    (lambda v: [*v[:5], "nan", *v[6:]], "B.txt:6: 'nan' is not a finite number"),
    (lambda v: [*v[:5], "inf", *v[6:]], "B.txt:6: 'inf' is not a finite number"),
    (lambda v: [*v[:5], "", *v[6:]], "B.txt:6: a blank line"),
    (lambda v: [*v, "0.5"], "B.txt: N+1 sentence scores, more than the N sentences"),
    (lambda v: v[:-1], "B.txt: N-1 sentence scores, fewer than the N sentences"),
    (lambda v: ["nan"] * len(v), "B.txt:1: 'nan' is not a finite number"),
])
def test_sentence_scores_are_finite_and_one_a_line(data, tmp_path, capsys, change,
                                                   message) -> None:
    _, folder = length_files(data, "seeda", tmp_path)
    name = sorted(p.name for p in folder.iterdir())[1]
    path = folder / name
    values = path.read_text("utf-8").splitlines()
    path.write_text("\n".join(change(values)) + "\n", encoding="utf-8")
    assert main(["meta-eval", "--data", str(data), "--sentence-scores", f"x={folder}"]) == 2
    n = len(values)
    expected = message.replace("B.txt", name).replace("N+1", str(n + 1)).replace(
        "N-1", str(n - 1)).replace("the N ", f"the {n} ")
    assert expected in capsys.readouterr().err


def test_no_correlation_is_computed_over_values_that_are_not_finite() -> None:
    from m2lsp.metaeval.statistics import agreement, pearson, spearman

    for bad in (float("nan"), float("inf")):
        assert str(pearson([0.1, 0.2, bad, 0.4], [1, 2, 3, 4])) == "nan"
        assert str(spearman([0.1, 0.2, bad, 0.4], [1, 2, 3, 4])) == "nan"
        assert str(agreement([[1.0, 2.0]], [[0.5, bad]]).accuracy) == "nan"


def test_json_is_json_whatever_the_numbers(data, tmp_path, capsys) -> None:
    """A constant metric has no correlation: null in JSON, never a bare NaN."""
    scores, _ = length_files(data, "seeda", tmp_path)
    rows = [row.split("\t")[0] + "\t1.0" for row in scores.read_text("utf-8").splitlines()]
    scores.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert main(["meta-eval", "--data", str(data), "--scores", f"x={scores}",
                 "--format", "json"]) == 0
    out = capsys.readouterr().out
    assert "NaN" not in out and "Infinity" not in out
    data_ = json.loads(out)
    assert data_["metrics"][0]["system_level"]["EW_edit"]["pearson"] is None


def test_the_gold_is_read_once_for_every_system(data, monkeypatch) -> None:
    """A --gold at a path is read and parsed once, at the edge, and every metric scores
    every system against that (each read it again: GJG15's 13 systems, 13 times)."""
    import m2lsp.files.reading as reading
    import m2lsp.metaeval.scores as scores
    from m2lsp.metaeval.run import MetaEvalRequest, run
    from m2lsp.parsing.m2 import ParsedM2

    gold = shared("conll2014/gold/official-2014.combined.m2")
    reads: list[str] = []
    real = reading.read_bytes
    given: list = []

    def read(path, *args, **kwargs):
        reads.append(str(path))
        return real(path, *args, **kwargs)

    def scored(dataset, name, gold, *args):  # what every system would be scored against
        given.append(gold)
        raise _Enough

    monkeypatch.setattr(reading, "read_bytes", read)
    monkeypatch.setattr(scores, "metric_scores", scored)
    with pytest.raises(_Enough):
        run(MetaEvalRequest(dataset="gjg15", data=data, metrics=("gleu",), gold=gold))
    assert reads.count(str(gold)) == 1
    assert isinstance(given[0], ParsedM2) and given[0].name == str(gold)


class _Enough(Exception):
    """What the test needed is seen: the rest of the run is not."""
