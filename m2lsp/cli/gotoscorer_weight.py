"""`m2lsp gotoscorer-weight`: GoToScorer's chunk weights from a set of systems, as
gec-metrics' `gecmetrics-gen-gotoscorer-weight` writes them (same flags, same JSON), for
`score --metric gotoscorer --gotoscorer-weight-file`."""

from __future__ import annotations

import argparse
from pathlib import Path

from m2lsp.cli.exits import EXIT_CLEAN


def add_commands(commands: argparse._SubParsersAction) -> None:
    command = commands.add_parser(
        "gotoscorer-weight", help="GoToScorer's chunk weights from several systems",
        description="Each reference chunk's weight: 1 minus the share of the systems that "
        "correct it, as gecmetrics-gen-gotoscorer-weight computes it (ERRANT's edits; a "
        "chunk counts as corrected when one of a system's chunks has its text).")
    command.add_argument("--src", required=True, type=Path, help="the source sentences")
    command.add_argument("--ref", required=True, type=Path, help="one reference")
    command.add_argument("--hyps", required=True, nargs="+", type=Path,
                         help="the systems' outputs")
    command.add_argument("--out", default=Path("sample_weight.json"), type=Path,
                         help="the JSON written (default sample_weight.json)")
    command.add_argument("--spacy-model", default=None,
                         help="the spaCy pipeline of ERRANT's edits (default: as annotate)")
    command.add_argument("--jobs", type=int, default=1, help="annotation processes")
    command.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from m2lsp.config import config_for
    from m2lsp.files.writing import refuse_inputs, write_atomic
    from m2lsp.scoring.metric import metric

    refuse_inputs(args.out, [args.src, args.ref, *args.hyps])
    text = metric("gotoscorer").weight_file(args.src, args.ref, args.hyps,  # type: ignore[attr-defined]
                                            config_for([]).score, args.spacy_model, args.jobs)
    write_atomic(args.out, text)
    return EXIT_CLEAN
