"""`m2lsp errant-compare`: a drop-in for errant_compare (errant 3.0.2), same flags, same
output."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import m2lsp.arguments as arguments
from m2lsp.cli.exits import EXIT_CLEAN
from m2lsp.scoring.errant.compare import ErrantSettings
from m2lsp.scoring.errant.files import score_files
from m2lsp.scoring.errant.report import report


def add_commands(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "errant-compare", help="errant_compare's scoring of hypothesis M2 against reference M2",
        description="Span-based F-scores of hypothesis edits against reference edits, as "
        "errant_compare (errant 3.0.2) computes and prints them; its flags, spelled as it "
        "spells them.", formatter_class=argparse.RawTextHelpFormatter,
        usage="%(prog)s [options] -hyp HYP -ref REF")
    parser.add_argument("-hyp", required=True, help="a hypothesis M2 file")
    parser.add_argument("-ref", required=True, help="a reference M2 file")
    parser.add_argument("-b", "--beta", type=arguments.BETA, default=0.5,
                        help="beta of the F-score (default: 0.5)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print every sentence's annotator pairs")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("-dt", action="store_true", help="detection, by tokens")
    mode.add_argument("-ds", action="store_true", help="detection, by spans")
    mode.add_argument("-cs", action="store_true", help="correction, by spans (default)")
    mode.add_argument("-cse", action="store_true",
                      help="correction, by spans and error types")
    parser.add_argument("-single", action="store_true",
                        help="only single-token edits: 0:1, 1:0 or 1:1")
    parser.add_argument("-multi", action="store_true",
                        help="only multi-token edits: 2+:n or n:2+")
    parser.add_argument("-filt", nargs="+", default=[], help="error types not to evaluate")
    parser.add_argument("-cat", type=int, choices=[1, 2, 3],
                        help="per-category scores: 1 operation (R), 2 main type (NOUN),\n"
                        "3 whole type (R:NOUN)")
    parser.add_argument("--encoding", help="encoding of both files (default: UTF-8)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    settings = ErrantSettings(args.beta, _mode(args), args.single, args.multi,
                              tuple(args.filt))
    result = score_files(Path(args.hyp), Path(args.ref), settings, args.encoding, _warn)
    sys.stdout.write(report(result, args.verbose, args.cat))
    return EXIT_CLEAN


def _mode(args: argparse.Namespace) -> str:
    return next((m for m in ("dt", "ds", "cse") if getattr(args, m)), "cs")


def _warn(message: str) -> None:
    print(f"m2lsp: {message}", file=sys.stderr)
