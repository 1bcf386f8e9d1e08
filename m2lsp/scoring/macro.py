"""Macro-averaged precision, recall and F-beta over error types, as errant's pull request #52
(`compare_m2.py --f_average macro`) defines them: each error type's P, R and F from its own
TP, FP and FN (P is 1 without false positives, R 1 without false negatives, F 0 when both
are 0), then the plain mean over the types.  A type with no gold and no proposed edit has no
row, so it is left out; m2's `(none)` (false positives near no gold edit) is not an error
type and is left out too, its edits stay in the micro scores.

One difference, chosen: the pull request rounds each type's P, R and F to 4 places before
it averages them; m2lsp averages the full values and rounds only when it prints, so a
printed macro score can differ from the pull request's in the 4th decimal.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

NOT_A_TYPE = frozenset({"(none)"})


@dataclass(frozen=True)
class MacroScore:
    precision: float
    recall: float
    f: float
    types: int  # how many error types the means are over

    def data(self) -> dict[str, Any]:
        return {"precision": self.precision, "recall": self.recall, "f": self.f,
                "types": self.types}


def type_scores(tp: float, fp: float, fn: float, beta: float) -> tuple[float, float, float]:
    """One type's P, R and F-beta (errant_compare's conventions, unrounded)."""
    p = tp / (tp + fp) if fp else 1.0
    r = tp / (tp + fn) if fn else 1.0
    f = (1 + beta ** 2) * p * r / (beta ** 2 * p + r) if p + r else 0.0
    return p, r, f


def macro_average(rows: Iterable[tuple[str, float, float, float]], beta: float
                  ) -> MacroScore | None:
    """The mean of each error type's P, R and F over `rows` of (type, TP, FP, FN); None
    when no type has an edit."""
    scores = [type_scores(tp, fp, fn, beta) for name, tp, fp, fn in rows
              if name not in NOT_A_TYPE and (tp or fp or fn)]
    if not scores:
        return None
    count = len(scores)
    p, r, f = (sum(column) / count for column in zip(*scores, strict=True))
    return MacroScore(p, r, f, count)


def macro_line(macro: MacroScore | None, beta: float) -> str:
    """The line `--per-type` prints under its table."""
    if macro is None:
        return "Macro average: no error type has an edit\n"
    s = "" if macro.types == 1 else "s"
    return (f"Macro average over {macro.types} error type{s} (P, R, F{beta:g}): "
            f"{macro.precision:.4f} {macro.recall:.4f} {macro.f:.4f}\n")
