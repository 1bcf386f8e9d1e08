"""CGED evaluation: the NLP-TEA 2015 tool's report byte for byte, its counting and the
overview paper's, its number format; errors where the official tool stops."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from m2lsp.cli import main
from m2lsp.scoring.cged.report import java_number
from tests.conftest import SHARED_DATA

TOY = SHARED_DATA / "cged" / "cged2015" / "nlptea15cged_release1.0" / "Tool"
HSK = SHARED_DATA / "cged" / "cged2016" / "nlptea16cged_release1.0" / "Evaluation"

# the NLP-TEA 2015 overview's worked example (its text is garbled; these are its files)
TRUTH = """B1-1138, 7, 10, Disorder
A2-0087, 12, 13, Missing
A2-0904, correct
B1-0990, correct
A2-0789, 2, 3, Selection
B1-0295, correct
B2-0591, 3, 3, Redundant
A2-0920, correct
"""
RESULT = """B1-1138, 7, 8, Disorder
A2-0087, 12, 13, Missing
A2-0904, 5, 6, Missing
B1-0990, correct
A2-0789, 2, 5, Disorder
B1-0295, correct
B2-0591, 3, 3, Redundant
A2-0920, 4, 5, Selection
"""


def run(args: list[str]) -> tuple[int, bytes, str]:
    out, err = io.BytesIO(), io.StringIO()
    wrapper = io.TextIOWrapper(out, encoding="utf-8", newline="")
    with contextlib.redirect_stdout(wrapper), contextlib.redirect_stderr(err):
        code = main(["score", "--metric", "cged", *args])
        wrapper.flush()
    return code, out.getvalue(), err.getvalue()


RECORDED = [  # (report year, result, truth, the report the official tool wrote on Windows)
    ("2015", TOY / "NLPTEA15_Toy_Result.txt", TOY / "NLPTEA15_Toy_Truth.txt",
     TOY / "NLPTEA15_Toy_Evaluation.txt"),
    ("2016", HSK / "HSK_OutputFile.txt", HSK / "HSK_Truth.txt", HSK / "HSK_Evaluation.txt"),
]


@pytest.mark.parametrize("year, result, truth, report", RECORDED, ids=["2015", "2016"])
def test_the_recorded_reports_byte_for_byte(year, result, truth, report):
    if not report.is_file():
        pytest.skip(f"{report} is absent")
    code, out, _ = run(["--cged-report", year, "--cged-line-ends", "crlf", str(result),
                        str(truth)])
    assert code == 0
    assert out == report.read_bytes()


# The 2016 tool counts items, several per sentence.  Truth: s1 {S 6-7, R 8-8}, s2 correct,
# s3 {M 9-9, S 16-16}, s4 {W 19-25}.  Result: s1 {S 2-3, S 4-5, R 8-8}, s2 correct,
# s3 {M 9-9, S 16-19}, s4 {M 19-25}.  Identification: TP s1 S, s1 R, s3 M, s3 S; FP s4 M;
# TN s2; no FN item (s4 is not missed), so accuracy 5/6 but recall 4/5 (five truth types).
# Position: TP s1 8-8 R, s3 9-9 M; FP s1 2-3, s1 4-5, s3 16-19, s4 19-25; TN s2: 3/7, 2/6, 2/5.
HSK_TRUTH = "s1, 6, 7, S\ns1, 8, 8, R\ns2, correct\ns3, 9, 9, M\ns3, 16, 16, S\ns4, 19, 25, W\n"
HSK_RESULT = ("s1, 2, 3, S\ns1, 4, 5, S\ns1, 8, 8, R\ns2, correct\ns3, 9, 9, M\n"
              "s3, 16, 19, S\ns4, 19, 25, M\n")


def test_the_2016_counting_by_hand(tmp_path):
    (tmp_path / "t.txt").write_text(HSK_TRUTH)
    (tmp_path / "r.txt").write_text(HSK_RESULT)
    _, out, _ = run(["--cged-report", "2016", str(tmp_path / "r.txt"), str(tmp_path / "t.txt")])
    text = out.decode()
    assert text.startswith("NLP-TEA 2016 Shared Task\nChinese Grammatical Error Diagnosis\n\n"
                           "System Results: r.txt\nGold Standard: t.txt\n")
    assert ("Identification Level\n\tAccuracy = 0.8333 (5/6)\n\tPrecision = 0.8 (4/5)\n"
            "\tRecall = 0.8 (4/5)\n") in text
    assert text.endswith("Position Level\n\tAccuracy = 0.4286 (3/7)\n\tPrecision = 0.3333 "
                         "(2/6)\n\tRecall = 0.4 (2/5)\n\tF1-Score = 0.3636 "
                         "((2*0.3333*0.4)/(0.3333+0.4))")


# nlptea14cfl.jar's output on these files, as it printed it (ids lower-cased, the result's
# types as written, an empty identification list leaves its tab on the blank line)
REPORT_2014 = (
    "NLPTEA 2014 Shared Task\nGrammatical Error Diagnosis for Learning Chinese as a Foreign "
    "Language\n\n" + "=" * 58 + "\nPart 1: Overall Performance\n" + "=" * 58 + "\n\n"
    "False Positive Rate = 0 (0/1)\n\nDetection Level\n\tAccuracy = 1 (3/3)\n"
    "\tPrecision = 1 (2/2)\n\tRecall = 1 (2/2)\n\tF1-Score = 1 ((2*1*1)/(1+1))\n\n"
    "Identification Level\n\tAccuracy = 0.6667 (2/3)\n\tPrecision = 1 (1/1)\n"
    "\tRecall = 0.5 (1/2)\n\tF1-Score = 0.6667 ((2*1*0.5)/(1+0.5))\n\n\n\n" + "=" * 58
    + "\nPart 2: Details\n" + "=" * 58 + "\n\nDetection Level\n\n\t#TP:\n\ta2 | a3\n\n"
    "\t#FP:\n\t\n\n\t#TN:\n\ta1\n\n\t#FN:\n\t\n\n\nIdentification Level\n\n\t#TP:\n"
    "\t(a2, MISSING) \n\n\t#FP:\n\t\n\t#TN:\n\t(a1, Correct) \n\n\t#FN:\n"
    "\t(a3, Redundant) \n\n")


def test_the_2014_report(tmp_path):
    (tmp_path / "t.txt").write_text("A1, correct\na2, Missing\na3, Missing\n")
    (tmp_path / "r.txt").write_text("a1, Correct\nA2, MISSING\na3, Redundant\n")
    code, out, _ = run(["--cged-report", "2014", str(tmp_path / "r.txt"),
                        str(tmp_path / "t.txt")])
    assert code == 0 and out.decode() == REPORT_2014


@pytest.fixture
def example(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "truth.txt").write_text(TRUTH)
    (tmp_path / "result.txt").write_text(RESULT)
    return str(tmp_path / "result.txt"), str(tmp_path / "truth.txt")


def levels(out: bytes) -> dict:
    data = json.loads(out)
    return {name: tuple(round(v, 4) for v in (level["accuracy"], level["precision"],
                                              level["recall"], level["f1"]))
            for name, level in data["levels"].items() if name != "correction"} | {
        "fpr": data["false_positive_rate"]}


# the paper's table, and the official tool's where it differs (see m2lsp.scoring.cged.levels)
PAPER = {"fpr": 0.5, "detection": (0.75, 0.6667, 1.0, 0.8),
         "identification": (0.625, 0.5, 0.75, 0.6), "position": (0.5, 0.3333, 0.5, 0.4)}
OFFICIAL = PAPER | {"identification": (0.625, 0.6, 0.75, 0.6667),
                    "position": (0.5, 0.5, 0.5, 0.5)}


@pytest.mark.parametrize("counting, expected", [("official", OFFICIAL), ("paper", PAPER)])
def test_the_overview_example(example, counting, expected):
    code, out, _ = run(["--format", "json", "--cged-counting", counting, *example])
    assert code == 0
    assert levels(out) == expected


def test_the_overview_example_report_lines(example):
    _, out, _ = run(["--cged-report", "2015", *example])
    text = out.decode()
    assert "False Positive Rate = 0.5 (2/4)\n" in text
    assert "\tPrecision = 0.6 (3/5)\n" in text and "\tPrecision = 0.5 (2/4)\n" in text
    assert "\tF1-Score = 0.6667 ((2*0.6*0.75)/(0.6+0.75))\n" in text
    assert "\t(B1-1138, 7, 8, Disorder) | (A2-0789, 2, 5, Disorder) \n" in text  # position FN


@pytest.mark.parametrize("value, printed", [
    (1.0, "1"), (0.0, "0"), (float("nan"), "NaN"), (2 / 3, "0.6667"), (0.125, "0.125"),
    (0.5, "0.5"), (0.00015, "0.0002"),  # half-up on the shortest form, not on the double
    (10.0, "1"),  # the tool cuts zeros before the point too
])
def test_numbers_print_as_the_jar_prints_them(value, printed):
    assert java_number(value) == printed


def test_nothing_flagged_prints_nan(tmp_path):
    (tmp_path / "t.txt").write_text("a1, correct\na2, 3, 4, Missing\n")
    (tmp_path / "r.txt").write_text("a1, correct\na2, correct\n")
    _, out, _ = run(["--cged-report", "2015", str(tmp_path / "r.txt"), str(tmp_path / "t.txt")])
    assert "\tF1-Score = NaN ((2*NaN*0)/(NaN+0))\n" in out.decode()


@pytest.mark.parametrize("truth, result, message", [
    ("a, correct\nb, correct\n", "a, correct\n", "1 truth id(s) with no result line, first 'b'"),
    ("a, correct\n", "a, correct\nc, correct\n", "1 result id(s) not in the truth, first 'c'"),
    ("a, 1, correct\n", "a, correct\n", "has 3 comma-separated fields"),
])
def test_where_the_official_tool_stops_m2lsp_says_why(tmp_path, truth, result, message):
    (tmp_path / "t.txt").write_text(truth)
    (tmp_path / "r.txt").write_text(result)
    code, out, err = run([str(tmp_path / "r.txt"), str(tmp_path / "t.txt")])
    assert code == 2 and not out and message in err


JAR = os.environ.get("M2LSP_NLPTEA15_JAR")
JAR16 = os.environ.get("M2LSP_NLPTEA16_JAR")


@pytest.mark.skipif(not JAR or not shutil.which("java"),
                    reason="set M2LSP_NLPTEA15_JAR to nlptea15cged.jar (blcuicall/cged_datasets)")
def test_random_files_against_the_official_jar(tmp_path):
    rng = random.Random(15)
    types = ["Missing", "missing", "Redundant", "Selection", "Disorder"]
    for _ in range(60):
        truth, result = [], []
        for i in range(rng.randint(1, 8)):
            truth.append(f"s{i}, correct" if rng.random() < 0.4 else
                         f"s{i}, {rng.randint(1, 5)}, {rng.randint(5, 8)}, {rng.choice(types)}")
            result.append(truth[-1] if rng.random() < 0.3 else
                          f"s{i}, correct" if rng.random() < 0.4 else
                          f"s{i},{rng.randint(1, 5)},{rng.randint(5, 8)},{rng.choice(types)}")
        rng.shuffle(result)
        assert_same_as_jar(tmp_path, truth, result, [JAR, "-i"], "2015")


def assert_same_as_jar(tmp_path, truth: list[str], result: list[str], jar: list[str],
                       year: str) -> None:
    """The jar's -o report and `m2lsp score --cged-report YEAR`, byte for byte."""
    (tmp_path / "t.txt").write_text("\n".join(truth) + "\n")
    (tmp_path / "r.txt").write_text("\n".join(result) + "\n")
    subprocess.run(["java", "-jar", jar[0], "-t", str(tmp_path / "t.txt"), jar[1],
                    str(tmp_path / "r.txt"), "-o", str(tmp_path / "o.txt")],
                   capture_output=True, check=True)
    found = subprocess.run([sys.executable, "-m", "m2lsp", "score", "--metric", "cged",
                            "--cged-report", year, str(tmp_path / "r.txt"),
                            str(tmp_path / "t.txt")], capture_output=True, check=True)
    assert found.stdout == (tmp_path / "o.txt").read_bytes()


@pytest.mark.skipif(not JAR16 or not shutil.which("java"),
                    reason="set M2LSP_NLPTEA16_JAR to nlptea16cged.jar (blcuicall/cged_datasets)")
def test_random_files_against_the_official_2016_jar(tmp_path):
    rng = random.Random(16)

    def error(sid: str) -> str:
        start = rng.randint(1, 6)
        return f"{sid}, {start}, {start + rng.randint(0, 2)}, {rng.choice('MRSWm')}"

    for _ in range(60):
        truth, result = [], []
        for i in range(rng.randint(1, 7)):
            sid = f"0{i}"
            truth += [f"{sid}, correct"] if rng.random() < 0.35 else [
                error(sid) for _ in range(rng.randint(1, 3))]
            result += ([x for x in truth if x.startswith(sid + ",")] if rng.random() < 0.3
                       else [f"{sid}, correct"] if rng.random() < 0.35
                       else [error(sid) for _ in range(rng.randint(1, 3))])
        rng.shuffle(result)
        assert_same_as_jar(tmp_path, truth, result, [JAR16, "-r"], "2016")


# -- 2018-2021: evaluation.pl -----------------------------------------------------------

# a1, a4 correct; the system flags a1 and marks a4 both correct and erroneous (erroneous
# wins).  FPR 2/2.  Detection, identification, position: P 2/4, R 2/2, F 2/3.  Corrections:
# the truth's "的, 地" splits into two answers, so 3 expected, 2 claimed, 2 found: P 1,
# R 2/3, F 0.8.  Composite 0.25 * (3 * 2/3 + 0.8) - 0.25 * 1 = 0.45.
TRUTH_2018 = "a1, correct\na2, 3, 4, S, 好\na3, 5, 5, M, 的, 地\na4, correct\n"
RESULT_2018 = "a1, 2, 2, R\na2, 3, 4, S, 好\na3, 5, 5, M, 地\na4, correct\na4, 1, 1, R\n"


def test_the_2018_script_by_hand(tmp_path):
    (tmp_path / "t.txt").write_text(TRUTH_2018, encoding="utf-8")
    (tmp_path / "r.txt").write_text(RESULT_2018, encoding="utf-8")
    report = tmp_path / "report.txt"
    code, out, _ = run(["--cged-report", "2018", "--cged-report-file", str(report),
                        str(tmp_path / "r.txt"), str(tmp_path / "t.txt")])
    text = out.decode()
    assert code == 0
    assert "False Positive Rate = 1 ( 2 / 2)" in text
    assert "Detction Level\nPre = 0.5 (2 / 4)\nRec = 1 (2 / 2)\nF1 = 0.666666666666667 " in text
    assert "Correction Level\nPre = 1 ( 2 / 2 )\nRec = 0.666666666666667 ( 2 / 3 )\nF1 = 0.8 " \
        in text
    assert text.endswith("\nComprehensive score = 0.45\n\n==========END===========\n\n")
    written = report.read_text(encoding="utf-8")
    assert written.startswith(f"CGED2021 Evaluation\n\nSystem Output:{tmp_path / 'r.txt'}\n")
    assert "Correction Level\nPre = 1.0000 (2 / 2)\nRec = 0.6667 (2 / 3)\nF1 = 0.8000 " in written


TRUTH_2018_REAL = SHARED_DATA / "cged" / "cged2018" / "test_truth0.txt"


@pytest.mark.skipif(not TRUTH_2018_REAL.is_file(), reason="../shared/data/cged/cged2018 is absent")
def test_a_crlf_truth_defeats_the_2018_correction_level(tmp_path):
    """The CGED 2018 truth has CRLF line ends: evaluation.pl keeps the CR in a truth answer
    but not in a result's, so even the truth scored against itself finds no correction."""
    truth = str(TRUTH_2018_REAL)
    _, out, _ = run(["--cged-report", "2018", truth, truth])
    assert "Correction Level\nPre = 0 (  / 3548 )\nRec = 0 (  / 3548 )" in out.decode()
    assert out.decode().endswith("Comprehensive score = 0.75\n\n==========END===========\n\n")
    lf = tmp_path / "truth.txt"
    lf.write_bytes(TRUTH_2018_REAL.read_bytes().replace(b"\r\n", b"\n"))
    _, out, _ = run(["--cged-report", "2018", str(lf), str(lf)])
    assert out.decode().endswith("Comprehensive score = 1\n\n==========END===========\n\n")


def test_where_the_2018_script_divides_by_zero_m2lsp_says_so(tmp_path):
    (tmp_path / "t.txt").write_text("a1, 3, 4, S\n")
    (tmp_path / "r.txt").write_text("a1, correct\n")
    code, out, err = run(["--cged-report", "2018", str(tmp_path / "r.txt"),
                          str(tmp_path / "t.txt")])
    assert code == 2 and not out and "Illegal division by zero" in err


PL = os.environ.get("M2LSP_CGED_EVALUATION_PL")


@pytest.mark.skipif(not PL or not shutil.which("perl") or not TRUTH_2018_REAL.is_file(),
                    reason="set M2LSP_CGED_EVALUATION_PL to evaluation.pl "
                    "(blcuicall/CCL2022-CLTC, metrics/track2)")
def test_random_files_against_evaluation_pl(tmp_path):
    rng = random.Random(18)
    lines = [x for x in TRUTH_2018_REAL.read_text(encoding="utf-8").split("\n") if x.strip()]
    for _ in range(40):
        start = rng.randrange(len(lines) - 40)
        truth = lines[start:start + rng.randint(5, 40)]
        result = []
        for line in truth:
            fields = line.split(",")
            if rng.random() < 0.15:
                continue
            if rng.random() < 0.2 and len(fields) >= 4:
                fields[3] = rng.choice(["\tR", "\tW", "\tM", "\tS"])
            if rng.random() < 0.1:
                fields = [f.strip() for f in fields]  # no whitespace: the script skips it
            result.append(",".join(fields))
        (tmp_path / "t.txt").write_text("\n".join(truth) + "\n", encoding="utf-8")
        (tmp_path / "r.txt").write_text("\n".join(result) + "\n", encoding="utf-8")
        expected = subprocess.run(["perl", PL, str(tmp_path / "r.txt"), str(tmp_path / "p.txt"),
                                   str(tmp_path / "t.txt")], capture_output=True)
        if b"division by zero" in expected.stderr:
            continue
        found = subprocess.run([sys.executable, "-m", "m2lsp", "score", "--metric", "cged",
                                "--cged-report", "2018", "--cged-report-file",
                                str(tmp_path / "o.txt"), str(tmp_path / "r.txt"),
                                str(tmp_path / "t.txt")], capture_output=True, check=True)
        assert found.stdout == expected.stdout
        assert (tmp_path / "o.txt").read_bytes() == (tmp_path / "p.txt").read_bytes()


TRUTH_2020 = SHARED_DATA / "cged" / "cged2020" / "truth_2020-m.txt"


@pytest.mark.skipif(not TRUTH_2020.is_file(), reason="../shared/data/cged/cged2020 is absent")
def test_the_gb18030_release_reads_with_encoding_and_is_a_clear_error_without():
    truth = str(TRUTH_2020)
    code, out, err = run(["--cged-report", "2018", truth, truth])
    assert code == 2 and not out and "gb18030" in err.lower()
    code, out, _ = run(["--cged-report", "2018", "--encoding", "gb18030", truth, truth])
    assert code == 0
    assert out.decode().startswith("Correct Units: ")
    assert "Identification Level\nPre = 1 (" in out.decode()


def test_the_correction_level_and_the_2016_counting(tmp_path):
    """m2lsp's own scoring reads answers (2020-2021 truth) and scores the top-1 correction
    of S and M errors; --cged-counting 2016 counts several errors per sentence."""
    (tmp_path / "t.txt").write_text("s1, 3, 4, S, 好, 很好\ns1, 6, 6, M, 的\ns2, correct\n",
                                    encoding="utf-8")
    (tmp_path / "r.txt").write_text("s1, 3, 4, S, 很好, 好\ns1, 6, 6, M, 地\ns2, correct\n",
                                    encoding="utf-8")
    code, out, err = run(["--format", "json", "--cged-counting", "2016",
                          str(tmp_path / "r.txt"), str(tmp_path / "t.txt")])
    data = json.loads(out)
    assert code == 0 and not err
    assert data["levels"]["correction"] == {"precision": 0.5, "recall": 0.5, "f1": 0.5,
                                            "true_positives": 1, "claimed": 2, "expected": 2}
    assert data["levels"]["position"]["precision"] == 1.0
    code, default, err = run(["--format", "json", str(tmp_path / "r.txt"),
                              str(tmp_path / "t.txt")])
    assert code == 0 and default == out  # letters: 2016 on, so the 2016 counting
    code, _, err = run(["--cged-counting", "official", str(tmp_path / "r.txt"),
                        str(tmp_path / "t.txt")])
    assert code == 0 and "--cged-counting 2016 counts every error" in err


@pytest.mark.parametrize(("truth", "counting"), [
    ("a, 1, 2, Selection\nb, correct\n", "official"),
    ("a, Selection\nb, correct\n", "official"),
    ("a, 1, 2, S\nb, correct\n", "2016"),
    ("a,\t1,\t2,\tS,\t好\n", "2016"),
    ("a, correct\n", "official"),
])
def test_the_default_counting_follows_the_truths_year(truth, counting) -> None:
    from m2lsp.scoring.cged.metric import counting_of

    assert counting_of(truth, Path("t.txt")) == counting


@pytest.mark.parametrize("truth", ["a, 1, 2, Selection\nb, 3, 3, M\n", "a, 1, 2, X\n"])
def test_a_truth_that_does_not_tell_its_year_names_the_option(truth) -> None:
    from m2lsp.errors import UsageError
    from m2lsp.scoring.cged.metric import counting_of

    with pytest.raises(UsageError, match=r"--cged-counting official .* or 2016"):
        counting_of(truth, Path("t.txt"))


def test_the_2016_sample_prints_the_2016_tools_numbers_by_default():
    """The official 2016 tool prints Identification F1 0.8 and Position 0.3636 on its
    HSK sample; the 2015 counting (the default before) gave 0.9091 and 0.6667."""
    from tests.conftest import shared

    folder = shared("cged/cged2016/nlptea16cged_release1.0/Evaluation")
    code, out, _ = run(["--format", "json", str(folder / "HSK_OutputFile.txt"),
                        str(folder / "HSK_Truth.txt")])
    levels = json.loads(out)["levels"]
    assert code == 0
    assert round(levels["identification"]["f1"], 4) == 0.8
    assert round(levels["position"]["f1"], 4) == 0.3636


def test_position_level_counts_per_type() -> None:
    """Per error type, position items as sets (the report's heatmap), worked by hand."""
    from m2lsp.scoring.cged.inputs import read_items
    from m2lsp.scoring.cged.levels import position_types

    truth = read_items("1, 2, 3, R\n1, 5, 5, M\n2, 1, 2, S\n3, correct\n4, 3, 4, Disorder\n",
                       "truth", "truth")
    result = read_items("1, 2, 3, r\n1, 6, 6, M\n2, 1, 2, W\n3, 2, 2, M\n4, 3, 4, W\n",
                        "result", "result")
    # R: 1 found (r is R).  M: 1,5,5 missed; 1,6,6 and 3,2,2 wrong.  S: missed.  W: 4,3,4
    # found (Disorder is W), 2,1,2 wrong: P 1/2, R 1, F1 2/3
    assert position_types(result, truth) == (
        ("M", 0, 2, 1, 0.0), ("R", 1, 0, 0, 1.0), ("S", 0, 0, 1, 0.0),
        ("W", 1, 1, 0, pytest.approx(2 / 3)))


def test_no_correction_is_n_a_not_nan(tmp_path, capsys):
    """m2lsp's own table (not the official reports, which print NaN): a result with no
    correction has no correction precision (0/0) and no F1."""
    truth = "12345,\t25,\t26,\tS,\t影响\n12346,\t1,\t6,\tW\n12348,\tcorrect\n"
    result = "12345,\t25,\t26,\tS\n12346,\t1,\t6,\tW\n12348,\tcorrect\n"
    (tmp_path / "t.txt").write_text(truth, encoding="utf-8")
    (tmp_path / "r.txt").write_text(result, encoding="utf-8")
    assert main(["score", "--metric", "cged", str(tmp_path / "r.txt"),
                 str(tmp_path / "t.txt")]) == 0
    correction = next(line for line in capsys.readouterr().out.splitlines()
                      if line.startswith("Correction"))
    assert "NaN" not in correction and correction.split()[1:4] == ["n/a", "0", "n/a"]
