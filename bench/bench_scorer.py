"""A `Scorer` keeps what it was built with: the gold is read and checked at the first score,
and a second score of another system costs what that system costs.

Each run is a fresh process (nothing kept from an earlier one): `Scorer(metric, gold=...)`
and its first `score(CAMB)`, then `score(AMU)`, `score(CUUI)`, ... on CoNLL-2014's gold.
Goal: the later calls' median >= 2x faster than the first call (medians over --runs
processes), for m2 and errant."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("M2LSP_SHARED_DATA", ROOT.parent / "shared" / "data"))
GOAL = 2.0
CHILD = """
import json, sys, time
from pathlib import Path
import m2lsp
folder = Path(sys.argv[2])
systems = [(folder / name).read_text("utf-8").splitlines() for name in
           ("CAMB", "AMU", "CUUI", "IITB", "NTHU", "POST")]
began = time.perf_counter()
scorer = m2lsp.Scorer(sys.argv[1], gold=sys.argv[3])
scorer.score(systems[0])
first = time.perf_counter() - began
later = []
for hyps in systems[1:]:
    began = time.perf_counter()
    scorer.score(hyps)
    later.append(time.perf_counter() - began)
print(json.dumps([first, later]))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    gold = SHARED / "conll2014" / "gold" / "official-2014.combined.m2"
    if not gold.is_file():
        print(f"skipped: no CoNLL-2014 gold at {gold}")
        return
    for metric in ("m2", "errant"):
        firsts, laters = [], []
        for _ in range(args.runs):
            done = subprocess.run([sys.executable, "-c", CHILD, metric,
                                   str(SHARED / "conll2014" / "systems"), str(gold)],
                                  capture_output=True, text=True, check=True)
            first, later = json.loads(done.stdout.splitlines()[-1])
            firsts.append(first)
            laters.append(statistics.median(later))
        base, mine = statistics.median(firsts), statistics.median(laters)
        ratio = base / mine
        print(f"{metric:<7} first score {base:6.3f} s   later {mine:6.3f} s   {ratio:4.1f}x "
              f"(goal >= {GOAL:g}x: {'met' if ratio >= GOAL else 'MISSED'})")


if __name__ == "__main__":
    main()
