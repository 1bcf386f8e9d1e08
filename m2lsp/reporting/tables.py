"""The report's paper tables: LaTeX (booktabs), Markdown (GitHub) and CSV, drawn from
`data.report_json`.  LaTeX and Markdown give the headline numbers in percent with two
decimals, the best of each column in bold, and † on a system that differs significantly
from the top-ranked one (both Holm-corrected tests below 0.05); CSV gives them as the metric
computes them, with the intervals."""

from __future__ import annotations

import csv
import io
from typing import Any

LOWER_IS_BETTER = frozenset({"fpr", "false_positive_rate"})
UNRANKED = frozenset({"stdev"})  # spread, not quality: never bold
# metrics whose numbers are no fractions (a sum of +1/-1, a rating from 1 to 5): as they are
NOT_PERCENT = frozenset({"scribendi", "llm-s", "llm-e"})
_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
          "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
          "^": r"\textasciicircum{}"}


def _order(data: dict[str, Any]) -> list[int]:
    """The systems best first (by the main number; rank, then score)."""
    main = data["main"]
    return sorted(range(len(data["systems"])), key=lambda i: (
        data["systems"][i]["rank"] or 0, -data["systems"][i]["scores"].get(main, 0.0)))


def shown(system: dict[str, Any], key: str) -> float | None:
    """A system's number as a table shows it: None where it is undefined (NaN, or the
    precision of a system that made no edit, which M2 prints as 1)."""
    value = system["scores"].get(key)
    if value is None or value != value:
        return None
    if key == "precision" and system.get("proposed") == 0:
        return None
    return value


PARTNER = {"precision": "recall", "recall": "precision"}
TRIVIAL = 0.1  # of the best partner number, below which a P or R is not a contender


def _contends(data: dict[str, Any], system: dict[str, Any], key: str) -> bool:
    """Whether a system's number may be the best of its column: it made edits, and for
    precision (recall) its recall (precision) is at least a tenth of the best one: UFC's
    precision of 0.70 at a recall of 0.017 is not the best precision of CoNLL-2014."""
    if system.get("proposed") == 0:
        return False
    partner = PARTNER.get(key)
    if partner is None or partner not in system["scores"]:
        return True
    best = max((shown(s, partner) or 0.0) for s in data["systems"])
    return (shown(system, partner) or 0.0) >= TRIVIAL * best


def _best(data: dict[str, Any], key: str) -> float | None:
    """The best number of a column among the systems that contend for it (`_contends`: a
    system that made no edit never does: its precision is undefined, its recall 0)."""
    values = [v for s in data["systems"] if _contends(data, s, key)
              for v in [shown(s, key)] if v is not None]
    if not values or key in UNRANKED:
        return None
    return min(values) if key in LOWER_IS_BETTER else max(values)


def _dagger(data: dict[str, Any], index: int) -> bool:
    """Whether system `index` differs significantly from the top-ranked system."""
    top = _order(data)[0]
    return any(p["significant"] and {p["a"], p["b"]} == {top, index} for p in data["pairs"])


LABELS = {"false_positive_rate": "FPR", "fpr": "FPR", "gleu": "GLEU", "stdev": "Std. dev.",
          "detection_f1": "Detection F1", "identification_f1": "Identification F1",
          "position_f1": "Position F1", "correction_f1": "Correction F1", "bleu": "BLEU",
          "acc_sen": "Acc_sen", "mp": "MP"}


def _label(data: dict[str, Any], key: str) -> str:
    """A column's name as a reader expects it: the metric's own label (F_0.5 as F0.5), a
    raw JSON key (position_f1) made readable."""
    label = data["labels"][data["names"].index(key)]
    if label.startswith("F_"):
        return f"F{label[2:]}"
    if label in LABELS:
        return LABELS[label]
    return label.replace("_", " ").capitalize() if label.islower() else label


def _cells(data: dict[str, Any], index: int, bold: str) -> list[str]:
    system = data["systems"][index]
    cells = []
    for key in data["names"]:
        value = shown(system, key)
        scale = 1 if data["metric"] in NOT_PERCENT else 100
        text = "–" if value is None else f"{scale * value:.2f}"
        if value is not None and value == _best(data, key):
            text = bold.format(text)
        cells.append(text)
    return cells


def markdown_table(data: dict[str, Any]) -> str:
    unit = "" if data["metric"] in NOT_PERCENT else " (%)"
    head = ["Rank", "System", *(f"{_label(data, k)}{unit}" for k in data["names"])]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for i in _order(data):
        system = data["systems"][i]
        name = system["name"] + (" †" if _dagger(data, i) else "")
        rank = "" if system["rank"] is None else str(system["rank"])
        lines.append("| " + " | ".join([rank, name, *_cells(data, i, "**{}**")]) + " |")
    return "\n".join(lines) + "\n\n" + _note(data) + "\n"


def latex_table(data: dict[str, Any]) -> str:
    columns = "cl" + "r" * len(data["names"])
    head = ["Rank", "System", *(_latex_label(data, k) for k in data["names"])]
    rows = []
    for i in _order(data):
        system = data["systems"][i]
        name = _escaped(system["name"]) + ("$^\\dagger$" if _dagger(data, i) else "")
        rank = "" if system["rank"] is None else str(system["rank"])
        rows.append(" & ".join([rank, name, *_cells(data, i, "\\textbf{{{}}}")])
                    + r" \\")
    return "\n".join([
        r"\begin{table}[t]", r"\centering", rf"\begin{{tabular}}{{{columns}}}", r"\toprule",
        " & ".join(head) + r" \\", r"\midrule", *rows, r"\bottomrule", r"\end{tabular}",
        r"\caption{" + _escaped(_note(data)).replace("†", r"$^\dagger$") + "}",
        r"\end{table}"]) + "\n"


def _latex_label(data: dict[str, Any], key: str) -> str:
    label = _label(data, key)
    if label.startswith("F") and label[1:].replace(".", "").isdigit():
        return f"$F_{{{label[1:]}}}$"
    return _escaped(label)


def _escaped(text: str) -> str:
    return "".join(_LATEX.get(ch, ch) for ch in text)


METRIC_NAMES = {"m2": "M2", "errant": "ERRANT", "cherrant": "ChERRANT", "cged": "CGED",
                "cgec": "CGEC", "gleu": "GLEU"}


def metric_name(data: dict[str, Any]) -> str:
    return METRIC_NAMES.get(data["metric"], data["metric"])


def p_value(p: float, samples: int = 1000) -> str:
    """A p-value as papers print it: to the decimals its `samples` resamples resolve (three
    for 1,000, never more), `< 0.001` below them."""
    from m2lsp.scoring.bootstrap import p_text

    return p_text(p, samples)


def _note(data: dict[str, Any]) -> str:
    name = metric_name(data)
    scale = "scores" if data["metric"] in NOT_PERCENT else "scores in percent"
    undefined = (" –: undefined (a system that made no edit has no precision)."
                 if any(s.get("proposed") == 0 for s in data["systems"]) else "")
    best = ("best in bold (a precision or recall only where the other is at least a tenth "
            "of the best)" if "precision" in data["names"] else "best in bold")
    if not data["pairs"]:
        return f"{name} {scale}; {best}.{undefined}"
    warned = "".join(f"{w}. " for w in data.get("warnings", []))
    count = len(data["pairs"])
    return warned + (
            f"{name} {scale}; {best}.{undefined} Rank: systems the tests "
            f"cannot separate share a cluster. † differs significantly from the top system "
            f"(paired bootstrap and approximate randomisation, {data['samples']} samples, "
            f"Holm-corrected over {count} pair{'s' if count != 1 else ''}, "
            f"p < {data['alpha']}).")


def csv_table(data: dict[str, Any]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    names = data["names"]
    writer.writerow(["rank", "system", "path", *names,
                     *(f"{k}_{end}" for k in names for end in ("low", "high")), "signature"])
    for i in _order(data):
        s = data["systems"][i]
        intervals = [s["intervals"].get(k, [None, None]) for k in names]
        writer.writerow([s["rank"], s["name"], s["path"], *(s["scores"].get(k) for k in names),
                         *(v for pair in intervals for v in pair), s["signature"]])
    return out.getvalue()
