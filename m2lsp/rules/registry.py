"""Every rule: importing the rule families registers their rules in `base.RULES` (this
module imports them, so that `base` need not import the package it sits in)."""

from __future__ import annotations

from m2lsp.rules import (  # noqa: F401  (imported to register their rules)
    bea_json,
    cged,
    cged_input,
    cged_truth,
    curation,
    m2_annotators,
    m2_authoring,
    m2_edits,
    m2_offsets,
    m2_structure,
    multigec,
    text,
    uagec,
)
from m2lsp.rules.base import RULES, Rule


def all_rules() -> list[Rule]:
    """Every registered rule, by code."""
    return [RULES[code] for code in sorted(RULES)]


def rule_by_code(code: str) -> Rule | None:
    """The rule with this code (any case), or None."""
    return RULES.get(code) or RULES.get(code.upper())
