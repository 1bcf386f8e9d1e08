"""A JSON list with ruff's keys (code, message, filename, location, end_location, fix, url)
plus the rule's name and the severity."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from m2lsp.diagnostic import Diagnostic, Fix
from m2lsp.model import Span
from m2lsp.output import FileReport, rule_url
from m2lsp.rules.base import rule_by_code


def render(reports: Sequence[FileReport]) -> str:
    items = [diagnostic_json(report.path, d) for report in reports for d in report.diagnostics]
    return json.dumps(items, ensure_ascii=False, indent=2) + "\n"


def diagnostic_json(path: str, d: Diagnostic) -> dict[str, Any]:
    rule = rule_by_code(d.code)
    return {
        "code": d.code,
        "name": rule.name if rule else None,
        "message": d.message,
        "severity": d.severity.label,
        "filename": path,
        "location": _position(d.span.line, d.span.col),
        "end_location": _position(d.span.end_line, d.span.end_col),
        "fix": _fix(d.fix),
        "related": [{"message": r.message, **_range(r.span)} for r in d.related],
        "url": rule_url(d.code),
    }


def _position(line: int, col: int) -> dict[str, int]:
    return {"row": line + 1, "column": col + 1}


def _range(span: Span) -> dict[str, dict[str, int]]:
    return {"location": _position(span.line, span.col),
            "end_location": _position(span.end_line, span.end_col)}


def _fix(fix: Fix | None) -> dict[str, Any] | None:
    if fix is None:
        return None
    return {
        "applicability": fix.applicability.value,
        "message": fix.title,
        "edits": [{"content": e.new_text, **_range(e.span)} for e in fix.edits],
    }
