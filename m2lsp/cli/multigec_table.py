"""`m2lsp score FOLDER [GOLD_FOLDER]`: a folder of MultiGEC-2025 hypothesis files scored as
the shared task did, printed as its results table (see `m2lsp.reporting.multigec_table`)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from m2lsp.cli.exits import EXIT_CLEAN
from m2lsp.errors import UsageError

# the options a folder table takes besides --metric and --format (everything else is the
# shared task's own setting, or another metric's)
TAKEN = frozenset({"system", "gold", "metric", "format", "encoding", "config", "jobs",
                   "spacy_model", "handler", "command", "seed"})


def run(args: argparse.Namespace, flags: Sequence[Any]) -> int:
    """`flags`: the command's shared and work flags (cli.score's), checked as the
    metrics' own are."""
    from m2lsp.reporting import multigec_table as multigec

    refuse_options(args, flags)
    metrics = multigec.chosen(args.metric)
    found = multigec.submissions(args.system, args.gold)
    settings = multigec.Settings(metrics, pipelines(args, found), args.encoding, args.jobs,
                                 warn)
    rows = [multigec.scored(s, settings) for s in found]
    sys.stdout.write(rendered(rows, metrics, args.format))
    return EXIT_CLEAN


def rendered(rows: list[Any], metrics: tuple[str, ...], format: str) -> str:
    from m2lsp.reporting import multigec_table as multigec

    if format == "csv":
        return multigec.csv_table(rows, metrics)
    if format == "json":
        return json.dumps({"rows": multigec.json_rows(rows, metrics)}, ensure_ascii=False,
                          indent=1) + "\n"
    notes = "".join(f"{row.path.name}: {note}\n" for row in rows for note in row.notes
                    if note.startswith("ERRANT not scored"))
    return multigec.text_table(rows, metrics) + (f"\n{notes}" if notes else "")


def pipelines(args: argparse.Namespace, found: list[Any]) -> dict[str, str]:
    """--spacy-model for the one language of the folder (the setting spacy-models names
    one per language)."""
    if args.spacy_model is None:
        return {}
    langs = sorted({s.lang for s in found})
    if len(langs) > 1:
        raise UsageError(f"--spacy-model names one pipeline, and the folder holds "
                         f"{', '.join(langs)}: name one per language with the setting "
                         "spacy-models = {xx = \"NAME\", ...}")
    return {langs[0]: args.spacy_model}


def refuse_options(args: argparse.Namespace, command_flags: Sequence[Any]) -> None:
    from m2lsp.scoring.metric import declared, names

    flags = [f for name in names() for f in declared(name).flags] + list(command_flags)
    given = [next(n for n in f.names if n.startswith("--")) for f in flags
             if f.dest not in TAKEN and getattr(args, f.dest, f.default) != f.default]
    if getattr(args, "beta", None) is not None:
        given.append("--beta")
    if given:
        raise UsageError("a folder of MultiGEC hypotheses is scored as the shared task did "
                         "(GLEU -d 4 -f -n 4 -t word; ERRANT's defaults): not available: "
                         + ", ".join(dict.fromkeys(given)))


def warn(message: str) -> None:
    print(f"m2lsp: {message}", file=sys.stderr)
