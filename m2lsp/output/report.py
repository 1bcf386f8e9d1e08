"""What every renderer reads: the diagnostics of one checked file, and where a rule's
documentation is published."""

from __future__ import annotations

from dataclasses import dataclass

from m2lsp.diagnostic import Diagnostic
from m2lsp.linting.cap import Unlisted

RULE_DOCS_URL = "https://github.com/m2lsp/m2lsp/blob/main/docs/rules.md"


@dataclass(frozen=True)
class FileReport:
    """The diagnostics of one checked file."""

    path: str
    diagnostics: tuple[Diagnostic, ...]
    unlisted: tuple[Unlisted, ...] = ()  # findings counted, not listed (`check`'s cap)

    @property
    def total(self) -> int:
        """Every finding, listed or not."""
        return len(self.diagnostics) + sum(u.count for u in self.unlisted)


def rule_url(code: str) -> str:
    """Where a rule's documentation is published (docs/rules.md, generated from the rules)."""
    return f"{RULE_DOCS_URL}#{code.lower()}"


UNLISTED_CODE = "max-findings"  # what the JSON, GitHub and SARIF notes of unlisted findings carry


def unlisted_note(unlisted: Unlisted) -> str:
    """The line that stands for the findings of one rule that were counted, not listed."""
    from m2lsp.rules.registry import rule_by_code

    rule = rule_by_code(unlisted.code)
    name = f" {rule.name}" if rule else ""
    return (f"and {unlisted.count:,} more {unlisted.code}{name} (not listed: "
            "`--max-findings-per-rule 0` lists them all)")
