"""What GLEU prints: JFLEG's `gleu.py` output byte for byte, the `gleu` package's `--fix-seed`
line, and JSON."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from m2lsp.scoring.gleu import numeric
from m2lsp.scoring.gleu.corpus import GleuResult, Summary

ONE_REFERENCE = "There is one reference. NOTE: GLEU is not computing the confidence interval."


def jfleg_text(result: GleuResult, hypothesis: str, sentence_level: bool) -> str:
    """`gleu.py --hyp HYPOTHESIS [--sent]` on stdout: the path, then the Python list of
    [mean, stdev, interval] (the corpus, or with --sent every sentence against its references).
    With one reference it prints only the first item's mean, as `gleu.py` does (with --sent:
    the first sentence's)."""
    items = ([result.sentence(i) for i in range(len(result.table))] if sentence_level
             else [result.corpus])
    if result.references == 1:
        return f"{hypothesis}\n{ONE_REFERENCE}\n{items[0].strings()[0]}\n"
    return f"{hypothesis}\n{[item.strings() for item in items]!r}\n"


def package_text(result: GleuResult, hypothesis: str) -> str:
    """`gleu -s SRC -r REFS -o HYPOTHESIS -f -d DIGITS`: the path, a tab, the mean of the
    iterations x 100 rounded half up."""
    return f"{hypothesis}\t{package_score(result)}\n"


def package_score(result: GleuResult) -> str:
    """The `gleu` package's number: the mean of the iterations x 100, rounded half up."""
    return round_half_up(100 * numeric.mean(result.iterations), result.settings.digits)


def round_half_up(value: float, digits: int) -> str:
    """The shortest decimal of `value`, rounded half up to `digits` places."""
    if math.isinf(value):
        return str(value)
    return str(Decimal(repr(value)).quantize(Decimal("0." + "0" * digits),
                                             rounding=ROUND_HALF_UP))


def _number(value: float) -> float | None:
    return None if value != value else value


def _sentence_json(values: list[float]) -> dict[str, Any]:
    s = Summary.of(values)
    return {"gleu": s.mean, "stdev": s.stdev, "interval": [_number(s.low), _number(s.high)],
            "per_reference": values}


def result_json(result: GleuResult, signature: str, system: str, references: list[str],
                sentence_level: bool) -> dict[str, Any]:
    corpus = result.corpus
    data: dict[str, Any] = {
        "metric": "gleu", "signature": signature, "system": system, "references": references,
        "sentences": len(result.table), "iterations": result.settings.iterations,
        "gleu": corpus.mean, "stdev": corpus.stdev,
        "interval": [_number(corpus.low), _number(corpus.high)]}
    if result.settings.fixed_seed:
        data["gleu_package"] = float(package_score(result)) / 100
    if sentence_level:
        data["sentence_scores"] = [_sentence_json(result.sentence_values(i))
                                   for i in range(len(result.table))]
    return data
