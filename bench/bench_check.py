"""`m2lsp check` on generated 400k-line M2 files, against reading and splitting them.

Two files: a clean one, and a messy one with about 130k findings (bench/generate.py
--messy).  The baseline is measured in the same run: read the bytes, decode, split into
lines, split each line on whitespace.  The ratio check / baseline is the figure of merit.
Goals: clean <= 2x; messy <= 4x in text and <= 6x in JSON.  The command reads M2 chunk by
chunk (lint_stream); lint() parses the whole document, as the API and the editor do.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate import cached  # noqa: E402

# (file, output format) -> the goal for check / baseline
GOALS = {("clean", "text"): 2.0, ("messy", "text"): 4.0, ("messy", "json"): 6.0}


def baseline(path: Path) -> float:
    start = time.perf_counter()
    text = path.read_bytes().decode("utf-8")
    _ = [line.split() for line in text.split("\n")]
    return time.perf_counter() - start


def check_in_process(path: Path) -> float:
    from m2lsp.linting.run import lint
    from m2lsp.model import Format
    from m2lsp.parsing.source import decode

    start = time.perf_counter()
    lint(decode(path.read_bytes()), Format.M2)
    return time.perf_counter() - start


def stream_in_process(path: Path) -> float:
    """What `m2lsp check` runs on an M2 file: the rules chunk by chunk (linting/stream.py),
    with its default cap of findings listed per rule."""
    from m2lsp.linting.cap import MOST_PER_RULE
    from m2lsp.linting.stream import lint_stream
    from m2lsp.parsing.source import decode

    start = time.perf_counter()
    lint_stream(decode(path.read_bytes()), most_per_rule=MOST_PER_RULE)
    return time.perf_counter() - start


def check_command(path: Path, output: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "m2lsp", "check", "-q", "--output-format", output,
                    str(path)], stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=400_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    for name in ("clean", "messy"):
        path = cached(args.lines, defects=name == "messy")
        outputs = [o for f, o in GOALS if f == name]
        rows = [(baseline(path), check_in_process(path), stream_in_process(path),
                 *(check_command(path, o) for o in outputs)) for _ in range(args.runs)]
        base = statistics.median(r[0] for r in rows)
        lib = statistics.median(r[1] for r in rows)
        streamed = statistics.median(r[2] for r in rows)
        size = path.stat().st_size / 1e6
        print(f"{name} file: {path.name}, {args.lines} lines, {size:.1f} MB; median of "
              f"{args.runs} runs")
        print(f"  baseline (read + split)         {base:7.3f} s")
        print(f"  lint() in process               {lib:7.3f} s   ratio {lib / base:5.2f}")
        print(f"  lint_stream() in process        {streamed:7.3f} s   ratio "
              f"{streamed / base:5.2f}")
        for index, output in enumerate(outputs, 3):
            cmd = statistics.median(r[index] for r in rows)
            goal = GOALS[name, output]
            verdict = "met" if cmd / base <= goal else "MISSED"
            print(f"  `m2lsp check` ({output:4}, command) {cmd:7.3f} s   ratio "
                  f"{cmd / base:5.2f}   goal <= {goal:g}: {verdict}")


if __name__ == "__main__":
    main()
