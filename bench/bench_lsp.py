"""Language-server latency on generated 400k-line M2 files, driving the real server
(`m2lsp serve`) over stdio: a clean file, and a messy one with about 130k findings.

Measures the time from `didOpen` to the first diagnostics, and from a one-character
`didChange` to the diagnostics of that version (median and 95th percentile over many edits
at random places).  Baselines measured in the same run: reading and splitting the file (for
the open), and a request round trip that does no work (for the change).  Goals: clean --
open <= 1.5 s, change median <= 30 ms; messy -- open <= 3 s, change median <= 100 ms and
95th percentile <= 300 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_check import baseline  # noqa: E402
from generate import cached  # noqa: E402

URI = "file:///bench/generated.m2"


class Client(LanguageClient):
    """Waits for the diagnostics of a given document version."""

    def __init__(self) -> None:
        super().__init__("m2lsp-bench", "1")
        self.waiting: dict[int, asyncio.Future[int]] = {}

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            future = self.waiting.pop(params.version or 0, None)
            if future is not None and not future.done():
                future.set_result(len(params.diagnostics))

    def expect(self, version: int) -> asyncio.Future[int]:
        future = asyncio.get_running_loop().create_future()
        self.waiting[version] = future
        return future


def one_char_change(rng: random.Random, lines: list[str], version: int,
                    ) -> types.DidChangeTextDocumentParams:
    """Type one character somewhere in a non-empty line (keeps `lines` in step)."""
    row = rng.randrange(len(lines))
    while not lines[row]:
        row = rng.randrange(len(lines))
    col = rng.randint(1, len(lines[row]))
    char = rng.choice("xyz0")
    lines[row] = lines[row][:col] + char + lines[row][col:]
    where = types.Position(line=row, character=col)
    return types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=version),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=where, end=where), text=char)])


async def round_trip(client: Client) -> float:
    start = time.perf_counter()
    await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri="file:///bench/none.m2"),
        position=types.Position(line=0, character=0)))
    return time.perf_counter() - start


async def measure(text: str, edits: int, seed: int) -> tuple[float, list[float], list[float]]:
    client = Client()
    await client.start_io(sys.executable, "-m", "m2lsp", "serve")
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities()))
    client.initialized(types.InitializedParams())
    opened = client.expect(1)
    start = time.perf_counter()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=URI, language_id="gec-m2", version=1,
                                             text=text)))
    await opened
    open_time = time.perf_counter() - start
    rng = random.Random(seed)
    lines = text.split("\n")
    changes, trips = [], []
    for version in range(2, edits + 2):
        done = client.expect(version)
        start = time.perf_counter()
        client.text_document_did_change(one_char_change(rng, lines, version))
        await done
        changes.append(time.perf_counter() - start)
        trips.append(await round_trip(client))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return open_time, changes, trips


GOALS = {  # file -> (open, change median, change 95th percentile), seconds
    "clean": (1.5, 0.030, None),
    "messy": (3.0, 0.100, 0.300),
}


def verdict(value: float, goal: float | None) -> str:
    if goal is None:
        return ""
    return f"   goal <= {goal * 1000:g} ms: {'met' if value <= goal else 'MISSED'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=400_000)
    parser.add_argument("--edits", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--files", nargs="+", choices=sorted(GOALS), default=sorted(GOALS))
    args = parser.parse_args()
    for name in args.files:
        report(name, cached(args.lines, defects=name == "messy"), args)


def report(name: str, path: Path, args: argparse.Namespace) -> None:
    text = path.read_text("utf-8")
    opens, changes, trips, bases = [], [], [], []
    for run in range(args.runs):
        bases.append(baseline(path))
        open_time, change_times, trip_times = asyncio.run(measure(text, args.edits, run))
        opens.append(open_time)
        changes += change_times
        trips += trip_times
    base, opened = statistics.median(bases), statistics.median(opens)
    change, trip = statistics.median(changes), statistics.median(trips)
    worst = sorted(changes)[int(0.95 * (len(changes) - 1))]
    goal_open, goal_change, goal_worst = GOALS[name]
    print(f"{name} file: {path.name}, {args.lines} lines; {args.runs} runs, "
          f"{len(changes)} edits")
    print(f"  baseline: read + split          {base * 1000:8.1f} ms")
    print(f"  didOpen -> first diagnostics    {opened * 1000:8.1f} ms   ratio "
          f"{opened / base:6.1f}{verdict(opened, goal_open)}")
    print(f"  baseline: empty request         {trip * 1000:8.1f} ms")
    print(f"  didChange -> diagnostics median {change * 1000:8.1f} ms   ratio "
          f"{change / trip:6.1f}{verdict(change, goal_change)}")
    print(f"  didChange 95th percentile       {worst * 1000:8.1f} ms"
          f"{verdict(worst, goal_worst)}")


if __name__ == "__main__":
    main()
