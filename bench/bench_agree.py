"""`m2lsp agree` on many annotators: time and output linear in what is asked.

A generated file of 300 sentences, each annotated by four of N annotators (the shape of a
crowd-sourced file: 500 annotators in about 70 KB took 80 s and printed 54 MB when every
pair was printed).  By default agree prints one row per annotator: the run at N = 500 is
measured against the run at N = 50 on the same number of lines.  Goal: the 500-annotator
summary within 2x of the 50-annotator one (the pairs grow 100-fold), its output within
the 10x the rows grow; and `--annotators` over four of the 500 within 2x of the summary.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

from timing import timed

GOAL = 2.0


def generated(annotators: int, sentences: int = 300, seed: int = 1) -> str:
    rng = random.Random(seed)
    out = []
    for _ in range(sentences):
        out.append("S " + " ".join(f"w{j}" for j in range(8)))
        for who in rng.sample(range(annotators), 4):
            at = rng.randrange(8)
            out.append(f"A {at} {at + 1}|||R:NOUN|||x{rng.randrange(2)}|||REQUIRED|||-NONE-"
                       f"|||{who}")
        out.append("")
    return "\n".join(out) + "\n"


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        small, large = Path(folder) / "a50.m2", Path(folder) / "a500.m2"
        small.write_text(generated(50), encoding="utf-8")
        large.write_text(generated(500), encoding="utf-8")
        agree = [sys.executable, "-m", "m2lsp", "agree"]
        base, base_out = min(timed([*agree, str(small)]) for _ in range(3))
        many, many_out = min(timed([*agree, str(large)]) for _ in range(3))
        some, _ = min(timed([*agree, str(large), "--annotators", "0,1,2,4"])
                      for _ in range(3))
    time_ratio, out_ratio = many / base, len(many_out) / len(base_out)
    print(f"50 annotators (summary):   {base:.2f} s, {len(base_out):,} bytes")
    print(f"500 annotators (summary):  {many:.2f} s, {len(many_out):,} bytes  "
          f"(x{time_ratio:.2f} time, x{out_ratio:.2f} output; goal time <= x{GOAL:g}: "
          f"{'met' if time_ratio <= GOAL else 'MISSED'})")
    print(f"500 annotators, 4 chosen:  {some:.2f} s (x{some / many:.2f} of the summary; goal "
          f"<= x{GOAL:g}: {'met' if some / many <= GOAL else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
