"""What the benchmarks share: one whole process timed, its output kept, the benchmark
stopped with the process's last words where it fails (a ratio against a failed run would
mean nothing)."""

from __future__ import annotations

import subprocess
import sys
import time


def timed(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, str]:
    """Seconds `argv` took as a process, and what it printed on stdout."""
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env)
    if done.returncode:
        sys.exit(f"failed: {' '.join(argv[:4])} ...\n{done.stderr[-2000:]}")
    return time.perf_counter() - start, done.stdout
