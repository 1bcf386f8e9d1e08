"""`m2lsp compare` prints its scores on the scale `m2lsp score` prints them (GREEN x 100,
as its authors' tool prints it), and a p-value too small for four decimals as `p < 0.0001`,
never `p = 0.0000`."""

from __future__ import annotations

import re
from pathlib import Path

from m2lsp.cli import main
from m2lsp.cli.score import p_value
from tests.conftest import shared


def _files(tmp_path: Path, size: int = 200) -> tuple[Path, Path, Path]:
    gold = tmp_path / "gold.m2"
    blocks = shared("conll2014/gold/official-2014.combined.m2").read_text("utf-8").split(
        "\n\n")[:size]
    gold.write_text("".join(b + "\n\n" for b in blocks), "utf-8")
    systems = []
    for name in ("CAMB", "INPUT"):
        path = tmp_path / name
        path.write_text("".join(shared(f"conll2014/systems/{name}").read_text("utf-8")
                                .splitlines(True)[:size]), "utf-8")
        systems.append(path)
    return gold, systems[0], systems[1]


def test_green_is_compared_on_the_scale_score_prints(tmp_path, capsys) -> None:
    gold, camb, source = _files(tmp_path)
    assert main(["score", str(camb), str(gold), "--metric", "green"]) == 0
    printed = capsys.readouterr().out.splitlines()[-1].split("\t")[-1]
    assert main(["compare", str(camb), str(source), str(gold), "--metric", "green",
                 "--samples", "50"]) == 0
    a = re.search(r"^A: .*GREEN = ([\d.]+)$", capsys.readouterr().out, re.M)
    assert a is not None and f"{float(a.group(1)):.2f}" == printed and float(printed) > 1


def test_a_p_value_below_a_ten_thousandth(tmp_path, capsys) -> None:
    assert (p_value(0.0), p_value(0.00004), p_value(0.00005), p_value(0.5)) == (
        "p < 0.0001", "p < 0.0001", "p = 0.0001", "p = 0.5000")
    gold, camb, source = _files(tmp_path)
    assert main(["compare", str(camb), str(source), str(gold), "--samples", "200"]) == 0
    out = capsys.readouterr().out
    assert "p = 0.0000" not in out and "p < 0.0001 (two-sided, paired bootstrap" in out
