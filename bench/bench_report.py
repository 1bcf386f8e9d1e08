"""`m2lsp report` on the 8 CoNLL-2014 outputs: the time to score them (the metric's own
work, `run_many`, the baseline measured in the same run) and the time the report adds on
top (intervals, the 28 pairs' tests, Holm, the sentences, the figures, the page); goal: the
page within 10 s of the scores, and at most 5 MB."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from m2lsp.cli import main
from m2lsp.config import ScoreSettings
from m2lsp.scoring.metric import Request, Shared, metric

DATA = Path(os.environ.get("M2LSP_SHARED_DATA",
                           Path(__file__).resolve().parents[2] / "shared" / "data"))
NAMES = ("AMU", "CAMB", "CUUI", "IITB", "INPUT", "NTHU", "POST", "UFC")
GOAL_SECONDS, GOAL_BYTES = 10.0, 5_000_000


def main_bench() -> None:
    gold = DATA / "conll2014" / "gold" / "official-2014.combined.m2"
    systems = [DATA / "conll2014" / "systems" / name for name in NAMES]
    if not gold.exists():
        print("skipped: needs the CoNLL-2014 gold and outputs")
        return
    m2 = metric("m2")
    request = Request(systems[0], gold, Shared(), m2.options({}, Shared(), ScoreSettings()))
    start = time.perf_counter()
    m2.run_many(request, systems)
    scores = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "report.html"
        start = time.perf_counter()
        code = main(["report", str(gold), *map(str, systems), "-o", str(page)])
        whole = time.perf_counter() - start
        size = page.stat().st_size
    if code != 0:
        sys.exit("m2lsp report failed")
    added = whole - scores
    print("CoNLL-2014 gold, 8 outputs, m2, 1000 samples")
    print(f"  scoring the 8 outputs (baseline)   {scores:6.2f} s")
    print(f"  m2lsp report, the whole command    {whole:6.2f} s   ({whole / scores:.1f}x the "
          f"scores)")
    print(f"  the report beyond the scores       {added:6.2f} s   goal <= {GOAL_SECONDS:g} s: "
          f"{'met' if added <= GOAL_SECONDS else 'MISSED'}")
    print(f"  the page                           {size / 1e6:6.2f} MB  goal <= 5 MB: "
          f"{'met' if size <= GOAL_BYTES else 'MISSED'}")


if __name__ == "__main__":
    main_bench()
