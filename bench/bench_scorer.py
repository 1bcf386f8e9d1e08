"""A `Scorer` keeps what it was built with: the gold is read and parsed when it is made, and
held as a parsed document, so a score of another system costs what that system costs.

1. Each run is a fresh process (nothing kept from an earlier one): `Scorer(metric,
   gold=...)` and its first `score(CAMB)`, then `score(AMU)`, `score(CUUI)`, ... on
   CoNLL-2014's gold.  Goal: the later calls' median >= 2x faster than the first call
   (medians over --runs processes), for m2 and errant.
2. With --before REF: a warm `Scorer.score(CAMB)` (m2) of this checkout against the same
   of the package at git REF (e.g. the commit before the Scorer held its gold), their
   processes taken in turns.  Goal: at least as fast (median ratio <= 1)."""

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
WARM_GOAL = 1.0
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
WARM = """
import json, sys, time
from pathlib import Path
import m2lsp

camb = Path(sys.argv[1]).read_text("utf-8").splitlines()
scorer = m2lsp.Scorer("m2", gold=sys.argv[2])
for _ in range(2):  # warm: the gold read, parsed and checked
    scorer.score(camb)
times = []
for _ in range(int(sys.argv[3])):
    began = time.perf_counter()
    scorer.score(camb)
    times.append(time.perf_counter() - began)
print(json.dumps(times))
"""


def before_tree(ref: str) -> Path:
    """The package as it was at git `ref`, in bench/.cache (with the C extensions this
    checkout built: they are not in git)."""
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", ref], capture_output=True,
                         text=True, check=True).stdout.strip()
    folder = ROOT / "bench" / ".cache" / f"before-{sha[:12]}"
    if not (folder / "m2lsp").is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", sha, "m2lsp", "grammar"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
        for built in (ROOT / "m2lsp").rglob("*.so"):
            target = folder / built.relative_to(ROOT)
            if target.parent.is_dir():
                target.write_bytes(built.read_bytes())
    return folder


def warm(tree: Path, camb: Path, gold: Path, rounds: int) -> list[float]:
    """Warm `Scorer.score(CAMB)` times of the package in `tree`, in a process of its own."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, "-c", WARM, str(camb), str(gold), str(rounds)],
                          capture_output=True, text=True, check=True, env=env, cwd=tree)
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=10, help="warm scores a process")
    parser.add_argument("--before", metavar="REF",
                        help="also time a warm Scorer.score of the package at git REF, "
                             "process by process in turn with this checkout's")
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
    if args.before is None:
        return
    camb = SHARED / "conll2014" / "systems" / "CAMB"
    trees = {"before": before_tree(args.before), "now": ROOT}
    times: dict[str, list[float]] = {"before": [], "now": []}
    for _ in range(args.runs):
        for name, tree in trees.items():
            times[name] += warm(tree, camb, gold, args.rounds)
    base, mine = statistics.median(times["before"]), statistics.median(times["now"])
    print(f"m2 warm Scorer.score(CAMB): at {args.before} {base:6.3f} s   now {mine:6.3f} s   "
          f"ratio {mine / base:4.2f} (goal <= {WARM_GOAL:g}: "
          f"{'met' if mine / base <= WARM_GOAL else 'MISSED'})")


if __name__ == "__main__":
    main()
