"""Help people can read for the commands that take every metric's options (`score`,
`compare`, `meta-eval`): the common options first, then each metric's options in a group of
its own; `--metric NAME --help` shows the common options and that metric's only."""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Sequence
from typing import Any

from m2lsp.scoring.metric import Declaration, Flag

GROUPS = "m2lsp_metric_groups"  # the parser attribute: metric name -> its argument group


def add_help(parser: argparse.ArgumentParser) -> None:
    """-h/--help that knows the metric chosen before it (the parser is made with
    add_help=False)."""
    parser.add_argument("-h", "--help", action=MetricHelp, nargs=0,
                        help="show this help (after --metric NAME: that metric's options "
                        "only) and exit")


def add_metric_groups(parser: argparse.ArgumentParser, metrics: Iterable[Declaration],
                      skip: Iterable[str] = ()) -> None:
    """Each metric's own flags in a group titled `--metric NAME`; a flag already on the
    parser (another metric's, or one `skip`ped by dest) is not added again."""
    groups: dict[str, Any] = getattr(parser, GROUPS, {})
    known = set(parser._option_string_actions)
    skipped = set(skip)
    for metric in metrics:
        flags = [f for f in metric.flags
                 if f.dest not in skipped and not any(n in known for n in f.names)]
        if not flags:
            continue
        group = parser.add_argument_group(f"--metric {metric.name}", _first_clause(metric))
        for flag in flags:
            _add(group, flag)
            known.update(flag.names)
        groups[metric.name] = group
    setattr(parser, GROUPS, groups)


def _add(group: Any, flag: Flag) -> None:
    group.add_argument(*flag.names, help=flag.help, **flag.spec)


def _first_clause(metric: Declaration) -> str:
    """The metric's help, as the group's description."""
    return f"{metric.help}."


class MetricHelp(argparse.Action):
    """Prints the parser's help with the groups of the metrics not chosen left out."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None
                 ) -> None:
        chosen = getattr(namespace, "metric", None)
        chosen = [chosen] if isinstance(chosen, str) else list(chosen or [])
        groups: dict[str, Any] = getattr(parser, GROUPS, {})
        kept = parser._action_groups
        shown = [g for g in kept if not chosen or g not in groups.values()
                 or any(groups.get(name) is g for name in chosen)]
        for name in chosen:
            shown.extend(_also(parser, name))
        parser._action_groups = shown
        try:
            parser.print_help()
        finally:
            parser._action_groups = kept
        if chosen:
            print("\n(--help without --metric: every metric's options)")
        parser.exit()


def _also(parser: argparse.ArgumentParser, name: str) -> list[Any]:
    """A group (for the help only) of the options of other metrics that `name` takes."""
    from m2lsp.scoring.metric import declared

    actions = [parser._option_string_actions[f.names[0]] for f in declared(name).also
               if f.names[0] in parser._option_string_actions]
    if not actions:
        return []
    group = argparse._ArgumentGroup(parser, f"--metric {name} also takes")
    group._group_actions = actions
    return [group]
