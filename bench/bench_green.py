"""GREEN on JFLEG dev (754 sentences; the fourth reference scored as the system against the
first three), against the authors' `green` 0.1.0 and gec-metrics 0.1.1's GREEN, each run
as a whole process in this run, medians of --runs runs.

Both tools run from compiled bytecode, as an installed package does (this machine sets
PYTHONDONTWRITEBYTECODE, so a checkout would otherwise be compiled again on every run):
the benchmark compiles m2lsp and the authors' checkout first.

Numbers must be identical: the authors' printed score (`-d 10`) to m2lsp's, gec-metrics'
float to m2lsp's `--green-variant gec-metrics` JSON.  Goal: m2lsp >= 3x faster than each.
The authors' tool is read from $M2LSP_GREEN (a checkout of shotakoyama/green); without it,
that comparison is skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("M2LSP_SHARED_DATA", ROOT.parent / "shared" / "data"))
GOAL = 3.0

AUTHORS = """
import sys
sys.path.insert(0, sys.argv.pop(1))
from green.main import green
green()
"""
GEC_METRICS = """
import importlib.machinery, json, sys, types
for name in ("openai", "outlines"):
    stub = types.ModuleType(name)
    stub.__spec__ = importlib.machinery.ModuleSpec(name, None)
    stub.OpenAI = object
    sys.modules[name] = stub
from gec_metrics.metrics import GREEN
lines = [open(p).read().rstrip("\\n").split("\\n") for p in sys.argv[1:]]
source, system, references = lines[0], lines[1], lines[2:]
print(json.dumps(GREEN(GREEN.Config(beta=2.0)).score_corpus(source, system, references)))
"""


def timed(argv: list[str], runs: int) -> tuple[float, str]:
    times, out = [], ""
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if done.returncode:
            sys.exit(f"failed: {argv[:5]}\n{done.stderr[-2000:]}")
        out = done.stdout
    return statistics.median(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    dev = DATA / "jfleg" / "dev"
    if not (dev / "dev.src").is_file():
        print(f"skipped: JFLEG dev is not in {DATA}")
        return
    src, system = str(dev / "dev.src"), str(dev / "dev.ref3")
    refs = [str(dev / f"dev.ref{k}") for k in range(3)]
    ours = [sys.executable, "-m", "m2lsp", "score", "--metric", "green", system,
            "--source", src, "--ref", *refs]
    checkout = os.environ.get("M2LSP_GREEN")
    compiled(ROOT / "m2lsp", checkout)
    from m2lsp.scoring.green import ngrams

    print("m2lsp counts n-grams " + ("in C (_green.c)" if ngrams.compiled else
                                     "in Python (_green.c not built: no C compiler)"))
    if checkout:
        base, out = timed([sys.executable, "-c", AUTHORS, checkout, "-s", src, "-r", *refs,
                           "-c", system, "-d", "10"], args.runs)
        mine, printed = timed([*ours, "--green-digits", "10"], args.runs)
        same = out.split("\t")[-1] == printed.split("\t")[-1]
        report("authors' green", base, mine, same)
    else:
        print("authors' green: skipped ($M2LSP_GREEN names no checkout of shotakoyama/green)")
    try:
        import gec_metrics  # noqa: F401
    except ImportError as missing:
        if missing.name not in ("openai", "outlines"):
            print("gec-metrics GREEN: skipped (gec-metrics is not installed)")
            return
    base, out = timed([sys.executable, "-c", GEC_METRICS, src, system, *refs], args.runs)
    mine, printed = timed([*ours, "--green-variant", "gec-metrics", "--format", "json"],
                          args.runs)
    report("gec-metrics GREEN", base, mine, json.loads(out) == json.loads(printed)["green"])


def compiled(*trees: object) -> None:
    """Bytecode for every module of the trees (py_compile writes it whatever
    PYTHONDONTWRITEBYTECODE says)."""
    import compileall

    for tree in trees:
        if tree:
            compileall.compile_dir(str(tree), quiet=1)


def report(name: str, base: float, mine: float, same: bool) -> None:
    ratio = base / mine
    verdict = "met" if ratio >= GOAL else "MISSED"
    print(f"JFLEG dev, {name:<18} {base:6.3f} s   m2lsp {mine:6.3f} s   {ratio:5.2f}x faster "
          f"(goal >= {GOAL:g}x: {verdict}); numbers {'identical' if same else 'DIFFER'}")


if __name__ == "__main__":
    main()
