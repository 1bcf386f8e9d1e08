"""`m2lsp annotate --lang zh` and `score --metric cherrant` against ChERRANT's own
`parallel_to_m2.py -g char` and `compare_m2_for_evaluation.py`, run in place beside them
(`cherrant.py`): the same bytes and the same printed scores, on MuCGEC's demo, on the
corrections of NLPCC-2018's test set and on random char-level edits of its sentences."""

from __future__ import annotations

import random

import pytest

from tests.annotation.cherrant import data, random_pairs, run
from tests.annotation.conftest import m2lsp
from tests.conftest import shared

RANDOM_ROWS = 250


def _sentences() -> list[str]:
    gold = shared("nlpcc2018/nlpcc18.gold").read_text("utf-8")
    return ["".join(line.split()[1:]) for line in gold.split("\n") if line.startswith("S ")]


def _para(rows: list[tuple[str, list[str]]]) -> str:
    return "".join("\t".join([str(i), source, *targets]) + "\n"
                   for i, (source, targets) in enumerate(rows, 1))


@pytest.fixture(scope="module")
def random_files(tmp_path_factory):
    """Random rows (references with one to three targets, a hypothesis with one), as
    ChERRANT's parallel file, and ChERRANT's M2 of each."""
    where = tmp_path_factory.mktemp("cherrant")
    rng = random.Random(20261125)
    refs = random_pairs(_sentences(), rng, RANDOM_ROWS)
    hyps = [(source, [random_pairs([source], rng, 1)[0][1][0]]) for source, _ in refs]
    for name, rows in (("ref", refs), ("hyp", hyps)):
        (where / f"{name}.para").write_text(_para(rows), "utf-8")
        run("parallel_to_m2.py", ["-f", str(where / f"{name}.para"), "-o",
                                  str(where / f"{name}.m2"), "-g", "char"], where)
    (where / "src.txt").write_text("".join(s + "\n" for s, _ in hyps), "utf-8")
    (where / "hyp.txt").write_text("".join(t[0] + "\n" for _, t in hyps), "utf-8")
    return where


def test_the_demo_is_written_as_published(tmp_path) -> None:
    out = tmp_path / "demo.m2"
    done = m2lsp("annotate", "--lang", "zh", "--parallel",
                 str(shared("mucgec/demo.hyp.para")), "-o", str(out), "--cherrant-data",
                 str(data()))
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == shared("mucgec/demo.hyp.m2.char").read_bytes()


@pytest.mark.slow
@pytest.mark.parametrize(("ours", "theirs"), [
    ([], []),
    (["--strategy", "first"], ["-s", "first"]),
    (["--no-simplified"], ["--no_simplified"]),
], ids=["default", "first", "no-simplified"])
def test_random_edits_are_annotated_as_parallel_to_m2(random_files, ours, theirs) -> None:
    where = random_files
    expected = where / f"expected{len(theirs)}{'-'.join(theirs)}.m2"
    run("parallel_to_m2.py", ["-f", str(where / "ref.para"), "-o", str(expected), "-g",
                              "char", *theirs], where)
    out = where / "ours.m2"
    done = m2lsp("annotate", "--lang", "zh", "--parallel", str(where / "ref.para"), "-o",
                 str(out), "--cherrant-data", str(data()), *ours)
    assert done.returncode == 0, done.stderr
    assert out.read_text("utf-8") == expected.read_text("utf-8")


@pytest.mark.slow
def test_nlpcc_corrections_are_annotated_as_parallel_to_m2(tmp_path) -> None:
    """The first 600 sentences of NLPCC-2018's test set with their gold corrections."""
    gold = shared("nlpcc2018/nlpcc18.gold")
    para = m2lsp("convert", "--to", "parallel", "--no-spaces", "--skip-unconvertible",
                 str(gold)).stdout.split("\n")[:600]
    (tmp_path / "in.para").write_text("".join(f"{i}\t{line}\n" for i, line in
                                              enumerate(para, 1)), "utf-8")
    run("parallel_to_m2.py", ["-f", str(tmp_path / "in.para"), "-o",
                              str(tmp_path / "expected.m2"), "-g", "char"], tmp_path)
    done = m2lsp("annotate", "--lang", "zh", "--parallel", str(tmp_path / "in.para"),
                 "--cherrant-data", str(data()), "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (tmp_path / "expected.m2").read_text("utf-8")


def test_source_and_corrected_files_read_as_the_parallel_file(random_files) -> None:
    where = random_files
    done = m2lsp("annotate", "--lang", "zh", "--orig", str(where / "src.txt"), "--cor",
                 str(where / "hyp.txt"), "--cherrant-data", str(data()))
    assert done.returncode == 0, done.stderr
    assert done.stdout == (where / "hyp.m2").read_text("utf-8")


# compare_m2_for_evaluation.py's flags, and m2lsp score's spelling of them
FLAGS = [
    ([], []), (["-cse"], ["--cse"]), (["-ds"], ["--ds"]), (["-dt"], ["--dt"]),
    (["-cat", "1"], ["--cat", "1"]), (["-cat", "2"], ["--cat", "2"]),
    (["-cat", "3"], ["--per-type"]), (["-single"], ["--single"]), (["-multi"], ["--multi"]),
    (["-filt", "S", "W"], ["--filt", "S", "W"]), (["-v"], ["-v"]), (["-b", "1.0"], ["--beta", "1"]),
    (["--max_answer_num", "1"], ["--max-answer-num", "1"]),
    (["--reference_num", "2"], ["--reference-num", "2"]),
]


@pytest.mark.parametrize(("theirs", "ours"), FLAGS, ids=[" ".join(t) or "cs" for t, _ in FLAGS])
def test_scores_are_printed_as_compare_m2_for_evaluation(random_files, theirs, ours) -> None:
    where = random_files
    for hyp, ref in ((where / "hyp.m2", where / "ref.m2"),
                     (shared("mucgec/demo.hyp.m2.char"), shared("mucgec/demo.ref.m2.char"))):
        expected = run("compare_m2_for_evaluation.py", ["-hyp", str(hyp), "-ref", str(ref),
                                                        *theirs], where)
        done = m2lsp("score", "--metric", "cherrant", str(hyp), str(ref), *ours)
        assert done.returncode == 0, done.stderr
        assert done.stdout == expected


@pytest.mark.parametrize("hypothesis", ["hyp.txt", "hyp.para"])
def test_plain_text_is_scored_in_one_step(random_files, hypothesis) -> None:
    """A plain-text hypothesis (its source given) or ChERRANT's parallel file: the two
    reference steps' numbers."""
    where = random_files
    expected = run("compare_m2_for_evaluation.py", ["-hyp", str(where / "hyp.m2"), "-ref",
                                                    str(where / "ref.m2")], where)
    done = m2lsp("score", "--metric", "cherrant", str(where / hypothesis),
                 str(where / "ref.m2"), "--source", str(where / "src.txt"), "--cherrant-data",
                 str(data()))
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected
    assert "annotator:cherrant-char" in done.stderr


def test_errant_on_cherrant_files_names_the_cherrant_metric() -> None:
    done = m2lsp("score", "--metric", "errant", str(shared("mucgec/demo.hyp.m2.char")),
                 str(shared("mucgec/demo.ref.m2.char")))
    assert done.returncode == 0
    assert "--metric cherrant" in done.stderr


def test_the_punctuation_marks_are_chinese_errants(tmp_path) -> None:
    """The marks that change costs and merging, character for character."""
    from m2lsp.annotation.chinese_align import PUNCTUATION
    from m2lsp.annotation.chinese_edits import MERGE_PUNCTUATION

    (tmp_path / "marks.py").write_text(
        "import sys\nsys.path.insert(0, '.')\nfrom modules.alignment import punct\n"
        "from modules.merger import Merger\nfrom string import punctuation\n"
        "print(ascii(punct))\nprint(ascii(Merger().punctuation[len(punctuation):]))\n",
        "utf-8")
    theirs = run(str(tmp_path / "marks.py"), [], tmp_path).split("\n")
    assert theirs[:2] == [ascii(PUNCTUATION), ascii(MERGE_PUNCTUATION)]


def test_convert_annotates_parallel_text_as_annotate_does(tmp_path) -> None:
    """`convert --to m2` on `convert --to parallel --header`'s output: the M2 `annotate`
    writes for the same columns."""
    parallel = m2lsp("convert", "--to", "parallel", "--header",
                     str(shared("mucgec/demo.ref.m2.char"))).stdout
    (tmp_path / "in.tsv").write_text(parallel, "utf-8")
    rows = [line.split("\t") for line in parallel.splitlines()[1:]]
    names = []
    for k in range(len(rows[0])):
        names.append(tmp_path / f"column{k}.txt")
        names[-1].write_text("".join(row[k] + "\n" for row in rows), "utf-8")
    converted = m2lsp("convert", "--to", "m2", str(tmp_path / "in.tsv"), "--cherrant-data",
                      str(data()))
    annotated = m2lsp("annotate", "--lang", "zh", "--orig", str(names[0]), "--cor",
                      *map(str, names[1:]), "--cherrant-data", str(data()))
    assert converted.returncode == 0, converted.stderr
    assert "annotating as Chinese" in converted.stderr
    assert converted.stdout == annotated.stdout
    assert converted.stdout.count("\nT1") == len(rows)


def test_convert_refuses_ragged_parallel_text(tmp_path) -> None:
    (tmp_path / "in.tsv").write_text("我 去\t我 去 了\n他 来\n", "utf-8")
    done = m2lsp("convert", "--to", "m2", str(tmp_path / "in.tsv"), "--lang", "zh",
                 "--cherrant-data", str(data()))
    assert done.returncode == 2
    assert "in.tsv:2: 1 columns, but line 1 has 2" in done.stderr
