"""`m2lsp errant-compare` against errant_compare 3.0.2 on the BEA-2019 dev gold.

Both as whole commands (interpreter start and imports included: what a user waits for) and
in process (errant's compare_m2.main after its import, against m2lsp's cli.main), medians of
--runs alternating runs, with the outputs checked byte for byte.  The BEA dev file is
compared with itself (as the issue asks) and with a hypothesis made from it by dropping,
changing and moving edits.  Goal: >= 5x faster as a command.  errant 3.0.2 comes with the
test extras (`pip install -e '.[test]'`).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("M2LSP_SHARED_DATA", ROOT.parent / "shared" / "data"))
BEA = DATA / "bea2019-dev" / "ABCN.dev.gold.bea19.m2"


def hypothesis_from(gold: Path, out: Path, seed: int = 7) -> Path:
    """Gold edits dropped (20%), with a changed correction (10%) or annotator (10%)."""
    rng = random.Random(seed)
    lines = []
    for line in gold.read_text(encoding="utf-8").split("\n"):
        roll = rng.random()
        if line.startswith("A ") and roll < 0.2:
            continue
        if line.startswith("A ") and roll < 0.4:
            fields = line.split("|||")
            fields[2 if roll < 0.3 else -1] = fields[2] + " x" if roll < 0.3 else "1"
            line = "|||".join(fields)
        lines.append(line)
    out.write_text("\n".join(lines), encoding="utf-8")
    return out


def command(argv: list[str]) -> tuple[float, bytes]:
    start = time.perf_counter()
    out = subprocess.run(argv, capture_output=True, check=True).stdout
    return time.perf_counter() - start, out


def in_process(run, args: list[str]) -> tuple[float, str]:
    out = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        run(args)
    return time.perf_counter() - start, out.getvalue()


def errant_main():
    spec = importlib.util.find_spec("errant")
    path = Path(spec.submodule_search_locations[0]) / "commands" / "compare_m2.py"
    module_spec = importlib.util.spec_from_file_location("errant_compare_m2", path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)

    def run(args: list[str]) -> None:
        argv, sys.argv = sys.argv, ["errant_compare", *args]
        try:
            module.main()
        finally:
            sys.argv = argv
    return run


def m2lsp_main(args: list[str]) -> None:
    from m2lsp.cli import main

    main(["errant-compare", *args])


def measure(name: str, args: list[str], runs: int, reference: str) -> float:
    ours_cmd = [sys.executable, "-m", "m2lsp", "errant-compare", *args]
    theirs_cmd, times = [reference, *args], {k: [] for k in ("tc", "oc", "tp", "op")}
    errant_run = errant_main()
    for _ in range(runs):
        t, expected = command(theirs_cmd)
        times["tc"].append(t)
        t, found = command(ours_cmd)
        times["oc"].append(t)
        assert found == expected, f"{name}: outputs differ"
        t, expected_text = in_process(errant_run, args)
        times["tp"].append(t)
        t, found_text = in_process(m2lsp_main, args)
        times["op"].append(t)
        assert found_text == expected_text, f"{name}: outputs differ in process"
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{name:<34} command: errant_compare {med['tc']:.3f} s, m2lsp {med['oc']:.3f} s "
          f"({med['tc'] / med['oc']:.1f}x)   in process: {med['tp']:.3f} s vs "
          f"{med['op']:.3f} s ({med['tp'] / med['op']:.1f}x)")
    return med["tc"] / med["oc"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    reference = shutil.which("errant_compare", path=str(Path(sys.executable).parent)) \
        or shutil.which("errant_compare")
    if reference is None or importlib.util.find_spec("errant") is None:
        print("errant_compare (errant 3.0.2) is not installed: pip install -e '.[test]'")
        return 1
    if not BEA.is_file():
        print(f"skipped: {BEA} is absent")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        hyp = hypothesis_from(BEA, Path(tmp) / "hyp.m2")
        ratios = [measure(name, flags, args.runs, reference) for name, flags in [
            ("BEA dev against itself", ["-hyp", str(BEA), "-ref", str(BEA)]),
            ("BEA dev, changed hypothesis", ["-hyp", str(hyp), "-ref", str(BEA)]),
            ("... -cat 3", ["-hyp", str(hyp), "-ref", str(BEA), "-cat", "3"]),
            ("... -v", ["-hyp", str(hyp), "-ref", str(BEA), "-v"]),
        ]]
    print(f"goal >= 5x as a command: {'met' if ratios[0] >= 5 else 'MISSED'} on the BEA dev "
          f"file against itself ({ratios[0]:.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
