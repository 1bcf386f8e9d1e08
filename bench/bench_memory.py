"""Peak memory of `m2lsp check` on a generated 50 MB M2 file, as a multiple of its size.

The file is bench/generate.py's messy M2 (a defect in most blocks, a fix for about one line
in nine) at about a million lines; `check --fix` runs on a copy.  Each command is its own
process, and its peak resident set (`ru_maxrss` of the child) is the figure; the file's
size is the baseline.  Goal: at most 10 times the file (a whole-document check took 36 to
46 times it).  Memory barely varies between runs, so one run each.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate import cached  # noqa: E402

GOAL = 10.0  # peak RSS / file size
LINES = 1_030_000  # about 50 MB


def peak_rss(argv: list[str]) -> int:
    """The peak resident set of `argv` run as a process, in bytes (Linux: ru_maxrss in KiB;
    a fresh Python process in between, so the maximum is this command's own)."""
    probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], "
             "stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True,
                          text=True, check=True)
    return int(done.stdout) * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=LINES)
    args = parser.parse_args()
    source = cached(args.lines, defects=True)
    size = source.stat().st_size
    python = peak_rss([sys.executable, "-c", "import m2lsp.cli.check"])
    print(f"messy file: {source.name}, {args.lines} lines, {size / 1e6:.1f} MB; "
          f"python with m2lsp imported: {python / 1e6:.0f} MB")
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "messy.m2"
        for fix in ([], ["--fix"]):
            shutil.copyfile(source, copy)
            rss = peak_rss([sys.executable, "-m", "m2lsp", "check", "-q", *fix, str(copy)])
            verdict = "met" if rss <= GOAL * size else "MISSED"
            label = " ".join(["check", *fix])
            print(f"  `m2lsp {label:11}` peak RSS {rss / 1e6:7.0f} MB   ratio "
                  f"{rss / size:5.2f}   goal <= {GOAL:g}: {verdict}")


if __name__ == "__main__":
    main()
