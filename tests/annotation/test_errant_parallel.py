"""`m2lsp annotate` and `m2lsp errant-parallel` write what errant_parallel (errant 3.0.2)
writes, byte for byte, with the same pipeline: on the 8 CoNLL-2014 outputs in shared/data
(without and with -tok, each -merge, -lev), cold and with the parse cache warm."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.annotation.conftest import m2lsp, recorded_outputs, run_reference, spacy_model
from tests.conftest import shared

SYSTEMS = ("AMU", "CAMB", "CUUI", "IITB", "INPUT", "NTHU", "POST", "UFC")
COMBOS = {
    "default": [], "tok": ["-tok"], "lev": ["-lev"],
    **{f"{m}": ["-merge", m] for m in ("all-split", "all-merge", "all-equal")},
    **{f"tok-{m}": ["-tok", "-merge", m] for m in ("all-split", "all-merge", "all-equal")},
}


@pytest.fixture(scope="module")
def conll(tmp_path_factory) -> dict:
    """The source (the gold's S lines), the systems, and errant_parallel's output for each
    combination of flags, all 8 systems at once (annotators 0-7)."""
    model = spacy_model()
    gold = shared("conll2014/gold/official-2014.combined.m2")
    systems = [shared(f"conll2014/systems/{name}") for name in SYSTEMS]
    where = tmp_path_factory.mktemp("conll")
    source = where / "source.txt"
    source.write_text("".join(line[2:] for line in gold.read_text("utf-8").splitlines(True)
                              if line.startswith("S ")), encoding="utf-8")
    recorded = recorded_outputs()
    if recorded is not None and (recorded / "source.txt").read_bytes() == source.read_bytes():
        # the same versions as made them: errant_parallel's files as it wrote them
        for name in COMBOS:
            shutil.copyfile(recorded / f"{name}.m2", where / f"{name}.ref.m2")
        for system in systems:
            shutil.copyfile(recorded / f"{system.name}.alone.m2",
                            where / f"{system.name}.alone.m2")
    else:
        runs = [["errant_parallel", "-orig", str(source), "-cor", *map(str, systems),
                 "-out", str(where / f"{name}.ref.m2"), *flags]
                for name, flags in COMBOS.items()]
        runs += [["errant_parallel", "-orig", str(source), "-cor", str(system), "-out",
                  str(where / f"{system.name}.alone.m2")] for system in systems]
        run_reference(model, runs, where)
    return {"model": model, "source": source, "systems": systems, "where": where,
            "gold": gold}


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> dict:
    return {**os.environ, "M2LSP_CACHE_DIR": str(tmp_path_factory.mktemp("cache"))}


def _annotate(conll: dict, flags: list[str], out: Path, env: dict, *extra: str) -> None:
    ours = [f"-{f}" if f.startswith("-") else f for f in flags]  # -tok -> --tok
    done = m2lsp("annotate", "--orig", str(conll["source"]), "--cor",
                 *map(str, conll["systems"]), "-o", str(out), "--spacy-model",
                 conll["model"], *ours, *extra, env=env)
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("name", list(COMBOS))
def test_annotate_writes_what_errant_parallel_writes(conll, cache, name):
    out = conll["where"] / f"{name}.ours.m2"
    _annotate(conll, COMBOS[name], out, cache)
    assert out.read_bytes() == (conll["where"] / f"{name}.ref.m2").read_bytes()


@pytest.mark.slow
def test_warm_in_one_process_and_without_a_cache_agree(conll, cache, tmp_path):
    """After the runs above the cache is warm (the first ran cold, in two processes): warm in
    one process, and with no cache at all in two, the same bytes."""
    expected = (conll["where"] / "default.ref.m2").read_bytes()
    _annotate(conll, [], tmp_path / "warm.m2", cache, "--jobs", "1")
    assert (tmp_path / "warm.m2").read_bytes() == expected
    no_cache = {**os.environ, "M2LSP_CACHE_DIR": ""}
    _annotate(conll, [], tmp_path / "none.m2", no_cache, "--jobs", "2")
    assert (tmp_path / "none.m2").read_bytes() == expected


def test_the_drop_in_takes_errant_parallels_flags(conll, cache):
    out = conll["where"] / "drop-in.m2"
    done = m2lsp("errant-parallel", "-orig", str(conll["source"]), "-cor",
                 *map(str, conll["systems"]), "-out", str(out), "-tok", "-merge", "all-merge",
                 "--spacy-model", conll["model"], env=cache)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Loading resources...\nProcessing parallel files...\n"
    assert out.read_bytes() == (conll["where"] / "tok-all-merge.ref.m2").read_bytes()


@pytest.mark.slow
def test_each_writes_what_errant_parallel_writes_for_each_output(conll, cache):
    out = conll["where"] / "each"
    done = m2lsp("annotate", "--orig", str(conll["source"]), "--cor",
                 *map(str, conll["systems"]), "--each", "-o", str(out), "--spacy-model",
                 conll["model"], env=cache)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{n}.m2" for n in SYSTEMS)
    for name in SYSTEMS:
        assert (out / f"{name}.m2").read_bytes() == (
            conll["where"] / f"{name}.alone.m2").read_bytes(), name
