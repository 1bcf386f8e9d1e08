"""Live re-scoring latency: the real server (`m2lsp serve`) over stdio, the full CoNLL-2014
gold open with CAMB's output open beside it and scored (`m2lsp.scoreAgainst`), then
one-token edits at random places, alternately in the system document (a token replaced) and
in the gold (an A line's correction replaced).

Measures the time from `didChange` to the gold's diagnostics that follow it: the server
publishes them after it has scored the changed sentence again and chosen the annotators of
all, so the corpus score (status bar, `m2lsp/scoreReport`) is current by then.  Baselines in
the same run: the first score of the whole test set, and a request round trip that does no
work.  Goal: median <= 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_lsp import round_trip

DATA = Path(os.environ.get("M2LSP_SHARED_DATA",
                           Path(__file__).resolve().parents[2] / "shared" / "data"))
GOLD_URI, SYSTEM_URI = "file:///bench/gold.m2", "file:///bench/CAMB.txt"
GOAL = 0.100


class Client(LanguageClient):
    """Waits for the next diagnostics of the gold."""

    def __init__(self) -> None:
        super().__init__("m2lsp-bench", "1")
        self.waiting: asyncio.Future[int] | None = None

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            if params.uri == GOLD_URI and self.waiting is not None \
                    and not self.waiting.done():
                self.waiting.set_result(len(params.diagnostics))

        @self.feature("m2lsp/scoreChanged")
        def score_changed(params) -> None:
            pass

    def expect(self) -> asyncio.Future[int]:
        self.waiting = asyncio.get_running_loop().create_future()
        return self.waiting


def system_change(rng: random.Random, lines: list[str]) -> tuple[int, str]:
    row = rng.randrange(len(lines) - 1)
    tokens = lines[row].split(" ")
    tokens[rng.randrange(len(tokens))] = rng.choice(["the", "a", "have", "has", "."])
    return row, " ".join(tokens)


def gold_change(rng: random.Random, lines: list[str]) -> tuple[int, str]:
    rows = [i for i, line in enumerate(lines) if line.startswith("A ") and "noop" not in line]
    row = rng.choice(rows)
    head, kind, _, *rest = lines[row].split("|||")
    return row, "|||".join([head, kind, rng.choice(["the", "a", "-NONE-", "have"]), *rest])


def change(uri: str, version: int, row: int, old: str, new: str
           ) -> types.DidChangeTextDocumentParams:
    return types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=row, character=0),
                              end=types.Position(line=row, character=len(old))),
            text=new)])


async def started(client: LanguageClient, settings: dict | None = None,
                  capabilities: types.ClientCapabilities | None = None,
                  env: dict[str, str] | None = None) -> LanguageClient:
    """`client` talking to a new `m2lsp serve`, initialized with these m2lsp settings."""
    await client.start_io(sys.executable, "-m", "m2lsp", "serve", env=env)
    await client.initialize_async(types.InitializeParams(
        capabilities=capabilities or types.ClientCapabilities(),
        initialization_options={"m2lsp": settings} if settings else None))
    client.initialized(types.InitializedParams())
    return client


async def stopped(client: LanguageClient) -> None:
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


def open_doc(client: LanguageClient, uri: str, text: str, language: str) -> None:
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id=language, version=1,
                                             text=text)))


async def open_and_score(client: Client, gold: str, system: str,
                         options: dict | None = None) -> tuple[float, dict | None]:
    """Both documents open, then `m2lsp.scoreAgainst`: its time and its answer."""
    open_doc(client, GOLD_URI, gold, "gec-m2")
    open_doc(client, SYSTEM_URI, system, "plaintext")
    arguments = [GOLD_URI, SYSTEM_URI, *([options] if options else [])]
    start = time.perf_counter()
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="m2lsp.scoreAgainst", arguments=arguments))
    return time.perf_counter() - start, answer


async def timed_change(client: Client, uri: str, version: int, lines: list[str], row: int,
                       new: str) -> tuple[float, float]:
    """Line `row` of `uri` replaced: the time to the gold's next diagnostics, and then an
    empty request's round trip."""
    done = client.expect()
    start = time.perf_counter()
    client.text_document_did_change(change(uri, version, row, lines[row], new))
    await done
    spent = time.perf_counter() - start
    lines[row] = new
    return spent, await round_trip(client)


async def measure(gold: str, system: str, edits: int, seed: int
                  ) -> tuple[float, list[float], list[float]]:
    client = await started(Client())
    first, _ = await open_and_score(client, gold, system)
    rng = random.Random(seed)
    texts = {GOLD_URI: gold.split("\n"), SYSTEM_URI: system.split("\n")}
    versions = {GOLD_URI: 1, SYSTEM_URI: 1}
    times, trips = [], []
    for step in range(edits):
        uri = GOLD_URI if step % 2 else SYSTEM_URI
        lines = texts[uri]
        row, new = (gold_change if uri == GOLD_URI else system_change)(rng, lines)
        versions[uri] += 1
        spent, trip = await timed_change(client, uri, versions[uri], lines, row, new)
        times.append(spent)
        trips.append(trip)
    await stopped(client)
    return first, times, trips


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--edits", type=int, default=60)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    gold_path = DATA / "conll2014" / "gold" / "official-2014.combined.m2"
    system_path = DATA / "conll2014" / "systems" / "CAMB"
    if not gold_path.exists():
        print(f"skipped: the CoNLL-2014 data is not at {gold_path} (set M2LSP_SHARED_DATA)")
        return
    gold, system = gold_path.read_text("utf-8"), system_path.read_text("utf-8")
    firsts, times, trips = [], [], []
    for run in range(args.runs):
        first, found, trip = asyncio.run(measure(gold, system, args.edits, run))
        firsts.append(first)
        times += found
        trips += trip
    median, trip = statistics.median(times), statistics.median(trips)
    worst = sorted(times)[int(0.95 * (len(times) - 1))]
    print(f"CoNLL-2014 gold (1,312 sentences) with CAMB; {args.runs} runs, {len(times)} edits")
    print(f"  baseline: first score of all     {statistics.median(firsts) * 1000:8.1f} ms")
    print(f"  baseline: empty request          {trip * 1000:8.1f} ms")
    print(f"  one-token edit -> new scores     {median * 1000:8.1f} ms (median)   ratio to "
          f"the first score {median / statistics.median(firsts):5.2f}   goal <= "
          f"{GOAL * 1000:g} ms: {'met' if median <= GOAL else 'MISSED'}")
    print(f"  95th percentile                  {worst * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
