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
_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
          "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
          "^": r"\textasciicircum{}"}


def _order(data: dict[str, Any]) -> list[int]:
    """The systems best first (by the main number; rank, then score)."""
    main = data["main"]
    return sorted(range(len(data["systems"])), key=lambda i: (
        data["systems"][i]["rank"] or 0, -data["systems"][i]["scores"].get(main, 0.0)))


def _best(data: dict[str, Any], key: str) -> float | None:
    values = [s["scores"][key] for s in data["systems"] if key in s["scores"]]
    if not values or key in UNRANKED:
        return None
    return min(values) if key in LOWER_IS_BETTER else max(values)


def _dagger(data: dict[str, Any], index: int) -> bool:
    """Whether system `index` differs significantly from the top-ranked system."""
    top = _order(data)[0]
    return any(p["significant"] and {p["a"], p["b"]} == {top, index} for p in data["pairs"])


def _label(data: dict[str, Any], key: str) -> str:
    label = data["labels"][data["names"].index(key)]
    return f"F{label[2:]}" if label.startswith("F_") else label


def _cells(data: dict[str, Any], index: int, bold: str) -> list[str]:
    system = data["systems"][index]
    cells = []
    for key in data["names"]:
        value = system["scores"].get(key)
        text = "" if value is None else f"{100 * value:.2f}"
        if value is not None and value == _best(data, key):
            text = bold.format(text)
        cells.append(text)
    return cells


def markdown_table(data: dict[str, Any]) -> str:
    head = ["Rank", "System", *(f"{_label(data, k)} (%)" for k in data["names"])]
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


def _note(data: dict[str, Any]) -> str:
    if not data["pairs"]:
        return f"{data['metric']} scores in percent; best in bold."
    warned = "".join(f"{w}. " for w in data.get("warnings", []))
    return warned + (
            f"{data['metric']} scores in percent; best in bold. Rank: systems the tests "
            f"cannot separate share a cluster. † differs significantly from the top system "
            f"(paired bootstrap and approximate randomisation, {data['samples']} samples, "
            f"Holm-corrected over {len(data['pairs'])} pairs, p < {data['alpha']}).")


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
