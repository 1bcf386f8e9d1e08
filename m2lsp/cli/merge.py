"""`m2lsp merge A.m2 B.m2 ... -o gold.m2` and `m2lsp split gold.m2 -o DIR`: annotators'
files into one gold and back (see m2lsp.authoring.annotators)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from m2lsp.cli.exits import EXIT_CLEAN
from m2lsp.cli.inputs import read_text
from m2lsp.errors import UsageError
from m2lsp.model import M2Document


def add_commands(commands: argparse._SubParsersAction) -> None:
    merge = commands.add_parser(
        "merge", help="merge annotators' M2 files of the same sentences into one gold",
        description="One M2 file of the files' annotators: annotator k is the k-th file "
        "(its lines' ids renumbered), or with --keep-ids each id as written. The files must "
        "have the same sentences in the same order: the first that differs is named.")
    merge.add_argument("files", nargs="+", type=Path, help="M2 files, one or more "
                       "annotators each")
    merge.add_argument("-o", "--output", type=Path, help="write here (default: stdout)")
    merge.add_argument("--keep-ids", action="store_true",
                       help="keep each line's annotator id (files that share an id are "
                       "refused)")
    merge.add_argument("--encoding", default=None, help="the files' encoding (detected)")
    merge.set_defaults(handler=run_merge)
    split = commands.add_parser(
        "split", help="split a gold's annotators into one M2 file each",
        description="One M2 file per annotator of GOLD, every sentence with that "
        "annotator's lines, renumbered 0 (--keep-ids: as written): DIR/STEM.ID.m2. "
        "`m2lsp merge` of the pieces gives the gold back.")
    split.add_argument("gold", type=Path, help="an M2 file")
    split.add_argument("-o", "--output", type=Path, required=True, metavar="DIR",
                       help="the folder to write the files in (made if missing)")
    split.add_argument("--keep-ids", action="store_true",
                       help="keep each line's annotator id (default: 0 in every file)")
    split.add_argument("--encoding", default=None, help="the file's encoding (detected)")
    split.set_defaults(handler=run_split)


def _parsed(path: Path, encoding: str | None) -> M2Document:
    from m2lsp.parsing.m2 import parse_m2

    text = read_text(path, "M2", encoding)
    if text.text.strip() and not any(line.startswith("S ") for line in
                                     text.text.splitlines()[:1000]):
        raise UsageError(f"{path} is not an M2 file (no S line)")
    return parse_m2(text)


def run_merge(args: argparse.Namespace) -> int:
    from m2lsp.authoring.annotators import Named, merge
    from m2lsp.files.writing import write_atomic

    files = [Named(str(p), _parsed(p, args.encoding)) for p in args.files]
    text = merge(files, keep_ids=args.keep_ids)
    if args.output is None:
        sys.stdout.write(text)
    else:
        write_atomic(args.output, text, inputs=args.files)
        print(f"m2lsp: wrote {args.output} ({len(files)} files merged)", file=sys.stderr)
    return EXIT_CLEAN


def run_split(args: argparse.Namespace) -> int:
    from m2lsp.authoring.annotators import split
    from m2lsp.files.writing import write_atomic

    pieces = split(_parsed(args.gold, args.encoding), keep_ids=args.keep_ids)
    if not pieces:
        raise UsageError(f"{args.gold} has no annotator (no A line): nothing to split")
    args.output.mkdir(parents=True, exist_ok=True)
    stem = args.gold.name.removesuffix(".m2")
    for annotator, text in pieces.items():
        safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in annotator)
        write_atomic(args.output / f"{stem}.{safe}.m2", text, inputs=[args.gold])
    print(f"m2lsp: wrote {len(pieces)} files in {args.output} (annotators "
          f"{', '.join(pieces)})", file=sys.stderr)
    return EXIT_CLEAN
