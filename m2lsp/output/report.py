"""What every renderer reads: the diagnostics of one checked file, and where a rule's
documentation is published."""

from __future__ import annotations

from dataclasses import dataclass

from m2lsp.diagnostic import Diagnostic

RULE_DOCS_URL = "https://github.com/m2lsp/m2lsp/blob/main/docs/rules.md"


@dataclass(frozen=True)
class FileReport:
    """The diagnostics of one checked file."""

    path: str
    diagnostics: tuple[Diagnostic, ...]


def rule_url(code: str) -> str:
    """Where a rule's documentation is published (docs/rules.md, generated from the rules)."""
    return f"{RULE_DOCS_URL}#{code.lower()}"
