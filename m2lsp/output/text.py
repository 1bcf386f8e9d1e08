"""`path:line:col: CODE message`, one line per diagnostic, then a summary."""

from __future__ import annotations

from collections.abc import Sequence

from m2lsp.diagnostic import Applicability
from m2lsp.output import FileReport


def render(reports: Sequence[FileReport]) -> str:
    lines = []
    total = fixable = 0
    for report in reports:
        for d in report.diagnostics:
            lines.append(f"{report.path}:{d.span.line + 1}:{d.span.col + 1}: {d.code} {d.message}")
            total += 1
            fixable += bool(d.fix and d.fix.applicability is Applicability.SAFE)
    lines.append(summary(total, fixable))
    return "\n".join(lines) + "\n"


def summary(total: int, fixable: int) -> str:
    if not total:
        return "All checks passed!"
    text = f"Found {total} problem{'s' if total != 1 else ''}"
    if fixable:
        text += f" ({fixable} fixable with `--fix`)"
    return text + "."
