"""`m2lsp check` on a generated 400k-line M2 file, against reading and splitting it.

The baseline is measured in the same run: read the bytes, decode, split into lines, split
each line on whitespace.  The ratio check / baseline is the figure of merit (goal <= 4).
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


def baseline(path: Path) -> float:
    start = time.perf_counter()
    text = path.read_bytes().decode("utf-8")
    _ = [line.split() for line in text.split("\n")]
    return time.perf_counter() - start


def check_in_process(path: Path) -> float:
    from m2lsp.lint import lint
    from m2lsp.model import Format
    from m2lsp.parsing.source import decode

    start = time.perf_counter()
    lint(decode(path.read_bytes()), Format.M2)
    return time.perf_counter() - start


def check_command(path: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "m2lsp", "check", "-q", str(path)],
                   stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=400_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    path = cached(args.lines)
    rows = []
    for _ in range(args.runs):
        base = baseline(path)
        rows.append((base, check_in_process(path), check_command(path)))
    base = statistics.median(r[0] for r in rows)
    lib = statistics.median(r[1] for r in rows)
    cmd = statistics.median(r[2] for r in rows)
    size = path.stat().st_size / 1e6
    print(f"file: {path.name}, {args.lines} lines, {size:.1f} MB; median of {args.runs} runs")
    print(f"baseline (read + split)        {base:7.3f} s")
    print(f"lint() in process              {lib:7.3f} s   ratio {lib / base:5.2f}")
    print(f"`m2lsp check` (whole command)  {cmd:7.3f} s   ratio {cmd / base:5.2f}   goal <= 4")


if __name__ == "__main__":
    main()
