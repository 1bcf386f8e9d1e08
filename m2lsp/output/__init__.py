"""Renderers: one diagnostic type, several small output formats."""

from __future__ import annotations

from collections.abc import Callable

from m2lsp.output.report import RULE_DOCS_URL, FileReport, rule_url

__all__ = ["RULE_DOCS_URL", "FileReport", "renderers", "rule_url"]


def renderers() -> dict[str, Callable[..., str]]:
    """Each output format's renderer, by name."""
    from m2lsp.output import github, json, sarif, text

    return {"text": text.render, "json": json.render, "github": github.render,
            "sarif": sarif.render}
