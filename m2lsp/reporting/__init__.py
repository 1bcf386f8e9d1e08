"""`m2lsp report`: many systems against one gold, on one page (HTML) or in paper tables
(LaTeX, Markdown, CSV) and the JSON they are all drawn from.

`data` scores the systems through the metric registry (every number is the metric's own,
as `m2lsp score` prints it) and adds the bootstrap intervals, the pairwise tests with Holm's
correction and the cluster ranks (`significance`); `tables` and `page` only render that.
"""

from __future__ import annotations

from typing import Any

FORMATS = ("html", "md", "latex", "csv", "json")


def rendered(data: dict[str, Any], format: str, title: str | None = None) -> str:
    """The report's `data` (see `data.report_json`) as one of FORMATS."""
    import json

    from m2lsp.errors import UsageError
    from m2lsp.reporting import tables

    if format == "html":
        from m2lsp.reporting.page import html_page

        return html_page(data, title)
    if format == "json":
        return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    renderers = {"md": tables.markdown_table, "latex": tables.latex_table,
                 "csv": tables.csv_table}
    if format not in renderers:
        raise UsageError(f"format: {', '.join(FORMATS)}, not {format!r}")
    return renderers[format](data)
