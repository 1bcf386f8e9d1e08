"""Live CLEME in the editor: the real server (`m2lsp serve`) over stdio, the CoNLL-2014
combined gold open with CAMB's plain-text output beside it, scored with
`m2lsp.scoreAgainst ... {metric: cleme}` (its lines annotated as errant_parallel would,
then chunked against both annotators), then one-token edits of system lines at random.

Measured: the first score (the annotation cache empty, then warm in a new server), and the
time from `didChange` to the gold's diagnostics that follow it, by which the changed line
has been annotated and chunked again and the corpus score is current (goal: median <=
150 ms).  Baseline in the same run: a request round trip that does no work.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_live_errant import model, session

DATA = Path(os.environ.get("M2LSP_SHARED_DATA",
                           Path(__file__).resolve().parents[2] / "shared" / "data"))
EDIT_GOAL = 0.150


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--edits", type=int, default=60)
    args = parser.parse_args()
    gold_path = DATA / "conll2014" / "gold" / "official-2014.combined.m2"
    system_path = DATA / "conll2014" / "systems" / "CAMB"
    pipeline = model()
    if not gold_path.exists() or pipeline is None or importlib.util.find_spec("errant") is None:
        print("skipped: needs the CoNLL-2014 data, errant and a spaCy English pipeline")
        return
    gold, system = gold_path.read_text("utf-8"), system_path.read_text("utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        cold, times, trips, score = asyncio.run(
            session(gold, system, pipeline, args.edits, 0, Path(tmp), "cleme"))
        warm, more, trip2, _ = asyncio.run(
            session(gold, system, pipeline, args.edits, 1, Path(tmp), "cleme"))
    times += more
    median, trip = statistics.median(times), statistics.median(trips + trip2)
    worst = sorted(times)[int(0.95 * (len(times) - 1))]
    print(f"CoNLL-2014 gold (1,312 sentences), CAMB as plain text, CLEME dependent ({score}); "
          f"{len(times)} edits")
    print(f"  baseline: empty request          {trip * 1000:8.1f} ms")
    print(f"  first score, cache empty         {cold:8.1f} s")
    print(f"  first score, cache warm          {warm:8.1f} s")
    print(f"  one-token edit -> new scores     {median * 1000:8.1f} ms (median)   goal <= "
          f"{EDIT_GOAL * 1000:g} ms: {'met' if median <= EDIT_GOAL else 'MISSED'}")
    print(f"  95th percentile                  {worst * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
