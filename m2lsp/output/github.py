"""GitHub Actions workflow commands: annotations on the pull request's files."""

from __future__ import annotations

from collections.abc import Sequence

from m2lsp.diagnostic import Severity
from m2lsp.output.report import UNLISTED_CODE, FileReport, unlisted_note
from m2lsp.rules.registry import rule_by_code

_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice",
           Severity.HINT: "notice"}


def render(reports: Sequence[FileReport]) -> str:
    lines = []
    for report in reports:
        for d in report.diagnostics:
            rule = rule_by_code(d.code)
            title = f"{d.code} {rule.name}" if rule else d.code
            props = (f"file={_prop(report.path)},line={d.span.line + 1},col={d.span.col + 1},"
                     f"endLine={d.span.end_line + 1},endColumn={d.span.end_col + 1},"
                     f"title={_prop(title)}")
            lines.append(f"::{_LEVELS[d.severity]} {props}::{_data(f'{d.code} {d.message}')}")
        lines.extend(f"::notice file={_prop(report.path)},line=1,col=1,"
                     f"title={UNLISTED_CODE}::{_data(unlisted_note(u))}"
                     for u in report.unlisted)
    return "".join(line + "\n" for line in lines)


def _data(text: str) -> str:
    """Escape a message as GitHub's workflow-command parser expects."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")
