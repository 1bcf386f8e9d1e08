"""m2lsp's M2 scorer against the NUS M2 scorer 3.2 on the CoNLL-2014 submissions.

For each system of ../shared/data/conll2014/systems: the official scorer's time (run here
when it is present -- set M2SCORER_32 to its scripts/m2scorer.py and PYTHON2 to a Python 2.7
-- else the figures recorded on this project's machines), and m2lsp's time as a whole
command (`python -m m2lsp score`, interpreter start included) and in process (reading both
files and scoring), medians of --runs runs.  Outputs must be identical.  Goals: all systems
>= 100x faster in total, NTHU >= 1000x.  Also the slowest single sentences, and the
degenerate hypothesis of the scorer's issue #8 on CoNLL-2014 sentence 333 (goal: < 1 s).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("M2LSP_SHARED_DATA", ROOT.parent / "shared" / "data")) / "conll2014"
GOLD = DATA / "gold" / "official-2014.combined.m2"
SYSTEMS = ["AMU", "CAMB", "CUUI", "IITB", "INPUT", "NTHU", "POST", "UFC"]
# NUS M2 scorer 3.2 under Python 2.7.18, default options, one core of this project's
# 2-core machines (seconds, measured 2026-11-22)
RECORDED = {"AMU": 13.45, "CAMB": 12.79, "CUUI": 12.31, "IITB": 10.77, "INPUT": 10.41,
            "NTHU": 285.94, "POST": 13.66, "UFC": 9.92}
DEGENERATE = (
    "As it is a genetic risk , the patient force might have a high chance of carrying the "
    "risk , hence the need to inform their relatives is important . Hence , you are "
    "suffering from a genetic disease that the genetic trait might be passed on to your next "
    "generation if you have a child . Hence , there is no legal obligation to disclose to "
    "their family members , there is no legal obligation ."
    + " Hence , there is no legal obligation ." * 18)


def official_time(system: str) -> tuple[float, str, bool]:
    """(seconds, output, measured now?)"""
    script, python2 = os.environ.get("M2SCORER_32"), os.environ.get("PYTHON2", "python2")
    if not script:
        return RECORDED[system], "", False
    start = time.perf_counter()
    out = subprocess.run([python2, script, str(DATA / "systems" / system), str(GOLD)],
                         capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - start, out, True


def compile_bytecode() -> None:
    """m2lsp's modules compiled to bytecode, as `pip install` leaves them: where
    PYTHONDONTWRITEBYTECODE is set (these machines set it), a source checkout has none, and
    every run would compile every module it imports (about 40 ms of a 0.25 s command)."""
    import compileall

    compileall.compile_dir(str(ROOT / "m2lsp"), quiet=1)


# Commands run from an empty folder, as from a data folder with no pyproject.toml: run in
# m2lsp's own checkout, a command would also parse m2lsp's pyproject.toml (it names m2lsp),
# which a user's folder does not make it do.  PYTHONPATH keeps this checkout's m2lsp.
NEUTRAL = Path(tempfile.mkdtemp(prefix="m2lsp-bench-"))


def command_time(system: str) -> tuple[float, str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p))
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "m2lsp", "score", str(DATA / "systems" / system),
                          str(GOLD)], capture_output=True, text=True, check=True, cwd=NEUTRAL,
                         env=env).stdout
    return time.perf_counter() - start, out


def in_process_time(system: str) -> float:
    from m2lsp.cli import main

    start = time.perf_counter()
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):  # (the signature)
        main(["score", str(DATA / "systems" / system), str(GOLD)])
    return time.perf_counter() - start


def slowest_sentences(count: int = 3) -> list[tuple[float, str, int]]:
    from m2lsp.parsing.m2 import parse_m2
    from m2lsp.parsing.source import SourceText
    from m2lsp.scoring.m2.inputs import read_gold, read_system
    from m2lsp.scoring.m2.maxmatch import M2Settings, score_sentence

    text = SourceText(GOLD.read_text(encoding="utf-8"))
    gold = read_gold(parse_m2(text), text)
    rows = []
    for system in SYSTEMS:
        hypotheses = read_system(SourceText((DATA / "systems" / system).read_text("utf-8")))
        for index, (g, h) in enumerate(zip(gold, hypotheses, strict=True)):
            start = time.perf_counter()
            score_sentence(index, g, h, M2Settings())
            rows.append((time.perf_counter() - start, system, index + 1))
    return sorted(rows, reverse=True)[:count]


def degenerate_time() -> float:
    """The scorer's issue #8: a hypothesis repeating a clause against sentence 333."""
    from m2lsp.parsing.m2 import parse_m2
    from m2lsp.parsing.source import SourceText
    from m2lsp.scoring.m2.inputs import read_gold
    from m2lsp.scoring.m2.maxmatch import M2Settings, score_sentence

    text = SourceText(GOLD.read_text(encoding="utf-8"))
    gold = read_gold(parse_m2(text), text)
    start = time.perf_counter()
    score_sentence(332, gold[332], DEGENERATE, M2Settings())
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--systems", default=",".join(SYSTEMS),
                        help="comma separated (default: all 8; NTHU alone takes the official "
                        "scorer about 5 minutes)")
    args = parser.parse_args()
    chosen = [s for s in args.systems.split(",") if s]
    if not GOLD.exists():
        sys.exit(f"the CoNLL-2014 data is not at {DATA}")
    sys.path.insert(0, str(ROOT))
    print(f"{'system':8}{'official':>10}{'m2lsp cmd':>11}{'ratio':>8}{'in-proc':>10}"
          f"{'ratio':>8}  output")
    compile_bytecode()
    totals = [0.0, 0.0, 0.0]
    recorded = False
    nthu = camb = 0.0
    for system in chosen:
        official, official_out, measured = official_time(system)
        commands = [command_time(system) for _ in range(args.runs)]
        command = statistics.median(t for t, _ in commands)
        inside = statistics.median(in_process_time(system) for _ in range(args.runs))
        expected = (DATA.parent / "conll2014" / "expected" / "m2scorer-3.2" /
                    f"{system}.txt").read_text()
        same = all(out == expected for _, out in commands) and (
            not measured or official_out == expected)
        totals = [totals[0] + official, totals[1] + command, totals[2] + inside]
        nthu = official / command if system == "NTHU" else nthu
        camb = official / command if system == "CAMB" else camb
        mark = "" if measured else "*"
        recorded = recorded or not measured
        print(f"{system:8}{official:>9.2f}{mark:1}{command:>10.3f}s{official / command:>7.0f}x"
              f"{inside:>9.3f}s{official / inside:>7.0f}x  "
              f"{'identical' if same else 'DIFFERENT'}")
    print(f"{'total':8}{totals[0]:>9.2f} {totals[1]:>10.3f}s{totals[0] / totals[1]:>7.0f}x"
          f"{totals[2]:>9.3f}s{totals[0] / totals[2]:>7.0f}x")
    overall = totals[0] / totals[1]
    goals = [f"the systems run >= 100x: {met(overall >= 100)} ({overall:.0f}x)"]
    if "NTHU" in chosen:
        goals.append(f"NTHU >= 1000x: {met(nthu >= 1000)} ({nthu:.0f}x)")
    if "CAMB" in chosen:
        goals.append(f"CAMB >= 40x: {met(camb >= 40)} ({camb:.0f}x)")
    print("goals, as whole commands: " + "; ".join(goals))
    if recorded:
        print("* recorded official time (set M2SCORER_32 and PYTHON2 to measure it in this run)")
    else:
        print("official times measured in this run")
    print("slowest sentences (seconds):")
    for seconds, system, line in slowest_sentences():
        print(f"  {seconds:8.4f}  {system} sentence {line}")
    degenerate = statistics.median(degenerate_time() for _ in range(args.runs))
    print(f"  {degenerate:8.4f}  issue #8 hypothesis, sentence 333 (median of {args.runs}; "
          f"goal < 1 s: {met(degenerate < 1)})")


def met(ok: bool) -> str:
    return "met" if ok else "MISSED"


if __name__ == "__main__":
    main()
