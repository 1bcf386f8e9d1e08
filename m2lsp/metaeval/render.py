"""A meta-evaluation as a terminal table, JSON, Markdown or LaTeX (booktabs)."""

from __future__ import annotations

import math
from typing import Any

from m2lsp.metaeval.evaluate import MetaEvalResult, MetricResult


def to_dict(result: MetaEvalResult) -> dict[str, Any]:
    """Everything, JSON-ready (a number that is not finite -- a correlation that cannot
    be computed, a metric's NaN -- is null: `json.dumps(..., allow_nan=False)` holds)."""
    dataset = result.dataset
    return finite({
        "dataset": dataset.name, "systems": dataset.subset,
        "system_names": list(dataset.systems), "signature": result.signature,
        "human": {k: dataset.human_names.get(k, k) for k in dataset.human},
        "human_scores": {k: dict(zip(dataset.systems, v, strict=True))
                         for k, v in dataset.human.items()},
        "metrics": [_metric(m) for m in result.results],
        "williams": [{"a": c.a, "b": c.b, "human": c.human, "t": _number(c.t),
                      "p": _number(c.p)} for c in result.comparisons],
    })


def finite(data: Any) -> Any:
    """`data` with every float that is not finite made None (JSON has no NaN)."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {key: finite(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [finite(value) for value in data]
    return data


def _metric(m: MetricResult) -> dict[str, Any]:
    data: dict[str, Any] = {
        "metric": m.metric, "signature": m.signature,
        "scores": {system: score for system, score in m.scores},
        "system_level": {c.human: {"pearson": _number(c.pearson),
                                   "spearman": _number(c.spearman)} for c in m.system},
        "sentence_level": {s.judgments: {"accuracy": _number(s.accuracy),
                                         "kendall": _number(s.kendall), "pairs": s.pairs}
                           for s in m.sentence},
    }
    for c in m.system:
        if c.pearson_interval is not None and c.spearman_interval is not None:
            level = data["system_level"][c.human]
            level["pearson_interval"] = [_number(v) for v in c.pearson_interval]
            level["spearman_interval"] = [_number(v) for v in c.spearman_interval]
    if m.windows:
        data["windows"] = [{"human": w.human, "first": w.first, "last": w.last,
                            "pearson": _number(w.pearson), "spearman": _number(w.spearman)}
                           for w in m.windows]
    return data


def _number(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _f(value: float, digits: int) -> str:
    return "nan" if math.isnan(value) else f"{value:.{digits}f}"


def text(result: MetaEvalResult, digits: int = 4) -> str:
    """The tables a terminal shows: system level, sentence level, windows, Williams."""
    rows = _system_rows(result, digits)
    out = [f"{result.dataset.name} ({result.dataset.subset}, {len(result.dataset.systems)} "
           "systems): system level, Pearson / Spearman", _table(rows)]
    if any(m.system and m.system[0].pearson_interval for m in result.results):
        out += [f"95% bootstrap intervals ({result.samples} resamples of sentences, seed "
                f"{result.seed}):", _table(_interval_rows(result, digits))]
    sentence = _sentence_rows(result, digits)
    if sentence:
        out += ["sentence level, accuracy / Kendall (pairs the judges did not tie)",
                _table(sentence)]
    if any(m.windows for m in result.results):
        out += [f"windows of {result.window} consecutive systems in the human ranking "
                "(Pearson / Spearman)", _table(_window_rows(result, digits))]
    if result.comparisons:
        out += ["Williams test, Pearson: does A correlate better than B? (one-sided p)",
                _table(_williams_rows(result, digits))]
    return "\n\n".join(out) + f"\n\n{result.signature}\n"


def _system_rows(result: MetaEvalResult, digits: int) -> list[list[str]]:
    header = ["metric", *(result.dataset.human_names.get(k, k) for k in result.dataset.human)]
    return [header] + [[m.metric, *(f"{_f(c.pearson, digits)} / {_f(c.spearman, digits)}"
                                    for c in m.system)] for m in result.results]


def _interval_rows(result: MetaEvalResult, digits: int) -> list[list[str]]:
    rows = [["metric", *(result.dataset.human_names.get(k, k) for k in result.dataset.human)]]
    for m in result.results:
        cells = []
        for c in m.system:
            p = c.pearson_interval or (math.nan, math.nan)
            s = c.spearman_interval or (math.nan, math.nan)
            cells.append(f"[{_f(p[0], digits)}, {_f(p[1], digits)}] / "
                         f"[{_f(s[0], digits)}, {_f(s[1], digits)}]")
        rows.append([m.metric, *cells])
    return rows


def _sentence_rows(result: MetaEvalResult, digits: int) -> list[list[str]]:
    names = [s.judgments for m in result.results for s in m.sentence]
    if not names:
        return []
    kinds = list(dict.fromkeys(names))
    rows = [["metric", *kinds]]
    for m in result.results:
        found = {s.judgments: s for s in m.sentence}
        rows.append([m.metric, *(f"{_f(found[k].accuracy, digits)} / "
                                 f"{_f(found[k].kendall, digits)}" if k in found else "-"
                                 for k in kinds)])
    return rows


def _window_rows(result: MetaEvalResult, digits: int) -> list[list[str]]:
    rows = [["metric", "human", "ranks", "Pearson", "Spearman"]]
    for m in result.results:
        rows += [[m.metric, w.human, f"{w.first}-{w.last}", _f(w.pearson, digits),
                  _f(w.spearman, digits)] for w in m.windows]
    return rows


def _williams_rows(result: MetaEvalResult, digits: int) -> list[list[str]]:
    rows = [["A", "B", "human", "t", "p"]]
    return rows + [[c.a, c.b, c.human, _f(c.t, digits), _f(c.p, digits)]
                   for c in result.comparisons]


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True))
                     .rstrip() for r in rows)


def markdown(result: MetaEvalResult, digits: int = 4) -> str:
    """The system- and sentence-level tables as GitHub Markdown."""
    parts = [f"System level on {result.dataset.name} ({result.dataset.subset}), Pearson / "
             f"Spearman:\n\n" + _md(_system_rows(result, digits))]
    sentence = _sentence_rows(result, digits)
    if sentence:
        parts.append("Sentence level, accuracy / Kendall:\n\n" + _md(sentence))
    return "\n\n".join(parts) + f"\n\n`{result.signature}`\n"


def _md(rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows[1:]])


def latex(result: MetaEvalResult, digits: int = 4) -> str:
    """The system-level table for a paper (booktabs), Pearson and Spearman in columns."""
    humans = [result.dataset.human_names.get(k, k) for k in result.dataset.human]
    head = " & ".join(f"\\multicolumn{{2}}{{c}}{{{_tex(h)}}}" for h in humans)
    lines = ["\\begin{tabular}{l" + "rr" * len(humans) + "}", "\\toprule",
             f"Metric & {head} \\\\", " & " + " & ".join(["$r$ & $\\rho$"] * len(humans))
             + " \\\\", "\\midrule"]
    for m in result.results:
        cells = " & ".join(f"{_f(c.pearson, digits)} & {_f(c.spearman, digits)}"
                           for c in m.system)
        lines.append(f"{_tex(m.metric)} & {cells} \\\\")
    lines += ["\\bottomrule", "\\end{tabular}", f"% {result.signature}"]
    return "\n".join(lines) + "\n"


def _tex(value: str) -> str:
    return value.replace("_", "\\_").replace("&", "\\&").replace("%", "\\%")
