"""The NLP-TEA evaluation tools' printed reports, byte for byte (`--cged-report 2015`: the
file `nlptea15cged.jar -o` writes).  Numbers are printed as the jars print them: Java's
`%.4f` (half-up rounding of the shortest decimal form), then trailing zeros and a trailing
point cut off (so 1.0 prints `1`, and 0/0 prints `NaN`).  The jars end lines with the
platform's separator: LF here, CRLF in the reports recorded on Windows (`line_end`)."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

from m2lsp.scoring.cged.levels import (
    LEVELS,
    Cged2016Result,
    CgedResult,
    CorrectionScore,
    LevelScore,
)
from m2lsp.scoring.signature import Signature

RULE = "=" * 58
REPORTS = ("2014", "2015", "2016")


def java_number(value: float) -> str:
    """utils.FUM.DoubleToStr: `%.04f`, then zeros and a point cut off the end."""
    text = java_fixed(value, 4)
    while text.endswith("0") or text.endswith("."):
        text = text[:-1]
    return text or "0"


def java_fixed(value: float, places: int) -> str:
    """Java's String.format("%.Nf"): HALF_UP on the shortest decimal form of the double."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    exact = Decimal(repr(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return f"{exact:.{places}f}"


def report_2015(result: CgedResult, line_end: str = "\n") -> str:
    """What `nlptea15cged.jar -t TRUTH -i RESULT -o REPORT` writes to REPORT."""
    lines = ["NLPTEA 2015 Shared Task", "Chinese Grammatical Error Diagnosis", "", RULE,
             "Part 1: Overall Performance", RULE, ""]
    rate, fp, total = result.false_positive_rate
    lines += [f"False Positive Rate = {java_number(rate)} ({fp}/{total})", ""]
    for level in LEVELS:
        lines += [f"{level.capitalize()} Level", *_level_lines(result.score(level)), ""]
    lines += ["", "", RULE, "Part 2: Details", RULE, ""]
    for level in LEVELS:
        lines += [f"{level.capitalize()} Level", ""]
        outcomes = result.levels[level]
        for name in ("tp", "fp", "tn", "fn"):
            lines += [f"\t#{name.upper()}:", "\t" + _details(result, level,
                                                             getattr(outcomes, name)), ""]
    return line_end.join(lines) + line_end


def report_2014(result: CgedResult, line_end: str = "\n") -> str:
    """What `nlptea14cfl.jar -t TRUTH -i RESULT -o REPORT` writes to REPORT: the 2015 report
    without the position level, and its own spacing in Part 2."""
    lines = ["NLPTEA 2014 Shared Task",
             "Grammatical Error Diagnosis for Learning Chinese as a Foreign Language", "", RULE,
             "Part 1: Overall Performance", RULE, ""]
    rate, fp, total = result.false_positive_rate
    lines += [f"False Positive Rate = {java_number(rate)} ({fp}/{total})", ""]
    for level in LEVELS[:2]:
        lines += [f"{level.capitalize()} Level", *_level_lines(result.score(level)), ""]
    lines += ["", "", RULE, "Part 2: Details", RULE, "", "Detection Level", ""]
    detection = result.levels["detection"]
    for name in ("tp", "fp", "tn", "fn"):
        lines += [f"\t#{name.upper()}:", "\t" + " | ".join(getattr(detection, name)), ""]
    lines += ["", "Identification Level", ""]
    for name in ("tp", "fp", "tn", "fn"):
        shown = _details(result, "identification", getattr(result.levels["identification"],
                                                            name))
        # an empty list leaves its tab on the blank line that follows
        lines += [f"\t#{name.upper()}:", *(["\t" + shown, ""] if shown else ["\t"])]
    return line_end.join(lines) + line_end


def report_2016(result: Cged2016Result, result_name: str, truth_name: str,
                line_end: str = "\n") -> str:
    """What `nlptea16cged.jar -t TRUTH -r RESULT -o REPORT` writes to REPORT (file names
    without their directories; no line end after the last line)."""
    lines = ["NLP-TEA 2016 Shared Task", "Chinese Grammatical Error Diagnosis", "",
             f"System Results: {result_name}", f"Gold Standard: {truth_name}", "", RULE,
             "Overall Performance", RULE, ""]
    rate, fp, total = result.false_positive_rate
    lines += [f"False Positive Rate = {java_number(rate)} ({fp}/{total})", ""]
    for level in LEVELS:
        lines += [f"{level.capitalize()} Level", *_level_lines(result.score(level)), ""]
    return line_end.join(lines[:-1])


def _level_lines(score: LevelScore) -> list[str]:
    p, r = java_number(score.precision), java_number(score.recall)
    return [f"\tAccuracy = {java_number(score.accuracy)} ({score.correct}/{score.total})",
            f"\tPrecision = {p} ({score.tp}/{score.tp + score.fp})",
            f"\tRecall = {r} ({score.tp}/{score.tp + score.fn})",
            f"\tF1-Score = {java_number(score.f1)} ((2*{p}*{r})/({p}+{r}))"]


def summary(result: CgedResult | Cged2016Result, correction: CorrectionScore,
            counting: str, signed: str | None = None) -> str:
    """m2lsp's own compact table (no `--cged-report`); a 0/0, such as the correction level
    of a result with no correction, is `n/a` (the official reports print `NaN`)."""
    rate, fp, total = result.false_positive_rate
    lines = [f"False positive rate  {_cell(rate)} ({fp}/{total})",
             f"{'Level':<16}{'Accuracy':>10}{'Precision':>11}{'Recall':>9}{'F1':>9}"]
    for level in LEVELS:
        s = result.score(level)
        lines.append(f"{level.capitalize():<16}" + "".join(
            f"{_cell(v):>{w}}" for v, w in ((s.accuracy, 10), (s.precision, 11),
                                                  (s.recall, 9), (s.f1, 9))))
    c = correction
    lines.append(f"{'Correction':<16}{'':>10}" + "".join(
        f"{_cell(v):>{w}}" for v, w in ((c.precision, 11), (c.recall, 9), (c.f1, 9)))
        + f"  (top-1, S and M: {c.tp} of {c.claimed} answers right, {c.expected} expected)")
    lines.append(signed or str(signature(counting)))
    return "\n".join(lines) + "\n"


def _cell(value: float) -> str:
    return "n/a" if math.isnan(value) else java_number(value)


def signature(counting: str) -> Signature:
    """How CGED levels were counted (see `--cged-counting`)."""
    scorer = {"official": "nlptea15cged", "paper": "nlptea15-overview",
              "2016": "nlptea16cged"}[counting]
    return Signature("CGED", (("counting", counting), ("scorer", scorer),
                              ("correction", "top1-S-M")))


def _details(result: CgedResult, level: str, ids: list[str]) -> str:
    """Detection: the ids; identification `(id, type)` and position `(id, start, end, type)`
    of the *result's* item, each followed by a space."""
    if level == "detection":
        return " | ".join(ids)
    shown = []
    for sid in ids:
        item = result.result[sid]
        if level == "position" and item.position:  # the jar prints its list, brackets cut
            listed = f"{item.position}, {item.type}".replace("[", "").replace("]", "")
            shown.append(f"({sid}, {listed})")
        else:
            shown.append(f"({sid}, {item.type})")
    return " | ".join(shown) + " " if shown else ""
