"""`m2lsp score --format json`: the corpus score with its signature, and every sentence's
result (chosen annotator, true and false positives, false negatives, P/R/F)."""

from __future__ import annotations

import json
from typing import Any

from m2lsp.parsing.source import Input
from m2lsp.scoring.m2.maxmatch import Counts, M2Result, SentenceResult, p_r_f


def result_json(result: M2Result, system: Input, gold: Input | None,
                extra: dict[str, Any] | None = None) -> str:
    return json.dumps(result_data(result, system, gold, extra), ensure_ascii=False,
                      indent=1) + "\n"


def result_data(result: M2Result, system: Input, gold: Input | None,
                extra: dict[str, Any] | None = None) -> dict[str, Any]:
    score = result.score
    beta = score.settings.beta
    data = {
        "metric": "m2",
        "signature": score.signature,
        "system": str(system),
        "gold": str(gold),
        "precision": score.precision,
        "recall": score.recall,
        "f": score.f,
        "beta": beta,
        "counts": _counts(score.counts),
        **(extra or {}),
        "sentences": [_sentence(s, beta) for s in result.sentences],
    }
    return data


def _counts(counts: Counts) -> dict[str, int]:
    return {"correct": int(counts.correct), "proposed": int(counts.proposed),
            "gold": int(counts.gold)}


def _sentence(result: SentenceResult, beta: float) -> dict[str, Any]:
    correct, proposed, gold = result.best.counts
    p, r, f = p_r_f(Counts(correct, proposed, gold), beta)
    return {
        "index": result.index + 1,
        "gold_line": result.line + 1,
        "annotator": result.best.annotator,
        "counts": {"correct": correct, "proposed": proposed, "gold": gold},
        "precision": p, "recall": r, "f": f,
        "true_positives": [_edit(e) for e in result.true_positives],
        "false_positives": [_edit(e) for e in result.false_positives],
        "false_negatives": [{"start": g.start, "end": g.end, "original": g.original,
                             "corrections": list(g.corrections)}
                            for g in result.false_negatives],
    }


def _edit(edit: Any) -> dict[str, Any]:
    return {"start": edit.start, "end": edit.end, "original": edit.original,
            "correction": edit.correction}
