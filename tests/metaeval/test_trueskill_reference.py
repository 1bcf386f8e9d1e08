"""TrueSkill against grammatical/evaluation's own scripts, run beside on Python 2.7 (they
are Python 2): `print_pairs.pl -r`, seeded runs of `wmt-trueskill/TS.py -n 2 -d 0`, and
`eval/cluster.py -by-rank -i 0.95` over them, on RevisitCGEC's judgments (fetched
wang136906578/RevisitCGEC, where there is a copy) and on the first 300 rankings of
GJG15's (13 systems: Python 2's dict order has more to get right).  The pairs, every run's
mu and sigma^2, and the printed ranking must be identical.

The scripts draw from an unseeded `random`: the test seeds it (run k: seed + k), as m2lsp
does.  cluster.py imports SciPy and matplotlib for a statistic and a plot that its printed
ranking does not use; the test gives it stand-in modules for them.  The scripts' Python 2
needs the trueskill and numpy packages: the test installs them into a folder of its own
(from the package index), and skips where it cannot."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from m2lsp.metaeval import trueskill as skill
from m2lsp.metaeval.judgments import compared, read_judgments
from tests.conftest import refs, shared

SEED, RUNS = 2024, 4
RUNNER = """
import random, sys, runpy
seed, prefix, folder = int(sys.argv[1]), sys.argv[2], sys.argv[3]
random.seed(seed)
sys.path.insert(0, folder)
sys.argv = [folder + '/TS.py', prefix, '-n', '2', '-d', '0']
runpy.run_path(folder + '/TS.py', run_name='__main__')
"""
STANDINS = {  # what cluster.py imports for its plot and a statistic it does not print
    "scipy/__init__.py": "",
    "scipy/stats.py": "def describe(x):\n    x = list(x)\n"
                      "    return len(x), (min(x), max(x)), sum(x) / float(len(x)), 0, 0, 0\n",
    "matplotlib/__init__.py": "def use(*a, **k): pass\ndef rc(*a, **k): pass\n",
    "matplotlib/pyplot.py": "rcParams = {}\ndef __getattr__(n): pass\n"
                            "def plot(*a, **k): pass\n",
}


def _python2() -> str:
    for candidate in (os.environ.get("M2LSP_PYTHON2"), shutil.which("python2.7"),
                      *sorted(Path.home().glob(".pyenv/versions/2.7*/bin/python2.7"))):
        if candidate and subprocess.run([str(candidate), "-c", "import sys; assert "
                                         "sys.version_info[:2] == (2, 7)"],
                                        capture_output=True).returncode == 0:
            return str(candidate)
    pytest.skip("no Python 2.7 to run grammatical/evaluation's scripts with (set "
                "M2LSP_PYTHON2)")


@pytest.fixture(scope="module")
def py2(tmp_path_factory) -> tuple[str, dict[str, str]]:
    pytest.importorskip("trueskill")
    if shutil.which("perl") is None or subprocess.run(
            ["perl", "-MXML::Twig", "-e", "1"], capture_output=True).returncode:
        pytest.skip("print_pairs.pl needs perl with XML::Twig (libxml-twig-perl)")
    python = _python2()
    packages = tmp_path_factory.mktemp("py2")
    done = subprocess.run([python, "-m", "pip", "install", "-q", "--target", str(packages),
                           "trueskill==0.4.5", "numpy==1.16.6"], capture_output=True,
                          text=True, timeout=600)
    if done.returncode:
        pytest.skip(f"could not install trueskill and numpy for Python 2.7: "
                    f"{done.stderr[-300:]}")
    for name, text in STANDINS.items():
        (packages / "standins" / name).parent.mkdir(parents=True, exist_ok=True)
        (packages / "standins" / name).write_text(text)
    env = {**os.environ, "PYTHONPATH": f"{packages}:{packages / 'standins'}",
           "PYTHONHASHSEED": "0"}  # Python 2's default: no hash randomisation (a test
    # run may have set the variable: with it, Python 2 orders its dicts otherwise)
    env.pop("PYENV_VERSION", None)
    return python, env


def _revisit(tmp_path: Path) -> Path:
    path = tmp_path / "judgments.xml"
    path.write_bytes(refs("wang136906578/RevisitCGEC", "judgments.xml").read_bytes())
    return path


def _gjg15(tmp_path: Path) -> Path:
    """GJG15's judgments.xml cut to its first 300 rankings (14,467 pairs; every pair of its
    13 systems is compared, as TS.py needs)."""
    import xml.etree.ElementTree as ElementTree

    tree = ElementTree.parse(shared("meta-eval/gjg15/judgments.xml"))
    seen = 0
    for result in tree.getroot():
        for item in list(result):
            seen += 1
            if seen > 300:
                result.remove(item)
    path = tmp_path / "judgments.xml"
    tree.write(path, encoding="UTF-8", xml_declaration=True)
    return path


@pytest.mark.slow
@pytest.mark.parametrize("which", ["revisit-cgec", "gjg15-first-300"])
def test_trueskill_is_the_scripts(which: str, py2, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("M2LSP_CACHE_DIR", str(tmp_path / "cache"))  # runs computed here
    python, env = py2
    judgments = (_revisit if which == "revisit-cgec" else _gjg15)(tmp_path)
    scripts = shared("meta-eval/gjg15/scripts")
    pairs = subprocess.run(["perl", str(scripts / "print_pairs.pl"), "-r"],
                           stdin=judgments.open("rb"), capture_output=True, text=True,
                           check=True).stdout
    found = compared(read_judgments(judgments))
    mine_pairs = "".join(f"{a}\t{b}\t{x}\t{y}\n" for a, b, x, y in skill.printed_pairs(
        (j.user, j.ranks) for j in read_judgments(judgments)))
    assert mine_pairs == pairs
    (tmp_path / "pairs.tup.txt").write_text(pairs, encoding="utf-8")
    (tmp_path / "runner.py").write_text(RUNNER)
    runs = tmp_path / "TS"
    runs.mkdir()
    mine_runs = skill.runs(found, RUNS, SEED)  # RUNS < 10: run k is the k-th
    for k in range(RUNS):
        subprocess.run([python, str(tmp_path / "runner.py"), str(SEED + k),
                        str(runs / f"run.{k}"), str(scripts / "wmt-trueskill")],
                       stdin=(tmp_path / "pairs.tup.txt").open("rb"), env=env,
                       capture_output=True, check=True, timeout=900)
        theirs = json.loads((runs / f"run.{k}_mu_sigma.json").read_text())
        theirs.pop("data_points")
        assert {s: list(v) for s, v in mine_runs[k].items()} == theirs
    files = sorted(str(p) for p in runs.glob("run.*_mu_sigma.json"))
    printed = subprocess.run([python, str(scripts / "wmt-trueskill" / "eval" / "cluster.py"),
                              "-by-rank", "-i", "0.95", str(tmp_path / "TS"), *files],
                             env=env, capture_output=True, text=True, check=True).stdout
    ranking = skill.ranked(mine_runs)
    assert skill.ranking_text(ranking) == printed
    assert skill.runs(found, RUNS, SEED, jobs=1) == mine_runs  # kept, read back the same
    assert len(list((tmp_path / "cache" / "trueskill").glob("*/run-*.json"))) == RUNS
    assert len(ranking) == len(found.systems) >= 6


def test_python2_dict_order_is_python2_s(py2) -> None:
    """Python 2's dict iteration order for random sets of names, inserted in random order,
    and again for the dict built by iterating the first (TS.py's get_mu_sigma)."""
    python, env = py2
    rng = random.Random(5)
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_. "
    cases = [[("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))))
              for _ in range(rng.randint(1, 40))] for _ in range(200)]
    cases = [list(dict.fromkeys(c)) for c in cases]
    script = ("import json, sys\nout = []\nfor keys in json.load(sys.stdin):\n"
              "    d = {}\n    for k in keys: d[k.encode('utf-8')] = 1\n"
              "    e = {}\n    for k in d: e[k] = 1\n"
              "    out.append([[k.decode('utf-8') for k in d], [k.decode('utf-8') for k in e]])\n"
              "print(json.dumps(out))\n")
    done = subprocess.run([python, "-c", script], input=json.dumps(cases), env=env,
                          capture_output=True, text=True, check=True)
    for keys, (first, second) in zip(cases, json.loads(done.stdout), strict=True):
        assert skill.py2_order(keys) == first
        assert skill.py2_order(first) == second
