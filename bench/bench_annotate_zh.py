"""`m2lsp annotate --lang zh` against ChERRANT's `parallel_to_m2.py -g char` on NLPCC-2018's
test set (2,000 sentences) with its gold corrections, ChERRANT run in place from the shared
data (its `ltp` and `torch` imports given stand-ins, as the tests do).  The outputs are
checked byte for byte.  Printed: each time and its ratio to ChERRANT's, with one process
(`--jobs 1`) and with the default (every core), each with the annotation cache empty, and
the default once more with it warm.  Goal: >= 5x in one process with the cache empty.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("M2LSP_SHARED_DATA", ROOT.parent / "shared" / "data"))
CHERRANT = DATA / "mucgec" / "ChERRANT"
GOLD = DATA / "nlpcc2018" / "nlpcc18.gold"
GOAL = 5.0
STAND_INS = {"ltp.py": "class LTP:\n    pass\n",
             "torch.py": "class device:\n    pass\n\n\nclass cuda:\n    @staticmethod\n"
                         "    def is_available():\n        return False\n"}


def timed(argv: list[str], cwd: Path, env: dict | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, check=True, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> int:
    if not (CHERRANT.exists() and GOLD.exists()):
        print(f"skipped: {CHERRANT} or {GOLD} is not there")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        rows = subprocess.run([sys.executable, "-m", "m2lsp", "convert", "--to", "parallel",
                               "--no-spaces", "--skip-unconvertible", str(GOLD)], cwd=ROOT,
                              capture_output=True, text=True, check=True).stdout.splitlines()
        para = where / "nlpcc.para"
        para.write_text("".join(f"{i}\t{row}\n" for i, row in enumerate(rows, 1)), "utf-8")
        for name, text in STAND_INS.items():
            (where / name).write_text(text, "utf-8")
        env = {**os.environ, "PYTHONPATH": str(where)}
        times = {"parallel_to_m2": timed(
            [sys.executable, "parallel_to_m2.py", "-f", str(para), "-o", str(where / "ref.m2"),
             "-g", "char"], CHERRANT, env)}
        runs = (("m2lsp --jobs 1, cache empty", ["--jobs", "1"], "one"),
                ("m2lsp, cache empty", [], "default"), ("m2lsp, cache warm", [], "default"))
        for label, jobs, cache in runs:
            out = where / f"{len(times)}.m2"
            env = {**os.environ, "M2LSP_CACHE_DIR": str(where / f"cache-{cache}")}
            times[label] = timed([sys.executable, "-m", "m2lsp", "annotate", "--lang", "zh",
                                  "--parallel", str(para), "-o", str(out), "--cherrant-data",
                                  str(CHERRANT / "data"), *jobs], ROOT, env)
            if out.read_bytes() != (where / "ref.m2").read_bytes():
                print(f"{label}: output differs from parallel_to_m2's")
                return 1
    base = times["parallel_to_m2"]
    print(f"{len(rows)} sentences, outputs identical")
    for label, seconds in times.items():
        ratio = base / seconds
        goal = (f"  goal >= {GOAL:g}x: {'met' if ratio >= GOAL else 'MISSED'}"
                if label == "m2lsp --jobs 1, cache empty" else "")
        print(f"{label:<30} {seconds:7.1f} s  {ratio:5.1f}x{goal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
