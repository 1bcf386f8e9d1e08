"""`m2lsp report GOLD_FOLDER SYSTEM_FOLDER...` on MultiGEC-2025 data: every system's folder
of hypotheses scored as the shared task did (`m2lsp.reporting.multigec_table`), then one table per
language, corpus and track with the systems ranked as its results pages rank them (by
ERRANT's F0.5; by GLEU when ERRANT was not scored), in each of the report's formats."""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Sequence
from typing import Any

from m2lsp.reporting.multigec_table import METRICS, TRACKS, Row, shown

HEADINGS = {"GLEU": "GLEU", "precision": "Precision", "recall": "Recall", "F0.5": "F0.5"}


def report_data(systems: Sequence[tuple[str, Sequence[Row]]],
                metrics: Sequence[str] = METRICS) -> dict[str, Any]:
    """The report as data: its metrics and, per (language, corpus, track, split), the
    systems' rows ranked."""
    groups: dict[tuple[str, str, str, str], list[dict[str, Any]]] = {}
    for name, rows in systems:
        for row in rows:
            key = (row.lang, row.corpus, row.track, row.split)
            groups.setdefault(key, []).append({"system": name, **_numbers(row, metrics),
                                               "file": str(row.path),
                                               "notes": list(row.notes)})
    ranked_by = "F0.5" if "errant" in metrics else "GLEU"
    tables = []
    for (lang, corpus, track, split), entries in sorted(groups.items(), key=_group_order):
        entries.sort(key=lambda r: (r[ranked_by] is None, -(r[ranked_by] or 0.0),
                                    r["system"]))
        for rank, entry in enumerate(entries, 1):
            entry["rank"] = rank
        tables.append({"language": lang, "corpus": corpus, "track": track, "split": split,
                       "rows": entries})
    return {"kind": "multigec-2025", "ranked_by": ranked_by, "columns": _columns(metrics),
            "systems": [name for name, _ in systems], "tables": tables}


def _group_order(item: tuple[tuple[str, str, str, str], Any]) -> tuple[Any, ...]:
    lang, corpus, track, split = item[0]
    return lang, corpus, TRACKS.index(track) if track in TRACKS else len(TRACKS), split


def _columns(metrics: Sequence[str]) -> list[str]:
    return (["GLEU"] if "gleu" in metrics else []) + (
        ["precision", "recall", "F0.5"] if "errant" in metrics else [])


def _numbers(row: Row, metrics: Sequence[str]) -> dict[str, float | None]:
    values = row.values()
    return {k: values[k] for k in _columns(metrics)}


def _title(table: dict[str, Any]) -> str:
    return f"{table['language']} · {table['corpus']} · {table['track']} ({table['split']})"


def _best(table: dict[str, Any], column: str) -> float | None:
    found = [r[column] for r in table["rows"] if r[column] is not None]
    return max(found) if found else None


def markdown(data: dict[str, Any]) -> str:
    """One GitHub table per language, corpus and track, the best of each column bold."""
    out = [f"Ranked by {data['ranked_by']}, as MultiGEC-2025's results pages rank them."]
    for table in data["tables"]:
        heads = ["Rank", "System"] + [HEADINGS[c] for c in data["columns"]]
        out += ["", f"### {_title(table)}", "", "| " + " | ".join(heads) + " |",
                "|" + "|".join(" --- " for _ in heads) + "|"]
        for row in table["rows"]:
            cells = [str(row["rank"]), row["system"]]
            for column in data["columns"]:
                cell = shown(row[column])
                best = row[column] is not None and row[column] == _best(table, column)
                cells.append(f"**{cell}**" if best else cell)
            out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def latex(data: dict[str, Any]) -> str:
    """One booktabs table per language, corpus and track."""
    out = []
    for table in data["tables"]:
        columns = data["columns"]
        heads = " & ".join(["Rank", "System"] + [HEADINGS[c] for c in columns])
        out += ["\\begin{table}[t]", "\\centering",
                f"\\begin{{tabular}}{{rl{'r' * len(columns)}}}", "\\toprule",
                heads + " \\\\", "\\midrule"]
        for row in table["rows"]:
            cells = [str(row["rank"]), _escaped(row["system"])]
            for column in columns:
                cell = shown(row[column])
                best = row[column] is not None and row[column] == _best(table, column)
                cells.append(f"\\textbf{{{cell}}}" if best else cell)
            out.append(" & ".join(cells) + " \\\\")
        out += ["\\bottomrule", "\\end{tabular}",
                f"\\caption{{{_escaped(_title(table))}}}", "\\end{table}", ""]
    return "\n".join(out)


def _escaped(text: str) -> str:
    for char in "\\&%$#_{}":
        text = text.replace(char, "\\" + char if char != "\\" else "\\textbackslash{}")
    return text


def csv_text(data: dict[str, Any]) -> str:
    """A line per system and file: system, language, corpus, track, the scores, the file
    (the shared task's scores.csv, with the system's name first)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rank", "system", "language", "corpus", "track", "split",
                     *data["columns"], "file"])
    for table in data["tables"]:
        for row in table["rows"]:
            writer.writerow([row["rank"], row["system"], table["language"], table["corpus"],
                             table["track"], table["split"],
                             *("" if row[c] is None else shown(row[c])
                               for c in data["columns"]), row["file"]])
    return out.getvalue()


def html_page(data: dict[str, Any], title: str | None = None) -> str:
    """An offline page of the tables (no script, no figures: the numbers are the report)."""
    from m2lsp.version import __version__

    heading = html.escape(title or "MultiGEC-2025 results")
    parts = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
             f"<title>{heading}</title>", "<style>body{font-family:sans-serif;margin:2em}"
             "table{border-collapse:collapse;margin-bottom:1.5em}td,th{padding:.2em .6em;"
             "border-bottom:1px solid #ccc}td.n{text-align:right}</style></head><body>",
             f"<h1>{heading}</h1>",
             f"<p>Ranked by {html.escape(data['ranked_by'])}, as MultiGEC-2025's results "
             f"pages rank them; scored by m2lsp {html.escape(__version__)}.</p>"]
    for table in data["tables"]:
        heads = "".join(f"<th>{HEADINGS[c]}</th>" for c in data["columns"])
        parts += [f"<h2>{html.escape(_title(table))}</h2>",
                  f"<table><tr><th>Rank</th><th>System</th>{heads}</tr>"]
        for row in table["rows"]:
            cells = "".join(_html_cell(table, row, c) for c in data["columns"])
            notes = "<br>".join(html.escape(n) for n in row["notes"])
            parts.append(f"<tr><td class=\"n\">{row['rank']}</td><td title=\"{notes}\">"
                         f"{html.escape(row['system'])}</td>{cells}</tr>")
        parts.append("</table>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _html_cell(table: dict[str, Any], row: dict[str, Any], column: str) -> str:
    cell = shown(row[column])
    best = row[column] is not None and row[column] == _best(table, column)
    return f"<td class=\"n\">{f'<b>{cell}</b>' if best else cell}</td>"


def rendered(data: dict[str, Any], format: str, title: str | None = None) -> str:
    if format == "json":
        return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    renderers = {"md": markdown, "latex": latex, "csv": csv_text}
    if format in renderers:
        return renderers[format](data)
    return html_page(data, title)
