"""`--metric cleme --vis` against CLEME v1's own `scripts/evaluate.py --vis`, run in place
beside (../shared/data/cleme/CLEME, with NumPy and tabulate): the score, then every
sentence's chunk table, the same characters (CLEME logs to stdout too: its log lines are
left out of the comparison)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from m2lsp.cli import main
from tests.conftest import shared

EXAMPLES = "cleme/CLEME/tests/examples"
LOG_LINE = re.compile(r"\d\d/\d\d/\d{4} \d\d:\d\d:\d\d - ")


def head(source: Path, target: Path, count: int) -> Path:
    blocks = source.read_text(encoding="utf-8").strip("\n").split("\n\n")[:count]
    target.write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    return target


def cleme_v1(ref: Path, hyp: Path, *more: str) -> str:
    folder = shared("cleme/CLEME")
    for name in ("numpy", "tabulate"):
        if importlib.util.find_spec(name) is None:
            pytest.skip(f"{name} (CLEME v1 needs it) is not installed")
    done = subprocess.run([sys.executable, "scripts/evaluate.py", "--ref", str(ref), "--hyp",
                           str(hyp), "--vis", *more], cwd=folder, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return "".join(line for line in done.stdout.splitlines(keepends=True)
                   if not LOG_LINE.match(line))


@pytest.mark.parametrize(("system", "count"), [("demo-AMU", 0), ("conll14-CAMB", 120)])
def test_vis_prints_cleme_v1_tables(tmp_path, capsys, system, count) -> None:
    ref = shared(f"{EXAMPLES}/{'demo' if count == 0 else 'conll14'}.errant")
    hyp = shared(f"{EXAMPLES}/{system}.errant")
    if count:
        ref, hyp = head(ref, tmp_path / "ref.m2", count), head(hyp, tmp_path / "hyp.m2", count)
    expected = cleme_v1(ref, hyp)
    assert main(["score", "--metric", "cleme", "--vis", str(hyp), str(ref)]) == 0
    assert capsys.readouterr().out == expected


def test_vis_is_cleme_v1s(capsys) -> None:
    ref = shared(f"{EXAMPLES}/demo.errant")
    assert main(["score", "--metric", "cleme", "--vis", "--cleme2", str(ref), str(ref)]) == 2
    assert "--vis" in capsys.readouterr().err


@pytest.mark.parametrize(("cells", "shown"), [
    # what tabulate 0.10's fancy_grid printed for these columns
    (["a", "1"], ["a", "1"]), (["1", "+2"], ["1", "+2"]), (["1.5", "2"], ["1.500", "2.000"]),
    (["", "1.5"], ["", "1.500"]), (["a", "1.5"], ["a", "1.5"]),
    (["1e3", "2"], ["1000.000", "2.000"]), (["nan", "1"], ["nan", "1.000"]),
])
def test_a_column_of_numbers_is_shown_as_tabulate_shows_it(cells, shown) -> None:
    from m2lsp.scoring.cleme.vis import _formatted

    assert _formatted(cells) == shown
