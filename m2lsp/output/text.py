"""`path:line:col: CODE message`, one line per diagnostic, then a summary."""

from __future__ import annotations

from collections.abc import Sequence

from m2lsp.diagnostic import Applicability
from m2lsp.output.report import FileReport


def render(reports: Sequence[FileReport], checked: int | None = None,
           unchecked: int = 0, skipped: int = 0, quiet: bool = False, special: int = 0,
           ) -> str:
    """The diagnostics, then (unless `quiet`) one summary line of what was found in the
    `checked` files (`unchecked`: how many named paths or files could not be checked;
    `skipped`: files of unknown format passed over; `special`: pipes, devices and sockets
    inside folders, passed over unread)."""
    lines = []
    total = fixable = 0
    safe = Applicability.SAFE
    for report in reports:
        path = report.path
        for d in report.diagnostics:
            span, fix = d.span, d.fix
            lines.append(f"{path}:{span.line + 1}:{span.col + 1}: {d.code} {d.message}")
            fixable += fix is not None and fix.applicability is safe
        total += len(report.diagnostics)
    if not quiet:
        lines.append(summary(total, fixable, checked, unchecked, skipped, special))
    return "\n".join(lines) + "\n" if lines else ""


def summary(total: int, fixable: int, checked: int | None = None, unchecked: int = 0,
            skipped: int = 0, special: int = 0) -> str:
    """What was found, saying only what was checked: never "passed" for a file that was
    not read, and always how many files the run covered and passed over."""
    missed = f"; {unchecked} could not be checked (see the errors above)" if unchecked else ""
    missed += f"; {skipped} skipped (not M2 or CGED)" if skipped else ""
    missed += f"; {special} skipped (not regular files: pipes, devices)" if special else ""
    files = "" if checked is None else f" in {checked} file{'s' if checked != 1 else ''}"
    if not total:
        if checked == 0:
            return "No file was checked" + missed + "."
        return f"No problems found{files}{missed}."
    text = f"Found {total} problem{'s' if total != 1 else ''}{files}"
    if fixable:
        text += f" ({fixable} fixable with `--fix`)"
    return text + missed + "."
