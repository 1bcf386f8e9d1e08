"""Learned metrics against gec-metrics 0.1.1 on the CPU: IMPARA and SOME on CoNLL-2014's
1,312 sentences (CAMB's output), with models of BERT-base's shape (12 layers, 768 wide)
and random weights that this benchmark builds, both run as whole processes in this run
(torch import, model loading and scoring; m2lsp with an empty cache).

Numbers must agree (float32: sentence scores within 1e-5, see tests/learned).  Goal: m2lsp
>= 2x faster than gec-metrics.  gec-metrics is imported with its LLM metric's modules stood
in for and `.cuda()` a no-op (its SOME calls it unconditionally), as the tests do.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from timing import timed  # bench/, the script's own folder

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("M2LSP_SHARED_DATA", ROOT.parent / "shared" / "data"))
GOAL = 2.0

REFERENCE = """
import importlib.machinery, json, sys, types
for name in ("openai", "outlines"):
    stub = types.ModuleType(name)
    stub.__spec__ = importlib.machinery.ModuleSpec(name, None)
    stub.OpenAI = object
    sys.modules[name] = stub
import torch
torch.nn.Module.cuda = lambda self, *a, **k: self
torch.Tensor.cuda = lambda self, *a, **k: self
from gec_metrics.metrics import IMPARA, SOME
metric, models, source, system = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], sys.argv[4]
sources = open(source).read().rstrip("\\n").split("\\n")
hypotheses = open(system).read().rstrip("\\n").split("\\n")
if metric == "impara":
    scorer = IMPARA(IMPARA.Config(model_qe=models["qe"], model_se=models["se"], no_cuda=True))
else:
    scorer = SOME(SOME.Config(model_g=models["g"], model_f=models["f"], model_m=models["m"],
                              no_cuda=True))
print(json.dumps(scorer.score_sentence(sources, hypotheses)))
"""


def build(folder: Path, texts: list[str]) -> dict[str, str]:
    sys.path.insert(0, str(ROOT))
    from tests.learned import models

    made = {"qe": models.bert(folder / "qe", texts, seed=1, head="classifier", size="base"),
            "se": models.bert(folder / "se", texts, seed=2, size="base")}
    for k, name in enumerate("gfm"):
        made[name] = models.bert(folder / name, texts, seed=10 + k, head="classifier",
                                 size="base")
    return {k: str(v) for k, v in made.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--metrics", nargs="+", default=["impara", "some"])
    args = parser.parse_args()
    gold = DATA / "conll2014" / "gold" / "official-2014.combined.m2"
    system = DATA / "conll2014" / "systems" / "CAMB"
    try:
        import gec_metrics  # noqa: F401
        import torch  # noqa: F401
    except ImportError as missing:
        if missing.name not in ("openai", "outlines"):
            print(f"skipped: {missing.name} is not installed (m2lsp[neural], gec-metrics)")
            return
    if not gold.is_file():
        print(f"skipped: CoNLL-2014 is not in {DATA}")
        return
    with tempfile.TemporaryDirectory(prefix="m2lsp-bench-learned-") as work:
        folder = Path(work)
        sources = [line[2:] for line in gold.read_text(encoding="utf-8").splitlines()
                   if line.startswith("S ")]
        (folder / "src").write_text("\n".join(sources) + "\n", encoding="utf-8")
        texts = sources + system.read_text(encoding="utf-8").splitlines()
        made = build(folder / "models", texts)
        env = {**os.environ, "M2LSP_CACHE_DIR": str(folder / "cache"),
               "PYTHONPATH": str(ROOT)}
        for metric in args.metrics:
            run(metric, made, folder, system, env)


def run(metric: str, made: dict[str, str], folder: Path, system: Path,
        env: dict[str, str]) -> None:
    theirs = [sys.executable, "-c", REFERENCE, metric, json.dumps(made), str(folder / "src"),
              str(system)]
    flags = (["--impara-model-qe", made["qe"], "--impara-model-se", made["se"]]
             if metric == "impara" else
             ["--some-model-g", made["g"], "--some-model-f", made["f"], "--some-model-m",
              made["m"]])
    ours = [sys.executable, "-m", "m2lsp", "score", "--metric", metric, str(system),
            "--source", str(folder / "src"), *flags, "--format", "json"]
    base, out = timed(theirs, env)
    mine, printed = timed(ours, {**env, "M2LSP_CACHE_DIR": str(folder / f"cache-{metric}")})
    expected, found = json.loads(out), json.loads(printed)["sentence_scores"]
    worst = max(abs(a - b) for a, b in zip(expected, found, strict=True))
    agreed = "agree" if worst < 1e-5 else "DIFFER"
    ratio = base / mine
    verdict = "met" if ratio >= GOAL else "MISSED"
    print(f"{metric:<7} CoNLL-2014 CAMB, BERT-base shape: gec-metrics {base:7.1f} s   "
          f"m2lsp {mine:7.1f} s   {ratio:5.1f}x faster (goal >= {GOAL:g}x: {verdict}); "
          f"sentence scores {agreed} (largest difference {worst:.1e})")


if __name__ == "__main__":
    main()
