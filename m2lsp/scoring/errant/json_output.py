"""`m2lsp score --metric errant --format json`: the corpus score with its signature, and
every sentence's result (chosen annotators, true and false positives, false negatives)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from m2lsp.parsing.source import Input
from m2lsp.scoring.errant.compare import CoderEdits, ErrantResult, ErrantSentence, Key, f_score
from m2lsp.scoring.errant.report import categories_json


def result_json(result: ErrantResult, hyp: Path, ref: Path | None, per_type: bool = False) -> str:
    return json.dumps(result_data(result, hyp, ref, per_type), ensure_ascii=False,
                      indent=1) + "\n"


def result_data(result: ErrantResult, hyp: Input, ref: Input | None, per_type: bool = False
                ) -> dict[str, Any]:
    beta = result.settings.beta
    p, r, f = result.scores
    data: dict[str, Any] = {
        "metric": "cherrant" if result.settings.cherrant else "errant",
        "signature": result.settings.signature(),
        "system": str(hyp),
        "gold": str(ref),
        "precision": p, "recall": r, "f": f, "beta": beta,
        "counts": {"true_positives": result.tp, "false_positives": result.fp,
                   "false_negatives": result.fn},
    }
    if per_type:
        data["per_type"] = categories_json(result.categories, beta)
    data["sentences"] = [sentence_json(s, beta) for s in result.sentences]
    return data


def sentence_json(sentence: ErrantSentence, beta: float) -> dict[str, Any]:
    best = sentence.best
    p, r, f = f_score(best.tp, best.fp, best.fn, beta)
    return {
        "index": sentence.index + 1,
        "gold_line": sentence.ref_block.line + 1,
        "system_line": sentence.hyp_block.line + 1,
        "annotator": best.ref.coder,
        "hypothesis_annotator": best.hyp.coder,
        "counts": {"true_positives": best.tp, "false_positives": best.fp,
                   "false_negatives": best.fn},
        "precision": p, "recall": r, "f": f,
        "true_positives": [_edit(k, best.hyp) for k in best.true_positives],
        "false_positives": [_edit(k, best.hyp) for k in best.false_positives],
        "false_negatives": [_edit(k, best.ref) for k in best.false_negatives],
    }


def _edit(key: Key, coder: CoderEdits) -> dict[str, Any]:
    out: dict[str, Any] = {"start": key[0], "end": key[1], "type": coder.types[key][0],
                           "line": coder.lines[key] + 1}
    if len(key) > 2:
        out["correction"] = key[-1]
    return out
