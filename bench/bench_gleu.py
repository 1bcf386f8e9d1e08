"""GLEU on JFLEG test against JFLEG's own `eval/gleu.py`, both run as commands in this run.

Outputs must be identical (the corpus score and --sent).  Goal: m2lsp >= 5x faster than
gleu.py on JFLEG test with its four references (medians of --runs runs).  gleu.py is read in
place from ../shared/data/jfleg (or $JFLEG) and needs NumPy and SciPy (the test extras).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JFLEG = Path(os.environ.get("JFLEG", ROOT.parent / "shared" / "data" / "jfleg"))
GOAL = 5.0


def timed(argv: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    src = JFLEG / "test" / "test.src"
    if not (JFLEG / "eval" / "gleu.py").is_file() or not src.is_file():
        print(f"skipped: JFLEG's test set and eval/gleu.py are not in {JFLEG}")
        return
    refs = [str(JFLEG / "test" / f"test.ref{k}") for k in range(4)]
    for label, extra in (("corpus", []), ("--sent", ["--sent"])):
        theirs = [sys.executable, str(JFLEG / "eval" / "gleu.py"), "--src", str(src),
                  "--hyp", str(src), "--ref", *refs, *extra]
        ours = [sys.executable, "-m", "m2lsp", "score", "--metric", "gleu", str(src),
                "--source", str(src), "--ref", *refs, *extra]
        rows = [(timed(theirs), timed(ours)) for _ in range(args.runs)]
        if any(t[1] != o[1] for t, o in rows):
            sys.exit(f"outputs differ ({label})")
        base = statistics.median(t[0] for t, _ in rows)
        mine = statistics.median(o[0] for _, o in rows)
        ratio = base / mine
        verdict = "met" if ratio >= GOAL else "MISSED"
        print(f"JFLEG test {label:<7} gleu.py {base:6.2f} s   m2lsp {mine:6.2f} s   "
              f"{ratio:5.1f}x faster (goal >= {GOAL:g}x: {verdict}); outputs identical")


if __name__ == "__main__":
    main()
