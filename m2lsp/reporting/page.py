"""The report as one self-contained HTML page: a Jinja2 template (templates/), the figures
as inline SVG (plots), the paper tables, and the data (`data.report_json`) embedded as JSON
for the sentence list, which a few lines of script page, sort and filter.  Nothing is
loaded from the network: the page opens from disk, and in VS Code's webview."""

from __future__ import annotations

import json
from typing import Any

from m2lsp.errors import UsageError
from m2lsp.reporting.plots import INSTALL, figures
from m2lsp.reporting.tables import (
    _best,
    _dagger,
    _label,
    _order,
    latex_table,
    markdown_table,
    metric_name,
    p_value,
    shown,
)


def _environment() -> Any:
    try:
        import jinja2
    except ImportError:
        raise UsageError(f"the HTML report is rendered with Jinja2, which is not installed: "
                         f"{INSTALL}") from None
    environment = jinja2.Environment(loader=jinja2.PackageLoader("m2lsp.reporting", "templates"),
                                     autoescape=True, trim_blocks=True, lstrip_blocks=True)
    environment.filters["pvalue"] = p_value
    environment.filters["correlation"] = _correlation
    return environment


def _correlation(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def embedded(data: dict[str, Any]) -> str:
    """JSON safe inside a <script> element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def _systems(count: int) -> str:
    return f"{count} system" + ("" if count == 1 else "s")


def html_page(data: dict[str, Any], title: str | None = None) -> str:
    from m2lsp.version import __version__

    order = _order(data)
    pair: dict[int, dict[int, Any]] = {i: {} for i in range(len(data["systems"]))}
    for p in data["pairs"]:
        pair[p["a"]][p["b"]] = pair[p["b"]][p["a"]] = p
    types = sorted({e[2] for s in data["sentences"] for x in s["systems"] for e in x["edits"]
                    if e[2]})
    template = _environment().get_template("report.html.j2")
    signatures = {s["signature"] for s in data["systems"]}
    return template.render(
        data=data, version=__version__, order=order, pair=pair, types=types,
        title=title or f"m2lsp report: {_systems(len(data['systems']))}, {metric_name(data)}",
        metric_name=metric_name(data),
        signature=signatures.pop() if len(signatures) == 1 else None,
        shown=[{k: shown(s, k) for k in data["names"]} for s in data["systems"]],
        undefined=any(s.get("proposed") == 0 for s in data["systems"]),
        labels=[_label(data, k) for k in data["names"]],
        main_label=_label(data, data["main"]) if data["main"] else "",
        best={k: _best(data, k) for k in data["names"]},
        dagger=[_dagger(data, i) for i in range(len(data["systems"]))],
        figures=figures(data), latex=latex_table(data), markdown=markdown_table(data),
        payload=embedded(data))
