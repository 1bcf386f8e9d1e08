"""A reference with two blank lines after a block (NLPCC-2018's sentences with no A line
lead to this layout): ChERRANT's `compare_m2_for_evaluation.py` splits at "\\n\\n" and reads
only `A ` lines, so it scores it as if the blank line were not there, and `--metric
cherrant` does too (run beside it where the shared data has ChERRANT).  errant_compare reads
the next sentence line as an edit and stops: `--metric errant` keeps its refusal."""

from __future__ import annotations

from pathlib import Path

import pytest

from m2lsp.cli import main
from tests.annotation.cherrant import run
from tests.conftest import shared

FLAGS = [[], ["-v"], ["--per-type"]]
THEIRS = {(): [], ("-v",): ["-v"], ("--per-type",): ["-cat", "3"]}


def _doubled(tmp_path: Path, every: int = 3) -> Path:
    """demo.ref.m2.char with a second blank line after every `every`-th block."""
    blocks = shared("mucgec/demo.ref.m2.char").read_text(encoding="utf-8").strip().split("\n\n")
    text = "".join(block + ("\n\n\n" if index % every == 0 else "\n\n")
                   for index, block in enumerate(blocks))
    path = tmp_path / "ref.m2"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("flags", FLAGS, ids=lambda f: " ".join(f) or "default")
def test_cherrant_scores_it_as_chERRANT_does(tmp_path, capsys, flags) -> None:
    ref, hyp = _doubled(tmp_path), shared("mucgec/demo.hyp.m2.char")
    assert main(["score", "--metric", "cherrant", str(hyp), str(ref), *flags]) == 0
    ours = capsys.readouterr().out
    assert main(["score", "--metric", "cherrant", str(hyp),
                 str(shared("mucgec/demo.ref.m2.char")), *flags]) == 0
    assert capsys.readouterr().out == ours  # the blank lines change nothing
    expected = run("compare_m2_for_evaluation.py",
                   ["-hyp", str(hyp), "-ref", str(ref), *THEIRS[tuple(flags)]], tmp_path)
    assert ours == expected


def test_errant_keeps_the_refusal(tmp_path, capsys) -> None:
    ref, hyp = _doubled(tmp_path), shared("mucgec/demo.hyp.m2.char")
    assert main(["score", "--metric", "errant", str(hyp), str(ref)]) == 2
    assert "two or more empty lines" in capsys.readouterr().err


def test_cherrant_refuses_an_empty_block(tmp_path, capsys) -> None:
    """Three blank lines make an empty block, which ChERRANT counts as a sentence."""
    ref = _doubled(tmp_path)
    ref.write_text(ref.read_text(encoding="utf-8").replace("\n\n\n", "\n\n\n\n", 1),
                   encoding="utf-8")
    hyp = shared("mucgec/demo.hyp.m2.char")
    assert main(["score", "--metric", "cherrant", str(hyp), str(ref)]) == 2
    assert "empty lines" in capsys.readouterr().err


def test_the_token_warning_names_chERRANT_s_scorer(capsys) -> None:
    """MuCGEC's demo writes `：` in one file and `:` in the other: scored by offsets, as
    ChERRANT's scorer (not errant_compare) scores them."""
    assert main(["score", "--metric", "cherrant", str(shared("mucgec/demo.hyp.m2.char")),
                 str(shared("mucgec/demo.ref.m2.char"))]) == 0
    err = capsys.readouterr().err
    assert "scored as ChERRANT's compare_m2_for_evaluation.py scores them" in err
    assert "errant_compare" not in err
