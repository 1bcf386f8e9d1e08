"""GLEU: byte for byte what JFLEG's `eval/gleu.py` prints (run beside ours, read in place from
../shared/data/jfleg), what the `gleu` package prints with --fix-seed, and the NumPy/SciPy
numbers it rests on, bit for bit."""

from __future__ import annotations

import contextlib
import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from m2lsp.cli import main
from m2lsp.scoring.gleu import numeric
from m2lsp.scoring.gleu.inputs import lines
from m2lsp.scoring.gleu.sampling import jfleg_choices, python2_choices
from tests.conftest import SHARED_DATA

JFLEG = SHARED_DATA / "jfleg"
GLEU_PY = JFLEG / "eval" / "gleu.py"
np = pytest.importorskip("numpy", reason="the reference gleu.py needs NumPy")
scipy_stats = pytest.importorskip("scipy.stats", reason="the reference gleu.py needs SciPy")


def reference(hyp: Path, src: Path, refs: list[Path], sent: bool = False,
              more: tuple[str, ...] = ()) -> str:
    """What JFLEG's gleu.py prints, run with this Python."""
    if not GLEU_PY.is_file():
        pytest.skip(f"{GLEU_PY} is absent (JFLEG's eval/gleu.py)")
    argv = [sys.executable, str(GLEU_PY), "--src", str(src), "--hyp", str(hyp),
            "--ref", *map(str, refs), *(["--sent"] if sent else []), *more]
    return subprocess.run(argv, capture_output=True, text=True, check=True).stdout


def ours(capsys, argv: list[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


def jfleg(split: str) -> tuple[Path, list[Path]]:
    src = JFLEG / split / f"{split}.src"
    if not src.is_file():
        pytest.skip(f"{src} is absent (JFLEG data)")
    return src, [JFLEG / split / f"{split}.ref{k}" for k in range(4)]


@pytest.mark.parametrize("split", ["dev", "test"])
@pytest.mark.parametrize("sent", [False, True])
@pytest.mark.parametrize("hypothesis", ["src", "ref0"])
def test_jfleg_as_gleu_py_prints_it(capsys, split, sent, hypothesis) -> None:
    src, refs = jfleg(split)
    hyp = JFLEG / split / f"{split}.{hypothesis}"
    # ref0 against the other three: a "system" that differs from every reference
    used = refs[1:] if hypothesis == "ref0" else refs
    argv = ["score", "--metric", "gleu", str(hyp), "--source", str(src), "--ref",
            *map(str, used), *(["--sent"] if sent else [])]
    assert ours(capsys, argv) == reference(hyp, src, used, sent)


@pytest.mark.slow
@pytest.mark.parametrize("order", [1, 2, 3, 5])
@pytest.mark.parametrize("sent", [False, True])
def test_the_order_as_gleu_py_n(capsys, tmp_path, order, sent) -> None:
    """gleu.py -n: its corpus score counts at most 4-grams and every score divides by 4
    (on JFLEG dev's first 120 sentences)."""
    files = jfleg("dev")
    refs = [tmp_path / f.name for f in files[1]]
    for path in (files[0], *files[1]):
        head = path.read_text(encoding="utf-8").splitlines(keepends=True)[:120]
        (tmp_path / path.name).write_text("".join(head), encoding="utf-8")
    src, hyp = tmp_path / files[0].name, tmp_path / "hyp"
    hyp.write_text((tmp_path / files[1][3].name).read_text(encoding="utf-8"), "utf-8")
    argv = ["score", "--metric", "gleu", str(hyp), "--source", str(src), "--ref",
            *map(str, refs[:2]), "-n", str(order), *(["--sent"] if sent else [])]
    assert ours(capsys, argv) == reference(hyp, src, refs[:2], sent, ("-n", str(order)))


@pytest.mark.slow
@pytest.mark.parametrize("count", [1, 2, 3])
def test_any_number_of_references(capsys, count) -> None:
    src, refs = jfleg("dev")
    hyp = JFLEG / "dev" / "dev.ref3"
    for sent in (False, True):
        argv = ["score", "--metric", "gleu", str(hyp), "--source", str(src), "--ref",
                *map(str, refs[:count]), *(["--sent"] if sent else [])]
        assert ours(capsys, argv) == reference(hyp, src, refs[:count], sent)


WORDS = st.sampled_from(["a", "b", "c", "the", "cat", "sat", ".", "on"])
SENTENCE = st.lists(WORDS, max_size=9).map(" ".join)


@pytest.mark.slow
@settings(max_examples=10, deadline=None)  # gleu.py is a process each: 1.6 s an example
@given(rows=st.lists(st.tuples(SENTENCE, SENTENCE, SENTENCE, SENTENCE), min_size=1,
                     max_size=12),
       refs=st.integers(min_value=1, max_value=3), sent=st.booleans())
def test_random_files_as_gleu_py_prints_them(tmp_path_factory, rows, refs, sent) -> None:
    folder = tmp_path_factory.mktemp("gleu")
    paths = {name: folder / name for name in ("src", "hyp", "r0", "r1", "r2")}
    for k, name in enumerate(("src", "hyp", "r0", "r1", "r2")):
        column = [row[min(k, 3)] for row in rows]
        paths[name].write_text("".join(line + "\n" for line in column))
    used = [paths[f"r{k}"] for k in range(refs)]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["score", "--metric", "gleu", str(paths["hyp"]), "--source",
                     str(paths["src"]), "--ref", *map(str, used),
                     *(["--sent"] if sent else [])]) == 0
    assert out.getvalue() == reference(paths["hyp"], paths["src"], used, sent)


def test_references_from_an_m2_file(capsys, tmp_path) -> None:
    gold = tmp_path / "gold.m2"
    gold.write_text("S a cat sat .\nA 0 1|||R:DET|||the|||REQUIRED|||-NONE-|||0\n"
                    "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n\n"
                    "S on it\nA 1 2|||R:PRON|||them|||REQUIRED|||-NONE-|||1\n\n")
    (tmp_path / "hyp").write_text("the cat sat .\non it\n")
    (tmp_path / "src").write_text("a cat sat .\non it\n")
    (tmp_path / "r0").write_text("the cat sat .\non it\n")  # annotator 0: no line, no edit
    (tmp_path / "r1").write_text("a cat sat .\non them\n")
    by_m2 = ours(capsys, ["score", "--metric", "gleu", str(tmp_path / "hyp"), str(gold)])
    plain = reference(tmp_path / "hyp", tmp_path / "src", [tmp_path / "r0", tmp_path / "r1"])
    assert by_m2.splitlines()[1:] == plain.splitlines()[1:]


def test_json_and_signature(capsys) -> None:
    src, refs = jfleg("test")
    data = json.loads(ours(capsys, ["score", "--metric", "gleu", str(src), "--source",
                                    str(src), "--ref", *map(str, refs), "--format", "json"]))
    assert data["metric"] == "gleu" and round(data["gleu"], 6) == 0.40474
    assert data["signature"].startswith("GLEU|refs:4|iterations:500|order:4|")
    assert data["interval"][0] < data["gleu"] < data["interval"][1]


def test_usage_errors(capsys, tmp_path) -> None:
    (tmp_path / "h").write_text("a\n")
    (tmp_path / "two").write_text("a\nb\n")
    cases = [
        (["--ref", str(tmp_path / "h")], "needs --source"),
        ([], "needs references"),
        (["--source", str(tmp_path / "h"), "--ref", str(tmp_path / "two")], "has 2 lines"),
        (["--source", str(tmp_path / "h"), "--ref", str(tmp_path / "h"), "--bootstrap", "5"],
         "--bootstrap"),
    ]
    for extra, message in cases:
        assert main(["score", "--metric", "gleu", str(tmp_path / "h"), *extra]) == 2
        assert message in capsys.readouterr().err, extra
    with pytest.raises(SystemExit) as stop:  # checked where --iter is declared
        main(["score", "--metric", "gleu", str(tmp_path / "h"), "--source", str(tmp_path / "h"),
              "--ref", str(tmp_path / "h"), "--iter", "0"])
    assert stop.value.code == 2 and "argument --iter: expected an integer of at least 1" in (
        capsys.readouterr().err)


# -- the gleu package (Koyama; MultiGEC-2025) ------------------------------------------

@pytest.mark.slow
def test_fixed_seed_as_the_gleu_package_prints_it(capsys) -> None:
    pytest.importorskip("gleu.corpus_main", reason="the gleu package (PyPI: gleu)")
    src, refs = jfleg("test")
    for hyp in (src, JFLEG / "test" / "test.ref0"):
        for digits in (2, 4):
            expected = subprocess.run(
                [sys.executable, "-c", "from gleu.main import gleu; gleu()", "-s", str(src),
                 "-r", *map(str, refs[1:]), "-o", str(hyp), "-f", "-d", str(digits)],
                capture_output=True, text=True, check=True).stdout
            argv = ["score", "--metric", "gleu", str(hyp), "--source", str(src), "--ref",
                    *map(str, refs[1:]), "--fix-seed", "--digits", str(digits)]
            assert ours(capsys, argv) == expected


def test_python2_draws_are_the_gleu_package_draws() -> None:
    util = pytest.importorskip("gleu.util", reason="the gleu package (PyPI: gleu)")
    expected = util.make_id_rindex(20, 37, 3, fix=True).tolist()
    assert python2_choices(20, 37, 3) == expected


@pytest.mark.parametrize("refs", [1, 2, 3, 4, 5, 7])
def test_python3_draws_are_randint(refs) -> None:
    expected = []
    for j in range(30):
        random.seed(j * 101)
        expected.append([random.randint(0, refs - 1) for _ in range(50)])
    assert jfleg_choices(30, 50, refs) == expected


# -- NumPy and SciPy, bit for bit -------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(min_value=0, max_value=1, allow_nan=False), min_size=1,
                max_size=1100))
def test_mean_and_stdev_are_numpys(values) -> None:
    assert numeric.mean(values) == float(np.mean(values))
    assert numeric.stdev(values) == float(np.std(values))


@settings(max_examples=200, deadline=None)
@given(st.floats(min_value=-2, max_value=2), st.floats(min_value=0, max_value=2))
def test_the_interval_is_scipys(centre, scale) -> None:
    with np.errstate(invalid="ignore"):
        expected = scipy_stats.norm.interval(0.95, loc=centre, scale=scale)
    got = numeric.normal_interval(centre, scale)
    assert [repr(float(x)) for x in expected] == [repr(x) for x in got]


@pytest.mark.parametrize(("text", "expected"), [
    ("", []), ("a", ["a"]), ("a\n", ["a"]), ("a\n\n", ["a", ""]), ("a\r\nb\rc\n", ["a", "b", "c"]),
    ("a\x0bb\n", ["a\x0bb"]),  # a file's lines end only at \n, \r\n and \r
])
def test_lines_as_a_text_file_yields_them(text, expected) -> None:
    assert lines(text) == expected
