"""Renderers: one diagnostic type, several small output formats."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from m2lsp.diagnostic import Diagnostic


@dataclass(frozen=True)
class FileReport:
    """The diagnostics of one checked file."""

    path: str
    diagnostics: tuple[Diagnostic, ...]


def renderers() -> dict[str, Callable[[Sequence[FileReport]], str]]:
    from m2lsp.output import github, json, sarif, text

    return {"text": text.render, "json": json.render, "github": github.render,
            "sarif": sarif.render}


RULE_DOCS_URL = "https://github.com/m2lsp/m2lsp/blob/main/docs/rules.md"


def rule_url(code: str) -> str:
    """Where a rule's documentation is published (docs/rules.md, generated from the rules)."""
    return f"{RULE_DOCS_URL}#{code.lower()}"
