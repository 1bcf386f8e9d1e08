"""A burst of keystrokes in the language server: 300 one-character changes sent back to back
on a generated 100k-line M2 file (with findings), driving the real server (`m2lsp serve`)
over stdio.

Measures the time from the burst's last change to the diagnostics of its version, and how
many versions were published on the way.  Baselines measured in the same run: one lint pass
of the whole file (`didOpen` to its diagnostics), and one change alone (`didChange` to its
diagnostics).  Goal: the burst's final diagnostics within one lint pass of its last change
(ratio to the pass <= 1) and under 1.5 s.
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

from bench_lsp import URI, one_char_change  # noqa: E402
from generate import cached  # noqa: E402

GOAL_SECONDS, GOAL_RATIO = 1.5, 1.0


class Counting(LanguageClient):
    """Waits for the diagnostics of a given version; counts the versions published."""

    def __init__(self) -> None:
        super().__init__("m2lsp-bench", "1")
        self.waiting: dict[int, asyncio.Future[int]] = {}
        self.published: list[int] = []

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            self.published.append(params.version or 0)
            future = self.waiting.pop(params.version or 0, None)
            if future is not None and not future.done():
                future.set_result(len(params.diagnostics))

    def expect(self, version: int) -> asyncio.Future[int]:
        future = asyncio.get_running_loop().create_future()
        self.waiting[version] = future
        return future


async def measure(text: str, burst: int, singles: int, seed: int
                  ) -> tuple[float, list[float], float, int]:
    """The open's lint pass, single changes' latencies, then the burst's last-change
    latency and how many versions of the burst were published."""
    client = Counting()
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
    lint_pass = time.perf_counter() - start
    rng = random.Random(seed)
    lines = text.split("\n")
    version, single = 1, []
    for _ in range(singles):
        version += 1
        done = client.expect(version)
        start = time.perf_counter()
        client.text_document_did_change(one_char_change(rng, lines, version))
        await done
        single.append(time.perf_counter() - start)
    first = version + 1
    changes = [one_char_change(rng, lines, v) for v in range(first, first + burst)]
    final = client.expect(first + burst - 1)
    for change in changes:
        client.text_document_did_change(change)
    last = time.perf_counter()
    await asyncio.wait_for(final, 120)
    latency = time.perf_counter() - last
    published = sum(1 for v in client.published if v >= first)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return lint_pass, single, latency, published


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--burst", type=int, default=300)
    parser.add_argument("--singles", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    path = cached(args.lines, defects=True)
    text = path.read_text("utf-8")
    passes, singles, bursts, published = [], [], [], []
    for run in range(args.runs):
        lint_pass, single, latency, count = asyncio.run(
            measure(text, args.burst, args.singles, run))
        passes.append(lint_pass)
        singles += single
        bursts.append(latency)
        published.append(count)
    base, burst = statistics.median(passes), statistics.median(bursts)
    met = burst <= GOAL_SECONDS and burst / base <= GOAL_RATIO
    print(f"burst file: {path.name}, {args.lines} lines; {args.runs} runs of "
          f"{args.burst} changes")
    print(f"  baseline: one lint pass (didOpen)     {base * 1000:8.1f} ms")
    print(f"  one change alone -> diagnostics       {statistics.median(singles) * 1000:8.1f}"
          " ms")
    print(f"  burst's last change -> diagnostics    {burst * 1000:8.1f} ms   ratio "
          f"{burst / base:6.1f}   goal <= {GOAL_SECONDS * 1000:g} ms and ratio <= "
          f"{GOAL_RATIO:g}: {'met' if met else 'MISSED'}")
    print(f"  versions published during the burst   {statistics.median(published):8.0f}"
          f" of {args.burst}")


if __name__ == "__main__":
    main()
