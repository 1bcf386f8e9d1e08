"""SARIF 2.1.0, for code-scanning dashboards; columns count Unicode code points."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from m2lsp.diagnostic import Diagnostic, Severity
from m2lsp.linting.cap import Unlisted
from m2lsp.output.report import UNLISTED_CODE, FileReport, rule_url, unlisted_note
from m2lsp.rules.registry import all_rules
from m2lsp.version import __version__

_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note",
           Severity.HINT: "note"}
SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def render(reports: Sequence[FileReport]) -> str:
    rules = all_rules()
    index = {rule.code: i for i, rule in enumerate(rules)}
    run = {
        "tool": {"driver": {
            "name": "m2lsp",
            "version": __version__,
            "informationUri": "https://github.com/m2lsp/m2lsp",
            "rules": [_rule(rule) for rule in rules],
        }},
        "columnKind": "unicodeCodePoints",
        "results": [_result(report.path, d, index) for report in reports
                    for d in report.diagnostics],
    }
    notes = [_note(report.path, u) for report in reports for u in report.unlisted]
    if notes:  # SARIF's place for what the tool says about its run
        run["invocations"] = [{"executionSuccessful": True,
                               "toolExecutionNotifications": notes}]
    return json.dumps({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]},
                      ensure_ascii=False, indent=2) + "\n"


def _rule(rule: Any) -> dict[str, Any]:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary()},
        "fullDescription": {"text": rule.doc()},
        "helpUri": rule_url(rule.code),
        "defaultConfiguration": {"level": _LEVELS[rule.severity]},
    }


def _result(path: str, d: Diagnostic, index: dict[str, int]) -> dict[str, Any]:
    region = {"startLine": d.span.line + 1, "startColumn": d.span.col + 1,
              "endLine": d.span.end_line + 1, "endColumn": d.span.end_col + 1}
    return {
        "ruleId": d.code,
        "ruleIndex": index.get(d.code, -1),
        "level": _LEVELS[d.severity],
        "message": {"text": d.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": Path(path).as_posix()},
            "region": region,
        }}],
    }


def _note(path: str, unlisted: Unlisted) -> dict[str, Any]:
    return {
        "descriptor": {"id": UNLISTED_CODE},
        "level": "note",
        "message": {"text": unlisted_note(unlisted)},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": Path(path).as_posix()}}}],
        "properties": {"ruleId": unlisted.code, "count": unlisted.count},
    }
