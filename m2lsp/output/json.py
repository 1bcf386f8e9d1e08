"""A JSON list with ruff's keys (code, message, filename, location, end_location, fix, url)
plus the rule's name and the severity.

The text is what `json.dumps(items, ensure_ascii=False, indent=2)` prints for
`diagnostic_json` items (tests compare the two), written from templates: with `indent`, the
json module takes its pure-Python encoder, which took most of `check --output-format json`'s
time on files with a hundred thousand findings.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from m2lsp.diagnostic import Diagnostic, Fix
from m2lsp.linting.cap import Unlisted
from m2lsp.model import Span
from m2lsp.output.report import UNLISTED_CODE, FileReport, rule_url, unlisted_note
from m2lsp.rules.registry import rule_by_code

_string = json.encoder.encode_basestring  # the C implementation where there is one


def render(reports: Sequence[FileReport]) -> str:
    parts: list[str] = []
    for report in reports:
        path = _string(report.path)
        parts.extend(_diagnostic_text(path, d) for d in report.diagnostics)
        parts.extend(_unlisted_text(path, u) for u in report.unlisted)
    return ("[\n" + ",\n".join(parts) + "\n]\n") if parts else "[]\n"


def unlisted_json(path: str, unlisted: Unlisted) -> dict[str, Any]:
    """The item that stands for one rule's findings counted, not listed: code
    `max-findings`, the rule and the count under `unlisted`."""
    start = _position(0, 0)
    return {"code": UNLISTED_CODE, "name": None, "message": unlisted_note(unlisted),
            "severity": "info", "filename": path, "location": start, "end_location": start,
            "fix": None, "related": [], "url": None,
            "unlisted": {"code": unlisted.code, "count": unlisted.count}}


def _unlisted_text(path: str, unlisted: Unlisted) -> str:
    import json as module

    item = unlisted_json("", unlisted) | {"filename": None}
    text = module.dumps(item, ensure_ascii=False, indent=2).replace(
        '"filename": null', f'"filename": {path}')
    return "\n".join("  " + line for line in text.splitlines())


def diagnostic_json(path: str, d: Diagnostic) -> dict[str, Any]:
    """One diagnostic as data (what `render` writes, as the json module would)."""
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


# -- the text, from templates ---------------------------------------------------------------

def _diagnostic_text(path: str, d: Diagnostic) -> str:
    """`diagnostic_json(path, d)` as an item of the top-level list (`path` encoded)."""
    rule = rule_by_code(d.code)
    name = _string(rule.name) if rule else "null"
    span = d.span
    return (f'  {{\n    "code": {_string(d.code)},\n    "name": {name},\n'
            f'    "message": {_string(d.message)},\n'
            f'    "severity": {_string(d.severity.label)},\n    "filename": {path},\n'
            f'{_range_text(span, "    ")},\n'
            f'    "fix": {_fix_text(d.fix)},\n'
            f'    "related": {_related_text(d)},\n'
            f'    "url": {_string(rule_url(d.code))}\n  }}')


def _range_text(span: Span, indent: str) -> str:
    inner = indent + "  "
    return (f'{indent}"location": {{\n{inner}"row": {span.line + 1},\n'
            f'{inner}"column": {span.col + 1}\n{indent}}},\n'
            f'{indent}"end_location": {{\n{inner}"row": {span.end_line + 1},\n'
            f'{inner}"column": {span.end_col + 1}\n{indent}}}')


def _fix_text(fix: Fix | None) -> str:
    if fix is None:
        return "null"
    edits = ",\n".join(f'        {{\n          "content": {_string(e.new_text)},\n'
                       f'{_range_text(e.span, "          ")}\n        }}' for e in fix.edits)
    edits = f"[\n{edits}\n      ]" if edits else "[]"
    return (f'{{\n      "applicability": {_string(fix.applicability.value)},\n'
            f'      "message": {_string(fix.title)},\n      "edits": {edits}\n    }}')


def _related_text(d: Diagnostic) -> str:
    items = ",\n".join(f'      {{\n        "message": {_string(r.message)},\n'
                       f'{_range_text(r.span, "        ")}\n      }}' for r in d.related)
    return f"[\n{items}\n    ]" if items else "[]"
