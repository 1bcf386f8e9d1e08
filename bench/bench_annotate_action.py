"""The editor's "Annotate from a correction…" in the real server (`m2lsp serve` over stdio): the
BEA-2019 dev gold open, `m2lsp.annotateFromCorrection` on its sentences of about 40 tokens
with a correction new to the server (annotator 0's, one more token changed at random), the
time from the request to its answer, by which ERRANT has made the edits and the client has
applied them (goal: median <= 150 ms once the spaCy pipeline is loaded; the first call,
which loads it, is reported apart).  Baseline in the same run: a request round trip that
does no work.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_live_errant import DATA, model
from bench_live_score import open_doc, started, stopped
from bench_lsp import round_trip

GOAL = 0.150
URI = "file:///bench/gold.m2"


class Client(LanguageClient):
    """Applies every workspace edit the server sends (as an editor would)."""

    def __init__(self) -> None:
        super().__init__("m2lsp-bench", "1")

        @self.feature(types.WORKSPACE_APPLY_EDIT)
        def apply(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
            return types.ApplyWorkspaceEditResult(applied=True)

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            pass


def sentences(gold: str, low: int, high: int) -> list[tuple[int, list[str], list[str]]]:
    """(S line, source tokens, annotator 0's correction) of the sentences of low..high
    tokens."""
    out, line = [], 0
    for block in gold.rstrip("\n").split("\n\n"):
        rows = block.split("\n")
        tokens = rows[0].split()[1:]
        if low <= len(tokens) <= high:
            corrected = list(tokens)
            edits = [r[2:].split("|||") for r in rows[1:] if r.endswith("|||0")]
            for fields in sorted(edits, key=lambda f: -int(f[0].split()[0])):
                start, end = map(int, fields[0].split())
                if start >= 0:
                    corrected[start:end] = fields[2].split()
            out.append((line, tokens, corrected))
        line += len(rows) + 1
    return out


async def session(gold: str, pipeline: str, count: int, seed: int, cache: Path
                  ) -> tuple[float, list[float], list[float]]:
    client = await started(Client(), {"spacyModel": pipeline}, types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(apply_edit=True)),
        env={**os.environ, "M2LSP_CACHE_DIR": str(cache)})
    open_doc(client, URI, gold, "gec-m2")
    rng = random.Random(seed)
    chosen = sentences(gold, 38, 42)
    rng.shuffle(chosen)
    times, trips, first = [], [], 0.0
    for number, (line, _, corrected) in enumerate(chosen[:count + 1]):
        changed = list(corrected)
        changed[rng.randrange(len(changed))] = rng.choice(["the", "a", "have", "has", "."])
        start = time.perf_counter()
        answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="m2lsp.annotateFromCorrection", arguments=[URI, line, " ".join(changed)]))
        spent = time.perf_counter() - start
        if not answer.get("applied") or not answer["engine"].startswith("errant"):
            raise SystemExit(f"the action failed or did not use ERRANT: {answer}")
        if number == 0:
            first = spent
        else:
            times.append(spent)
        trips.append(await round_trip(client))
    await stopped(client)
    return first, times, trips


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=40)
    args = parser.parse_args()
    gold_path = DATA / "bea2019-dev" / "ABCN.dev.gold.bea19.m2"
    pipeline = model()
    if not gold_path.exists() or pipeline is None:
        print("skipped: needs the BEA-2019 dev gold, errant and a spaCy English pipeline")
        return
    gold = gold_path.read_text("utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        first, times, trips = asyncio.run(session(gold, pipeline, args.count, 0, Path(tmp)))
    median, trip = statistics.median(times), statistics.median(trips)
    worst = sorted(times)[int(0.95 * (len(times) - 1))]
    print(f"BEA-2019 dev gold, {len(times)} sentences of 38-42 tokens annotated from a "
          f"correction")
    print(f"  baseline: empty request          {trip * 1000:8.1f} ms")
    print(f"  first call (loads spaCy)         {first:8.1f} s")
    print(f"  annotate from a correction       {median * 1000:8.1f} ms (median)   goal <= "
          f"{GOAL * 1000:g} ms: {'met' if median <= GOAL else 'MISSED'}   "
          f"({median / trip:.0f}x the empty request)")
    print(f"  95th percentile                  {worst * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
