"""`m2lsp convert`: between CGED SGML, CGED truth files, char-level M2 and parallel text."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from m2lsp.cli.exits import EXIT_CLEAN, EXIT_FINDINGS
from m2lsp.cli.inputs import read_text
from m2lsp.errors import InputError, UsageError

TARGETS = {"m2": ("cged",), "cged": ("m2",), "truth": ("cged", "m2"), "parallel": ("m2",)}


def add_commands(commands: argparse._SubParsersAction) -> None:
    convert = commands.add_parser(
        "convert", help="convert between CGED SGML, truth files, M2 and parallel text",
        description="CGED SGML -> char-level M2 or truth file; M2 -> CGED SGML, truth file or "
        "parallel text (source, then each annotator's correction, tab separated). Offsets: "
        "CGED start_off..end_off (1-based) is the M2 span start-1 end; an M error at k is the "
        "insertion point k-1.")
    convert.add_argument("input", type=Path, help="a CGED SGML/XML or M2 file")
    convert.add_argument("--to", required=True, choices=sorted(TARGETS),
                         help="what to write")
    convert.add_argument("-o", "--output", type=Path, help="write here (default: stdout)")
    convert.add_argument("--annotator", help="M2 -> CGED: whose edits (default: each "
                         "sentence's first annotator)")
    convert.add_argument("--ids", type=Path, help="M2 -> CGED: a file of sentence ids, one a "
                         "line (default: 1, 2, ...)")
    convert.add_argument("--no-spaces", action="store_true",
                         help="parallel: join tokens without spaces (char-level Chinese)")
    convert.add_argument("--header", action="store_true",
                         help="parallel: a first line naming the columns (source, annotator "
                         "0, annotator 1, ...); without it the columns are the same and "
                         "said on stderr")
    convert.add_argument("--detection-only", action="store_true",
                         help="CGED -> M2: write errors that have no correction as UNK edits "
                         "whose correction is the original text (ERRANT's convention for "
                         "errors marked, not corrected); without it they are unconvertible")
    convert.add_argument("--encoding", help="encoding of the input (default: UTF-8)")
    convert.add_argument("--skip-unconvertible", action="store_true",
                         help="write the conversion even when some sentences cannot be "
                         "fully converted (each is still reported); without it nothing is "
                         "written and the exit code is 1")
    convert.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from m2lsp import conversion
    from m2lsp.model import Format
    from m2lsp.parsing.cged import parse_cged
    from m2lsp.parsing.detect import detect_format
    from m2lsp.parsing.m2 import parse_m2

    source = read_text(args.input, "input", args.encoding)
    problems: list[conversion.Unconverted] = []
    kind = detect_format(args.input, source.text)
    name = {Format.M2: "m2", Format.CGED: "cged"}.get(kind) if kind is not None else None
    if name not in TARGETS[args.to]:
        raise UsageError(f"cannot convert {args.input} ({kind.value if kind else 'unknown'} "
                         f"format) to {args.to}: the input must be "
                         + " or ".join(TARGETS[args.to]))
    if name == "cged":
        sentences = conversion.from_cged(parse_cged(source), problems)
    else:
        document = parse_m2(source)
        if args.to == "parallel":
            return _parallel(args, document, problems)
        sentences = conversion.from_m2(document, args.annotator)
    if args.to == "m2":
        return _write(args, conversion.to_m2(sentences, args.detection_only, problems),
                      problems)
    if args.to == "truth":
        return _write(args, conversion.to_truth(sentences), problems)
    ids = None
    if args.ids:
        ids = [x.strip() for x in read_text(args.ids, "ids", args.encoding).text.splitlines()
               if x.strip()]
    return _write(args, conversion.to_cged(sentences, ids), problems)


def _parallel(args: argparse.Namespace, document, problems: list) -> int:
    from m2lsp import conversion

    if not args.header:
        columns = ", ".join(["source", *(f"annotator {a}"
                                         for a in conversion.annotators(document))])
        print(f"m2lsp: columns: {columns} (--header writes them as a first line)",
              file=sys.stderr)
    return _write(args, conversion.to_parallel(document, not args.no_spaces, problems,
                                               args.header), problems)


def _write(args: argparse.Namespace, text: str, problems: list) -> int:
    """Write the conversion, unless something could not be converted and the user did not
    say to go on; every such sentence is reported either way."""
    kind = "warning" if args.skip_unconvertible else "error"
    for problem in problems:
        print(f"m2lsp: {kind}: {args.input}: {problem.where}: {problem.reason}",
              file=sys.stderr)
    if problems and not args.skip_unconvertible:
        sentences = len({problem.sentence for problem in problems})
        print(f"m2lsp: {sentences} sentence(s) could not be fully converted ({len(problems)} "
              "problem(s)); nothing written (--skip-unconvertible writes the rest)",
              file=sys.stderr)
        return EXIT_FINDINGS
    if args.output is None:
        sys.stdout.write(text)
        return EXIT_CLEAN
    try:
        args.output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write {args.output}: {exc.strerror or exc}") from exc
    return EXIT_CLEAN
