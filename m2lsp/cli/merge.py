"""`m2lsp merge A.m2 B.m2 ... -o gold.m2` and `m2lsp split gold.m2 -o DIR`: annotators'
files into one gold and back (see m2lsp.authoring.annotators)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from m2lsp.cli.exits import EXIT_CLEAN
from m2lsp.cli.inputs import read_text
from m2lsp.errors import UsageError
from m2lsp.model import M2Document

if TYPE_CHECKING:
    from m2lsp.authoring.annotators import Merged, Named


def add_commands(commands: argparse._SubParsersAction) -> None:
    merge = commands.add_parser(
        "merge", help="merge annotators' M2 files of the same sentences into one gold",
        description="One M2 file of the files' annotators, numbered file by file (annotator "
        "k is the k-th file where each has one; a file of several keeps them apart, and the "
        "new ids are printed), or with --keep-ids each id as written. The files must "
        "have the same sentences in the same order: the first that differs is named; a "
        "line that is not an S, A or T line of a sentence is refused, named.")
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
        description="One M2 file per annotator of GOLD (or per --group), every sentence "
        "with that annotator's lines, renumbered from 0 (--keep-ids: as written): "
        "DIR/STEM.ID.m2 (an id's characters other than ASCII letters, digits, - and _ "
        "as %XX). "
        "All files are written or none. `m2lsp merge` of the pieces gives the gold back.")
    split.add_argument("gold", type=Path, help="an M2 file")
    split.add_argument("-o", "--output", type=Path, required=True, metavar="DIR",
                       help="the folder to write the files in (made if missing)")
    split.add_argument("--keep-ids", action="store_true",
                       help="keep each line's annotator id (default: 0 in every file)")
    split.add_argument("--group", action="append", metavar="IDS",
                       help="annotators written to one file, comma separated (as `m2lsp "
                       "merge` reports them for a file of several); repeatable; every "
                       "other annotator gets a file of its own")
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
    merged = merge(files, keep_ids=args.keep_ids)
    if any(len(ids) > 1 for ids in merged.ids):
        _say_ids(files, merged, args.output)
    if args.output is None:
        sys.stdout.write(merged.text)
    else:
        write_atomic(args.output, merged.text, inputs=args.files)
        print(f"m2lsp: wrote {args.output} ({len(files)} files merged)", file=sys.stderr)
    return EXIT_CLEAN


def _say_ids(files: list[Named], merged: Merged, output: Path | None) -> None:
    """Where a file holds several annotators: which id each has in the gold, and the
    split that gives the files back."""
    mapping = "; ".join(f"{f.name}: " + ", ".join(f"{was} -> {now}" for was, now in
                                                  ids.items())
                        for f, ids in zip(files, merged.ids, strict=True) if ids)
    groups = " ".join(f"--group {','.join(g)}" for g in merged.groups if g)
    print(f"m2lsp: annotators: {mapping} (`m2lsp split {output or 'GOLD'} -o DIR {groups}` "
          "gives the files back)", file=sys.stderr)


def run_split(args: argparse.Namespace) -> int:
    from m2lsp.authoring.annotators import Named, refuse_unread, split
    from m2lsp.files.writing import make_folder, write_together

    document = _parsed(args.gold, args.encoding)
    refuse_unread(Named(str(args.gold), document))
    groups = [[a.strip() for a in g.split(",") if a.strip()] for g in args.group or ()]
    pieces = split(document, keep_ids=args.keep_ids, groups=groups)
    if not pieces:
        raise UsageError(f"{args.gold} has no annotator (no A line): nothing to split")
    stem = args.gold.name.removesuffix(".m2")
    named = _file_names(stem, list(pieces))
    make_folder(args.output)
    write_together([(args.output / named[group], text) for group, text in pieces.items()],
                   inputs=[args.gold])
    print(f"m2lsp: wrote {len(pieces)} files in {args.output} (annotators "
          f"{', '.join('+'.join(g) for g in pieces)})", file=sys.stderr)
    _say_left(args.output, stem, set(named.values()))
    return EXIT_CLEAN


def _file_names(stem: str, groups: list[tuple[str, ...]]) -> dict[tuple[str, ...], str]:
    """STEM.ID.m2 per group (ids joined by +): an id's characters other than ASCII letters,
    digits, - and _ as %XX, so distinct ids give distinct names (also where case does not
    count)."""
    named = {g: f"{stem}.{'+'.join(_safe(a) for a in g)}.m2" for g in groups}
    seen: dict[str, tuple[str, ...]] = {}
    for group, name in named.items():
        if name.casefold() in seen:
            raise UsageError(f"annotators {'+'.join(seen[name.casefold()])} and "
                             f"{'+'.join(group)} would be written to one file name "
                             f"({name}); rename one of them")
        seen[name.casefold()] = group
    return named


def _safe(annotator: str) -> str:
    return "".join(c if (c.isalnum() and c.isascii()) or c in "-_" else
                   "".join(f"%{b:02X}" for b in c.encode("utf-8", "surrogatepass"))
                   for c in annotator)


def _say_left(folder: Path, stem: str, written: set[str]) -> None:
    """Name the files of an earlier split in `folder` this one did not write."""
    try:
        left = sorted(p.name for p in folder.iterdir() if p.name.startswith(f"{stem}.")
                      and p.name.endswith(".m2") and p.name not in written)
    except OSError:
        return
    if left:
        print(f"m2lsp: note: {folder} also holds {', '.join(left)}, of an earlier split "
              f"or another file; left untouched", file=sys.stderr)
