"""LLM-S on SEEDA's twelve base systems with a small causal LM this benchmark builds (GPT-2's
layout, random weights), both tools run as whole processes in this run, each with an empty
reply cache: torch import, model loading, every prompt answered, TrueSkill of the systems.

- gec-metrics 0.1.2's Hugging Face path (`LLMKobayashi24HFSent`: outlines generates JSON
  constrained to its schema) is the baseline.  It loads models 8-bit (bitsandbytes, CUDA
  only); here the same model loads unquantised on the CPU.  It needs outlines 0.1
  (`OUTLINES_PATH`: a folder it was installed into with `pip install --target`, as
  bench/README.md says); without it that line says so and is skipped.
- m2lsp: `m2lsp.rank_systems(..., metric="llm-s", aggregation="trueskill")` (one forward
  pass per rating, learned.llm_models).
- Then m2lsp again on the filled cache: no model is loaded.

Goals: m2lsp >= 2x faster than gec-metrics' path; a cached re-run of all 391 sentences
< 1 s (the meta-evaluation's own number, default aggregation, as a whole process).
The ratings differ between the tools (outlines lets a random model write any integer);
what is compared is the time."""

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
SUBSET = DATA / "meta-eval" / "seeda" / "outputs" / "subset"
BASE = ["BART", "BERT-fuse", "GECToR-BERT", "GECToR-ens", "LM-Critic", "PIE", "REF-M",
        "Riken-Tohoku", "T5", "TemplateGEC", "TransGEC", "UEDIN-MS"]
GOAL, CACHED_GOAL = 2.0, 1.0

READ = """
import json, sys
folder, n = sys.argv[2], int(sys.argv[3])
BASE = json.loads(sys.argv[4])
read = lambda p: open(p).read().rstrip().split("\\n")
sources = read(folder + "/INPUT.txt")[:n]
hyps = [read(folder + "/" + s + ".txt")[:n] for s in BASE]
"""

REFERENCE = READ + """
import importlib.machinery, types
stub = types.ModuleType("openai")
stub.__spec__ = importlib.machinery.ModuleSpec("openai", None)
stub.OpenAI = object
sys.modules["openai"] = stub
import outlines
from transformers import AutoModelForCausalLM, AutoTokenizer
from gec_metrics.metrics import llm_kobayashi24 as module

class OnTheCpu(module.LLMKobayashi24HFSent):
    def load_client(self):  # gec-metrics' own, without the 8-bit quantisation (CUDA only)
        return outlines.models.Transformers(
            AutoModelForCausalLM.from_pretrained(self.config.model),
            AutoTokenizer.from_pretrained(self.config.model))

metric = OnTheCpu(OnTheCpu.Config(model=sys.argv[1], cache=sys.argv[5]))
print(json.dumps(metric.rank_systems(sources, hyps, aggregation="trueskill")))
"""

OURS = READ + """
import m2lsp
systems = {name: h for name, h in zip(BASE, hyps)}
print(json.dumps(m2lsp.rank_systems(systems, sources=sources, metric="llm-s",
                                    aggregation="trueskill", llm_model=sys.argv[1],
                                    llm_cache=sys.argv[5])))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sentences", type=int, default=40, help="SEEDA sentences judged "
                        "fresh by both tools (default 40; the cached re-run takes all 391)")
    parser.add_argument("--size", default="tiny", help="the model's shape (tests/learned/"
                        "models.py SHAPES; default tiny)")
    args = parser.parse_args()
    if not SUBSET.is_dir():
        print(f"skipped: SEEDA is not in {DATA}")
        return
    try:
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError as missing:
        print(f"skipped: {missing.name} is not installed (m2lsp[neural])")
        return
    with tempfile.TemporaryDirectory(prefix="m2lsp-bench-llm-") as work:
        folder = Path(work)
        model = build(folder / "model", args.size)
        env = {**os.environ, "M2LSP_CACHE_DIR": str(folder / "cache"), "PYTHONPATH": str(ROOT)}
        fresh(model, folder, args.sentences, env)
        cached(model, folder, env)


def build(folder: Path, size: str) -> str:
    sys.path.insert(0, str(ROOT))
    from tests.learned import models

    texts = (SUBSET / "INPUT.txt").read_text(encoding="utf-8").splitlines()
    return str(models.gpt2(folder, texts, seed=5, size=size))


def fresh(model: str, folder: Path, count: int, env: dict[str, str]) -> None:
    given = [str(SUBSET), str(count), json.dumps(BASE)]
    mine, _ = timed([sys.executable, "-c", OURS, model, *given, str(folder / "ours.jsonl")],
                    env)
    outlines = os.environ.get("OUTLINES_PATH")
    if not outlines:
        print(f"LLM-S, {count} SEEDA sentences x 12 systems: m2lsp {mine:6.1f} s; "
              "gec-metrics' path skipped: set OUTLINES_PATH (outlines 0.1, see the docstring)")
        return
    theirs_env = {**env, "PYTHONPATH": os.pathsep.join([outlines, env["PYTHONPATH"]])}
    base, _ = timed([sys.executable, "-c", REFERENCE, model, *given,
                     str(folder / "theirs.cache")], theirs_env)
    ratio = base / mine
    print(f"LLM-S, {count} SEEDA sentences x 12 systems, fresh: gec-metrics {base:6.1f} s   "
          f"m2lsp {mine:6.1f} s   {ratio:5.1f}x faster (goal >= {GOAL:g}x: "
          f"{'met' if ratio >= GOAL else 'MISSED'})")


def cached(model: str, folder: Path, env: dict[str, str]) -> None:
    """Every SEEDA sentence judged once (filling the cache), then meta-eval timed."""
    data = str(SUBSET.parents[2])
    argv = [sys.executable, "-m", "m2lsp", "meta-eval", "--data", data, "--metric", "llm-s",
            "--llm-model", model, "--format", "json"]
    first, _ = timed(argv, env)
    again, _ = timed(argv, env)
    print(f"LLM-S meta-eval on SEEDA (391 sentences x 12 systems): judging {first:6.1f} s, "
          f"cached re-run {again:5.2f} s (goal < {CACHED_GOAL:g} s: "
          f"{'met' if again < CACHED_GOAL else 'MISSED'})")


if __name__ == "__main__":
    main()
