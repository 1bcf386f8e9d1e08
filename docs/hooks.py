"""MkDocs hooks (mkdocs.yml): each `<!-- options: NAME -->` in a page becomes the table of
that metric's options as `m2lsp score` declares them (NAME `common`: the options every
metric shares), read from the command line's own parser, so the pages and the flags cannot
drift."""

from __future__ import annotations

import argparse
import re
from functools import cache
from typing import Any

_PLACE = re.compile(r"<!-- options: ([a-z0-9-]+) -->")


@cache
def _score_parser() -> argparse.ArgumentParser:
    from m2lsp.cli import build_parser

    parser = build_parser("score")
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return commands.choices["score"]


def options_table(name: str) -> str:
    """The markdown table of a metric's options (or the common ones)."""
    from m2lsp.cli.metric_help import GROUPS

    parser = _score_parser()
    if name == "common":
        group = next(g for g in parser._action_groups if g.title == "options")
        actions = [a for a in group._group_actions if a.dest != "help"]
    else:
        groups = getattr(parser, GROUPS)
        if name not in groups:
            return f"`--metric {name}` has no option of its own."
        actions = list(groups[name]._group_actions)
    rows = ["| option | value | default | what |", "|---|---|---|---|"]
    rows += [_row(action) for action in actions]
    return "\n".join(rows)


def _row(action: argparse.Action) -> str:
    names = ", ".join(f"`{n}`" for n in action.option_strings)
    if action.choices:
        value = " \\| ".join(f"`{c}`" for c in action.choices)
    elif action.nargs == 0:
        value = ""
    else:
        value = f"`{action.metavar or action.dest.upper()}`"
    default = "" if action.default in (None, False, [], argparse.SUPPRESS) \
        else f"`{action.default}`"
    what = (action.help or "").replace("%%", "%").replace("|", "\\|")
    return f"| {names} | {value} | {default} | {what} |"


def on_page_markdown(markdown: str, **_: Any) -> str:
    return _PLACE.sub(lambda m: options_table(m.group(1)), markdown)
