"""`m2lsp compare` prints its scores on the scale `m2lsp score` prints them (GREEN x 100,
as its authors' tool prints it), and a p-value too small for four decimals as `p < 0.0001`,
never `p = 0.0000`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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
    assert "p = 0.00" not in out and "p < 0.01 (two-sided, paired bootstrap" in out


@pytest.mark.parametrize(("p", "samples", "printed"), [
    (0.0, 1000, "p < 0.001"), (1 / 1001, 1000, "p = 0.001"), (0.0312, 1000, "p = 0.031"),
    (0.0, 200, "p < 0.01"), (0.0312, 200, "p = 0.03"), (0.0, 20, "p < 0.1"),
    (0.00004, 100_000, "p = 0.00004"), (0.5, 5, "p = 0.5")])
def test_a_p_value_is_never_finer_than_its_resamples(p, samples, printed) -> None:
    assert p_value(p, samples) == printed


def test_both_p_values_at_the_same_resolution(tmp_path, capsys) -> None:
    """1,000 resamples: the bootstrap's 0 is `p < 0.001`, beside randomisation's smallest
    p, 1/1001, printed `p = 0.001` (not `p < 0.0001` beside `p = 0.0010`)."""
    gold, camb, source = _files(tmp_path, 400)
    assert main(["compare", str(camb), str(source), str(gold), "--samples", "1000"]) == 0
    out = capsys.readouterr().out
    assert re.findall(r"^p ([<=] [\d.]+) \(", out, re.M) == ["< 0.001", "= 0.001"]


def test_compare_has_json(tmp_path, capsys) -> None:
    import json

    gold, camb, source = _files(tmp_path)
    assert main(["compare", str(camb), str(source), str(gold), "--samples", "100"]) == 0
    text = capsys.readouterr().out
    assert main(["compare", str(camb), str(source), str(gold), "--samples", "100",
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["system_a"], data["system_b"], data["metric"]) == (str(camb), str(source), "m2")
    assert f"{data['name']} = {data['a']:.4f}" in text and data["signature"] in text
    assert data["difference"] == data["a"] - data["b"] and data["samples"] == 100
    assert {"interval", "p_bootstrap", "p_randomised", "seed", "alternative"} <= set(data)
