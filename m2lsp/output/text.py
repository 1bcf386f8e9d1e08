"""`path:line:col: CODE message`, one line per diagnostic, then a summary."""

from __future__ import annotations

from collections.abc import Sequence

from m2lsp.linting.fixes import fixable_at_once
from m2lsp.output.report import FileReport, unlisted_note


def render(reports: Sequence[FileReport], checked: int | None = None,
           unchecked: int = 0, skipped: int = 0, quiet: bool = False, special: int = 0,
           empty: int = 0) -> str:
    """The diagnostics, then (unless `quiet`) one summary line of what was found in the
    `checked` files (`unchecked`: how many named paths or files could not be checked;
    `skipped`: files of unknown format passed over; `special`: pipes, devices and sockets
    inside folders, passed over unread; `empty`: of the checked, those with nothing in
    them)."""
    lines = []
    total = fixable = 0
    for report in reports:
        path = report.path
        for d in report.diagnostics:
            span = d.span
            lines.append(f"{path}:{span.line + 1}:{span.col + 1}: {d.code} {d.message}")
        lines.extend(f"{path}: {unlisted_note(u)}" for u in report.unlisted)
        fixable += fixable_at_once(report.diagnostics) + sum(u.fixable for u in report.unlisted)
        total += report.total
    if not quiet:
        lines.append(summary(total, fixable, checked, unchecked, skipped, special, empty))
    return "\n".join(lines) + "\n" if lines else ""


def summary(total: int, fixable: int, checked: int | None = None, unchecked: int = 0,
            skipped: int = 0, special: int = 0, empty: int = 0) -> str:
    """What was found, saying only what was checked: never "passed" for a file that was
    not read or had nothing in it, and always how many files the run covered and passed
    over."""
    if empty and empty == checked and not total:
        return (f"Nothing to check: {'the file is' if empty == 1 else f'all {empty} files are'}"
                f" empty" + _missed(unchecked, skipped, special) + ".")
    missed = f"; {empty} of them empty (nothing in it to check)" if empty else ""
    missed += _missed(unchecked, skipped, special)
    files = "" if checked is None else f" in {checked} file{'s' if checked != 1 else ''}"
    if not total:
        if checked == 0:
            return "No file was checked" + missed + "."
        return f"No problems found{files}{missed}."
    text = f"Found {total} problem{'s' if total != 1 else ''}{files}"
    if fixable:
        text += f" ({fixable} fixable with `--fix`)"
    return text + missed + "."


def _missed(unchecked: int, skipped: int, special: int) -> str:
    missed = f"; {unchecked} could not be checked (see the errors above)" if unchecked else ""
    missed += f"; {skipped} skipped (not M2 or CGED)" if skipped else ""
    missed += f"; {special} skipped (not regular files: pipes, devices)" if special else ""
    return missed
