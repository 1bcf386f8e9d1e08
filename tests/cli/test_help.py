"""Help people can read: `score`, `compare` and `meta-eval` show the common options first
and each metric's options in a group of its own; `--metric NAME --help` shows that
metric's only (and the options of other metrics it takes)."""

from __future__ import annotations

import re

import pytest

from m2lsp.cli import main
from m2lsp.scoring.metric import declared, names


def _help(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as ended:
        main([*argv, "--help"])
    assert ended.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("command", ["score", "meta-eval"])
def test_common_options_first_then_a_group_per_metric(capsys, command) -> None:
    out = _help(capsys, command)
    first_group = out.index("\n--metric ")
    assert out.index("--beta B") < first_group and out.index("--format") < first_group
    for name in names():
        flags = [f.names[0] for f in declared(name).flags]
        if command == "meta-eval":
            flags = [f for f in flags if f not in ("--ref", "--digits")]
        if flags:
            group = out.index(f"\n--metric {name}:\n")
            assert all(_option(out, flag) > group for flag in flags), name


def _option(out: str, flag: str) -> int:
    """Where the option's own line is (not a mention of it in another's help)."""
    found = re.search(rf"^  {re.escape(flag)}[ ,\n]", out, re.MULTILINE)
    assert found, flag
    return found.start()


def test_score_help_of_one_metric_shows_its_options_only(capsys) -> None:
    out = _help(capsys, "score", "--metric", "impara")
    assert "--metric impara:\n  impara (Maeda et al. 2022" in out
    assert "--impara-model-qe MODEL" in out and "--beta B" in out
    assert "--some-model-g" not in out and "--cleme2" not in out and "--metric m2:" not in out
    assert out.rstrip().endswith("(--help without --metric: every metric's options)")


def test_a_metric_that_takes_another_metrics_options_shows_them(capsys) -> None:
    out = _help(capsys, "score", "--metric", "cherrant")
    assert "--metric cherrant also takes:\n  --dt" in out and "--metric errant:" not in out


def test_meta_eval_and_compare_help_of_one_metric(capsys) -> None:
    out = _help(capsys, "meta-eval", "--metric", "some")
    assert "--some-model-g MODEL" in out and "--impara-model-qe" not in out
    assert "--dataset" in out
    out = _help(capsys, "compare", "--metric", "errant")
    assert "--dt" in out and "--impara-model-qe" not in out


def test_the_full_help_is_the_sum_of_its_groups(capsys) -> None:
    """Every option of `score` is in its full help, once."""
    out = _help(capsys, "score")
    for name in names():
        for flag in declared(name).flags:
            assert len(re.findall(rf"^  {re.escape(flag.names[0])}[ ,\n]", out,
                                  re.MULTILINE)) == 1


@pytest.mark.parametrize("argv", [["score", "--metric", "impara", "--help"],
                                  ["score", "--help"], ["check", "--help"], ["rule", "--all"]])
def test_help_into_a_closed_pipe_is_no_traceback(argv) -> None:
    """`m2lsp score --metric impara --help | head -5`: the reader has gone before the help
    is written."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.Popen([sys.executable, "-m", "m2lsp", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    assert done.stdout is not None and done.stderr is not None
    done.stdout.close()  # as `head` does once it has its lines
    err = done.stderr.read().decode()
    done.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipeError" not in err
