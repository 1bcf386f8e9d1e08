"""`m2lsp rule`: print a rule's documentation, or list every rule."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from m2lsp.cli.exits import EXIT_CLEAN, EXIT_ERROR

if TYPE_CHECKING:
    from m2lsp.rules.base import Rule


def add_commands(commands: argparse._SubParsersAction) -> None:
    rule = commands.add_parser("rule", help="explain a rule",
                               description="Print a rule's documentation, or list all rules.")
    rule.add_argument("code", nargs="?", help="rule code, e.g. M101")
    rule.add_argument("--all", action="store_true", help="list every rule")
    rule.add_argument("--markdown", action="store_true",
                      help="with --all, print the full documentation as Markdown")
    rule.set_defaults(handler=run_rule)


def run_rule(args: argparse.Namespace) -> int:
    from m2lsp.rules.registry import all_rules, rule_by_code

    if args.all and args.markdown:
        sys.stdout.write(rules_markdown())
        return EXIT_CLEAN
    if args.all:
        for rule in all_rules():
            fix = " (fix)" if rule.fix_title else ""
            fix += " (opt-in)" if rule.opt_in else ""
            print(f"{rule.code}  {rule.name:28} {rule.severity.label:8} {rule.summary()}{fix}")
        return EXIT_CLEAN
    if not args.code:
        print("m2lsp rule: give a rule code or --all", file=sys.stderr)
        return EXIT_ERROR
    found = rule_by_code(args.code)
    if found is None:
        print(f"m2lsp rule: unknown rule {args.code!r} (see `m2lsp rule --all`)",
              file=sys.stderr)
        return EXIT_ERROR
    print(rule_text(found))
    return EXIT_CLEAN


def rule_text(rule: Rule) -> str:
    """A rule's full documentation as `m2lsp rule CODE` prints it."""
    header = f"# {rule.name} ({rule.code})"
    facts = [f"Severity: {rule.severity.label}", f"Formats: {', '.join(sorted(rule.formats))}"]
    if rule.fix_title:
        facts.append(f"Fix: {rule.fix_label()}")
    if rule.opt_in:
        facts.append(f"Opt-in: runs only when selected by name, e.g. select = [\"ALL\", "
                     f"\"{rule.code}\"]")
    return "\n".join([header, "", *facts, "", rule.doc()])


def rules_markdown() -> str:
    """docs/rules.md: every rule's documentation, generated (a test keeps the file current)."""
    from m2lsp.rules.registry import all_rules

    parts = ["# m2lsp rules", "",
             "Generated from the rules' docstrings (`m2lsp rule --all --markdown`).", "",
             "| code | name | severity | fix |", "|---|---|---|---|"]
    rules = all_rules()
    for rule in rules:
        fix = rule.fix_label() or ""
        parts.append(f"| [{rule.code}](#{rule.code.lower()}) | {rule.name} | "
                     f"{rule.severity.label} | {fix} |")
    for rule in rules:
        doc = rule.doc().replace("\n## ", "\n#### ")
        parts += ["", f'<a id="{rule.code.lower()}"></a>', "", f"## {rule.code} {rule.name}", "",
                  f"Severity: {rule.severity.label}. Formats: {', '.join(sorted(rule.formats))}.",
                  "", doc]
    return "\n".join(parts) + "\n"
