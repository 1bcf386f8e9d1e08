"""`m2lsp errant-compare` and `m2lsp score --metric errant` against errant_compare 3.0.2
itself: real files, every flag combination, random files; then hand-computed tables and
the errors errant_compare would have crashed on."""

from __future__ import annotations

import contextlib
import importlib.metadata
import importlib.util
import io
import itertools
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from m2lsp.cli import main
from tests.conftest import SHARED_DATA as DATA

BEA = DATA / "bea2019-dev" / "ABCN.dev.gold.bea19.m2"
MUCGEC = DATA / "mucgec"


# ---------------------------------------------------------------------------------------
# the reference: errant 3.0.2's compare_m2, run in this process (it needs no spaCy model)

@pytest.fixture(scope="module")
def errant_compare():
    spec = importlib.util.find_spec("errant")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("errant 3.0.2 is not installed (it is in the test extras: "
                    "pip install -e '.[test]')")
    version = importlib.metadata.version("errant")
    assert version == "3.0.2", f"the reference is errant 3.0.2, found {version}"
    path = Path(spec.submodule_search_locations[0]) / "commands" / "compare_m2.py"
    module_spec = importlib.util.spec_from_file_location("errant_compare_m2_302", path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)

    def run(args: list[str]) -> str:
        out = io.StringIO()
        argv = sys.argv
        sys.argv = ["errant_compare", *args]
        try:
            with contextlib.redirect_stdout(out):
                module.main()
        finally:
            sys.argv = argv
        return out.getvalue()
    return run


def ours(args: list[str], command: str = "errant-compare") -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main([command, *args])
    assert code == 0
    return out.getvalue()


def flag_sets(verbose: bool = True):
    """Every combination of errant_compare's flags (beta and filter in two values each)."""
    modes = [[], ["-dt"], ["-ds"], ["-cs"], ["-cse"]]
    sizes = [[], ["-single"], ["-multi"], ["-single", "-multi"]]
    cats = [[], ["-cat", "1"], ["-cat", "2"], ["-cat", "3"]]
    extras = [[], ["-b", "1"], ["-filt", "R:NOUN", "M:DET", "S"], ["-b", "2", "-filt", "M"]]
    for mode, size, cat, extra, v in itertools.product(modes, sizes, cats, extras,
                                                       [[], ["-v"]] if verbose else [[]]):
        yield [*mode, *size, *cat, *extra, *v]


def without_targets(path: Path, tmp_path: Path) -> Path:
    """The file without ChERRANT's T lines, which errant_compare 3.0.2 cannot read."""
    out = tmp_path / (path.name + ".no-targets")
    lines = path.read_text(encoding="utf-8").split("\n")
    out.write_text("\n".join(x for x in lines if not (x[:1] == "T" and x[1:2].isdigit())),
                   encoding="utf-8")
    return out


# ---------------------------------------------------------------------------------------
# real data

@pytest.mark.skipif(not MUCGEC.is_dir(), reason="../shared/data/mucgec is absent")
def test_mucgec_every_flag_combination(errant_compare, tmp_path):
    hyp, ref = MUCGEC / "demo.hyp.m2.char", MUCGEC / "demo.ref.m2.char"
    plain_hyp, plain_ref = without_targets(hyp, tmp_path), without_targets(ref, tmp_path)
    count = 0
    for flags in flag_sets():
        expected = errant_compare(["-hyp", str(plain_hyp), "-ref", str(plain_ref), *flags])
        assert ours(["-hyp", str(hyp), "-ref", str(ref), *flags]) == expected, flags
        count += 1
    assert count == 640


def perturbed(gold: Path, out: Path, seed: int = 7) -> Path:
    """A hypothesis made from the gold: edits dropped, changed, retyped, duplicated,
    moved to other annotators, noops added."""
    rng = random.Random(seed)
    blocks = gold.read_text(encoding="utf-8").strip().split("\n\n")
    written = []
    for block in blocks:
        lines = block.split("\n")
        kept = [lines[0]]
        for line in lines[1:]:
            roll = rng.random()
            if roll < 0.2:
                continue
            fields = line.split("|||")
            if roll < 0.3:
                fields[2] += " x"
            elif roll < 0.35:
                fields[1] = "UNK"
            elif roll < 0.45:
                fields[-1] = "1"
            kept.append("|||".join(fields))
            if roll > 0.9:
                kept.append(kept[-1])
        if rng.random() < 0.05:
            kept.append("A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||2")
        written.append("\n".join(kept))
    out.write_text("\n\n".join(written) + "\n", encoding="utf-8")
    return out


@pytest.mark.slow
@pytest.mark.skipif(not BEA.is_file(), reason="../shared/data/bea2019-dev is absent")
def test_bea_dev_against_itself_and_a_perturbed_hypothesis(errant_compare, tmp_path):
    hyp = perturbed(BEA, tmp_path / "hyp.m2")
    for flags in [[], ["-v"], ["-cat", "3"], ["-cat", "2", "-v"], ["-dt", "-cat", "1"],
                  ["-ds", "-v"], ["-cse", "-single", "-cat", "3"], ["-multi", "-cat", "2"],
                  ["-filt", "R:NOUN", "M:DET", "-b", "1"], ["-dt", "-multi", "-v"]]:
        for h in (BEA, hyp):
            args = ["-hyp", str(h), "-ref", str(BEA), *flags]
            assert ours(args) == errant_compare(args), flags


@pytest.mark.slow
@pytest.mark.skipif(not BEA.is_file(), reason="../shared/data/bea2019-dev is absent")
def test_the_installed_command_prints_the_same_bytes(tmp_path):
    """The real `errant_compare` console script, beside the `m2lsp` one."""
    reference = shutil.which("errant_compare", path=str(Path(sys.executable).parent))
    if reference is None:
        pytest.skip("errant_compare 3.0.2 is not installed (test extras)")
    hyp = perturbed(BEA, tmp_path / "hyp.m2", seed=11)
    for flags in [["-v"], ["-cat", "3"]]:
        args = ["-hyp", str(hyp), "-ref", str(BEA), *flags]
        expected = subprocess.run([reference, *args], capture_output=True, check=True).stdout
        found = subprocess.run([sys.executable, "-m", "m2lsp", "errant-compare", *args],
                               capture_output=True, check=True).stdout
        assert found == expected


# ---------------------------------------------------------------------------------------
# random files

TYPES = ["R:NOUN", "M:DET", "U:PUNCT", "UNK", "R:UNK", "W", "S", "R:OTHER"]
CORRECTIONS = ["", "-NONE-", "a", "the", "a b", "x y z"]


def random_block(rng: random.Random, tokens: int) -> str:
    lines = ["S " + " ".join(f"w{i}" for i in range(tokens))]
    for coder in rng.sample([0, 1, 2, 5], rng.randint(0, 3)):
        if rng.random() < 0.25:
            lines.append(f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{coder}")
            continue
        for _ in range(rng.randint(1, 4)):
            start = rng.randint(0, tokens)
            end = min(tokens, start + rng.choice([0, 0, 1, 1, 2, 3]))
            lines.append(f"A {start} {end}|||{rng.choice(TYPES)}|||"
                         f"{rng.choice(CORRECTIONS)}|||REQUIRED|||-NONE-|||{coder}")
    rng.shuffle(lines[1:]) if rng.random() < 0.2 else None
    return "\n".join(lines)


def random_flags(rng: random.Random) -> list[str]:
    flags = rng.choice([[], ["-dt"], ["-ds"], ["-cs"], ["-cse"]])
    flags += [f for f in ("-single", "-multi", "-v") if rng.random() < 0.3]
    if rng.random() < 0.5:
        flags += ["-cat", rng.choice("123")]
    if rng.random() < 0.3:
        flags += ["-filt", *rng.sample(TYPES, 2)]
    if rng.random() < 0.3:
        flags += ["-b", rng.choice(["1", "2", "0.25"])]
    return flags


def test_random_files(errant_compare, tmp_path):
    rng = random.Random(2024)
    hyp, ref = tmp_path / "hyp.m2", tmp_path / "ref.m2"
    for _ in range(300):
        sizes = [rng.randint(1, 6) for _ in range(rng.randint(1, 6))]
        hyp.write_text("\n\n".join(random_block(rng, n) for n in sizes) + "\n")
        ref.write_text("\n\n".join(random_block(rng, n) for n in sizes) + "\n")
        args = ["-hyp", str(hyp), "-ref", str(ref), *random_flags(rng)]
        assert ours(args) == errant_compare(args), (args, hyp.read_text(), ref.read_text())


# ---------------------------------------------------------------------------------------
# hand-computed tables

def m2(*blocks: str) -> str:
    return "\n\n".join(blocks) + "\n"


EDIT = "A {} {}|||{}|||{}|||REQUIRED|||-NONE-|||{}"

HAND = [
    # name, hypothesis, reference, flags, (tp, fp, fn)
    ("one match, one miss",
     m2("S a b c\n" + EDIT.format(0, 1, "R:DET", "the", 0)),
     m2("S a b c\n" + EDIT.format(0, 1, "R:DET", "the", 0) + "\n"
        + EDIT.format(2, 3, "R:NOUN", "d", 0)), [], (1, 0, 1)),
    ("a hypothesis edit counts once per reference edit at its key",
     m2("S a b\n" + EDIT.format(0, 1, "R:DET", "the", 0)),
     m2("S a b\n" + EDIT.format(0, 1, "R:DET", "the", 0) + "\n"
        + EDIT.format(0, 1, "R:OTHER", "the", 0)), [], (2, 0, 0)),
    ("UNK edits do not count for correction",
     m2("S a b\n" + EDIT.format(0, 1, "UNK", "a", 0)),
     m2("S a b\n" + EDIT.format(0, 1, "UNK", "a", 0)), [], (0, 0, 0)),
    ("... but do for detection",
     m2("S a b\n" + EDIT.format(0, 1, "UNK", "a", 0)),
     m2("S a b\n" + EDIT.format(0, 1, "UNK", "a", 0)), ["-ds"], (1, 0, 0)),
    ("token detection: an insertion is the token on its right; a 2-token edit is 2 keys",
     m2("S a b c\n" + EDIT.format(1, 1, "M:DET", "the", 0)),
     m2("S a b c\n" + EDIT.format(1, 3, "R:OTHER", "x", 0)), ["-dt"], (1, 0, 1)),
    ("the reference annotator that keeps the corpus F highest",
     m2("S a b\n" + EDIT.format(0, 1, "R:DET", "the", 0)),
     m2("S a b\n" + EDIT.format(1, 2, "R:NOUN", "x", 0) + "\n"
        + EDIT.format(0, 1, "R:DET", "the", 1)), [], (1, 0, 0)),
    ("no edits at all: a noop for annotator 0, nothing counted",
     m2("S a b"), m2("S a b\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"), [], (0, 0, 0)),
    ("-multi leaves single-token edits out",
     m2("S a b c\n" + EDIT.format(0, 2, "R:OTHER", "x", 0) + "\n"
        + EDIT.format(2, 3, "R:NOUN", "y", 0)),
     m2("S a b c\n" + EDIT.format(0, 2, "R:OTHER", "x", 0)), ["-multi"], (1, 0, 0)),
]


@pytest.mark.parametrize("name, hyp, ref, flags, counts", HAND, ids=[h[0] for h in HAND])
def test_hand_computed(tmp_path, name, hyp, ref, flags, counts):
    (tmp_path / "h.m2").write_text(hyp)
    (tmp_path / "r.m2").write_text(ref)
    out = ours(["-hyp", str(tmp_path / "h.m2"), "-ref", str(tmp_path / "r.m2"), *flags])
    values = out.strip().split("\n")[-2].split("\t")
    assert tuple(int(v) for v in values[:3]) == counts


def test_ties_keep_the_first_pair_and_verbose_names_it(tmp_path):
    (tmp_path / "h.m2").write_text(m2("S a b\n" + EDIT.format(0, 1, "R:DET", "x", 0)))
    (tmp_path / "r.m2").write_text(m2("S a b\n" + EDIT.format(1, 2, "R:DET", "y", 3) + "\n"
                                      + EDIT.format(0, 2, "R:DET", "z", 1)))
    out = ours(["-hyp", str(tmp_path / "h.m2"), "-ref", str(tmp_path / "r.m2"), "-v"])
    assert "^^ HYP 0, REF 3 chosen for sentence 0" in out
    assert "HYPOTHESIS EDITS : [(0, 1, 'x', 'R:DET')]" in out


# ---------------------------------------------------------------------------------------
# errors errant_compare would crash on, and the mismatch checks

def run_failing(args: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["errant-compare", *args])
    return code, err.getvalue()


ERRORS = [
    ("count", m2("S a b", "S c d"), m2("S a b"), "has 2 sentences but reference file"),
    ("tokens", m2("S a b c"), m2("S a b"), "a different number of tokens"),
    ("spaces line", "S a b\n \nA 0 1|||R|||x|||REQUIRED|||-NONE-|||0\n", m2("S a b"),
     "h.m2:2: a line of only spaces"),
    ("two empty lines", "S a b\n\n\nS c d\n", m2("S a b", "S c d"),
     "h.m2:3: two or more empty lines"),
    ("short edit", "S a b\nA 0 1|||R\n", m2("S a b"), "fewer than three"),
    ("not an integer", "S a b\nA 0 x|||R|||x|||REQUIRED|||-NONE-|||0\n", m2("S a b"),
     "no integer offsets"),
]


@pytest.mark.parametrize("name, hyp, ref, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_clear_errors(tmp_path, name, hyp, ref, message):
    (tmp_path / "h.m2").write_text(hyp)
    (tmp_path / "r.m2").write_text(ref)
    code, err = run_failing(["-hyp", str(tmp_path / "h.m2"), "-ref", str(tmp_path / "r.m2")])
    assert code == 2
    assert message in err and "Traceback" not in err


def test_same_length_sources_that_differ_are_scored_with_a_warning(tmp_path):
    (tmp_path / "h.m2").write_text(m2("S a b", "S c :"))
    (tmp_path / "r.m2").write_text(m2("S a b", "S c ："))
    code, err = run_failing(["-hyp", str(tmp_path / "h.m2"), "-ref", str(tmp_path / "r.m2")])
    assert code == 0
    assert "warning: 1 sentence(s) differ" in err and "h.m2:3" in err


def test_crlf_files_read_as_lf(tmp_path):
    text = m2("S a b\n" + EDIT.format(0, 1, "R:DET", "the", 0), "S c")
    (tmp_path / "h.m2").write_text(text)
    (tmp_path / "r.m2").write_bytes(text.replace("\n", "\r\n").encode())
    out = ours(["-hyp", str(tmp_path / "h.m2"), "-ref", str(tmp_path / "r.m2")])
    assert out.split("\n")[3] == "1\t0\t0\t1.0\t1.0\t1.0"


# ---------------------------------------------------------------------------------------
# m2lsp score --metric errant

@pytest.mark.skipif(not MUCGEC.is_dir(), reason="../shared/data/mucgec is absent")
def test_score_metric_errant_is_errant_compare(errant_compare, tmp_path):
    hyp, ref = MUCGEC / "demo.hyp.m2.char", MUCGEC / "demo.ref.m2.char"
    plain = ["-hyp", str(without_targets(hyp, tmp_path)), "-ref",
             str(without_targets(ref, tmp_path))]
    assert ours(["--metric", "errant", str(hyp), str(ref)], "score") == errant_compare(plain)
    assert ours(["--metric", "errant", "-v", "--per-type", "--beta", "1", str(hyp), str(ref)],
                "score") == errant_compare([*plain, "-v", "-cat", "3", "-b", "1"])


@pytest.mark.skipif(not MUCGEC.is_dir(), reason="../shared/data/mucgec is absent")
def test_score_metric_errant_json(tmp_path):
    hyp, ref = MUCGEC / "demo.hyp.m2.char", MUCGEC / "demo.ref.m2.char"
    data = json.loads(ours(["--metric", "errant", "--format", "json", "--per-type", str(hyp),
                            str(ref)], "score"))
    assert data["signature"].startswith(
        "ERRANT|beta:0.5|mode:cs|scorer:errant_compare-3.0.2|refs-hash:")
    assert (data["counts"]["true_positives"], data["f"]) == (8, 0.2649)
    assert sum(len(s["true_positives"]) for s in data["sentences"]) == 8
    assert [t["type"] for t in data["per_type"]] == ["M", "R", "S", "W"]
    first = data["sentences"][0]
    assert first["false_negatives"] == [{"start": 14, "end": 17, "type": "W", "line": 3,
                                         "correction": "虽 然 它"}]


def test_score_metric_errant_refuses_m2_only_options(tmp_path):
    (tmp_path / "h.m2").write_text(m2("S a b"))
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["score", "--metric", "errant", "--max-unchanged-words", "3",
                     str(tmp_path / "h.m2"), str(tmp_path / "h.m2")])
    assert code == 2 and "--max-unchanged-words" in err.getvalue()


def test_a_byte_order_mark_stays_in_the_first_line_as_errant_compare_reads_it(
        errant_compare, tmp_path):
    (tmp_path / "h.m2").write_bytes("\ufeff".encode() + m2(
        "S a b\n" + EDIT.format(0, 1, "R:DET", "the", 0), "S c d").encode())
    (tmp_path / "r.m2").write_text(m2("S a b\n" + EDIT.format(0, 1, "R:DET", "the", 0),
                                      "S c d\n" + EDIT.format(1, 2, "R:DET", "x", 0)))
    args = ["-hyp", str(tmp_path / "h.m2"), "-ref", str(tmp_path / "r.m2"), "-v"]
    assert ours(args) == errant_compare(args)
    assert "Original sentence 0:  a b\n" in ours(args)
