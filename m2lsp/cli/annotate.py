"""`m2lsp annotate` (a source and its corrections to M2 edits) and `m2lsp errant-parallel`, a
drop-in for errant_parallel (errant 3.0.2): same flags, same output file."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from m2lsp import defaults
from m2lsp.cli.exits import EXIT_CLEAN
from m2lsp.errors import InputError, UsageError

if TYPE_CHECKING:
    from m2lsp.annotation.parallel import ParallelText


def add_commands(commands: argparse._SubParsersAction) -> None:
    _add_annotate(commands)
    _add_errant_parallel(commands)


def _add_annotate(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "annotate", help="align a source with its corrections and write the edits as M2",
        description="A source file and one or more corrected files (one sentence a line) "
        "to M2, as errant_parallel writes it: English with ERRANT (needs "
        "m2lsp[errant] and a spaCy pipeline). Each corrected file is one annotator (0, "
        "1, ...).")
    parser.add_argument("--orig", required=True, type=Path, help="the source text file")
    parser.add_argument("--cor", required=True, nargs="+", type=Path,
                        help="one or more corrected text files (system outputs or references)")
    parser.add_argument("-o", "--output", type=Path, help="write here (default: stdout); "
                        "with --each, the folder to write into")
    parser.add_argument("--each", action="store_true",
                        help="one M2 file per corrected file, as errant_parallel run on each "
                        "(written into the folder -o as NAME.m2), in one run: the sources "
                        "are parsed once")
    parser.add_argument("--lang", choices=["en"], default="en",
                        help="the language (en: ERRANT)")
    _add_errant_flags(parser, "--tok", "--lev", "--merge")
    parser.add_argument("--spacy-model", help="the spaCy pipeline (default: the setting "
                        f"spacy-model, else {defaults.SPACY_MODEL})")
    parser.add_argument("--jobs", type=int, help="processes that annotate in parallel "
                        "(default: the cores, at most 4; 1: this process only)")
    parser.add_argument("--config", type=Path, help="a pyproject.toml to read [tool.m2lsp] "
                        "from (default: the nearest one above the source)")
    parser.add_argument("--encoding", help="encoding of the text files (default: UTF-8)")
    parser.set_defaults(handler=run_annotate)


def _add_errant_parallel(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "errant-parallel", help="errant_parallel's annotation of parallel text as M2",
        description="Align parallel text files and extract and classify the edits, as "
        "errant_parallel (errant 3.0.2) does, with its flags spelled as it spells them.",
        formatter_class=argparse.RawTextHelpFormatter,
        usage="%(prog)s [-h] [options] -orig ORIG -cor COR [COR ...] -out OUT")
    parser.add_argument("-orig", required=True, help="The path to the original text file.")
    parser.add_argument("-cor", required=True, nargs="+", default=[],
                        help="The paths to >= 1 corrected text files.")
    parser.add_argument("-out", required=True, help="The output filepath.")
    _add_errant_flags(parser, "-tok", "-lev", "-merge")
    parser.add_argument("--spacy-model", default=defaults.SPACY_MODEL,
                        help=f"the spaCy pipeline (default: {defaults.SPACY_MODEL})")
    parser.add_argument("--jobs", type=int, help="processes that annotate in parallel "
                        "(default: the cores, at most 4)")
    parser.set_defaults(handler=run_errant_parallel)


def _add_errant_flags(parser: argparse.ArgumentParser, tok: str, lev: str,
                      merge: str) -> None:
    parser.add_argument(tok, dest="tok", action="store_true",
                        help="Word tokenise the text using spacy (default: False).")
    parser.add_argument(lev, dest="lev", action="store_true",
                        help="Align using standard Levenshtein (default: False).")
    parser.add_argument(merge, dest="merge", choices=defaults.MERGES,
                        default=defaults.MERGES[0],
                        help="Choose a merging strategy for automatic alignment.\n"
                        "rules: Use a rule-based merging strategy (default)\n"
                        "all-split: Merge nothing: MSSDI -> M, S, S, D, I\n"
                        "all-merge: Merge adjacent non-matches: MSSDI -> M, SSDI\n"
                        "all-equal: Merge adjacent same-type non-matches: MSSDI -> M, SS, D, I")


def run_annotate(args: argparse.Namespace) -> int:
    from m2lsp.config import config_for

    config = config_for([args.orig], args.config)
    model = args.spacy_model or config.score.spacy_model
    if args.each:
        return _each(args, model)
    blocks = _blocks(args.orig, args.cor, args, model, args.encoding)
    _write(blocks, args.output)
    return EXIT_CLEAN


def _each(args: argparse.Namespace, model: str) -> int:
    """Each corrected file's M2 in the folder -o, from one pipeline and one cache."""
    from m2lsp.annotation.english import EnglishSettings
    from m2lsp.annotation.parallel import annotate_each
    from m2lsp.cli.progress import Ticker

    if args.output is None:
        raise UsageError("--each writes one file per corrected file: name a folder with -o")
    names = [args.output / f"{path.name}.m2" for path in args.cor]
    if len(set(names)) < len(names):
        raise UsageError("--each: two corrected files have the same name")
    texts = [_read(args, [path]) for path in args.cor]
    settings = EnglishSettings(args.tok, args.lev, args.merge, model)
    blocks = annotate_each(texts, settings, _jobs(args),
                           lambda total: Ticker(total, what="line", stalls=False))
    outputs: dict[int, list[str]] = {i: [] for i in range(len(names))}
    for which, block in blocks:
        outputs[which].append(block)
    args.output.mkdir(parents=True, exist_ok=True)
    for which, path in enumerate(names):
        _write(outputs[which], path)
    return EXIT_CLEAN


def _read(args: argparse.Namespace, cors: list[Path]) -> ParallelText:
    from m2lsp.annotation.parallel import read_parallel

    text = read_parallel(args.orig, cors, args.encoding)
    _warn_about(args.orig, text)
    return text


def _jobs(args: argparse.Namespace) -> int:
    from m2lsp.annotation.parallel import default_jobs

    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    return args.jobs or default_jobs()


def run_errant_parallel(args: argparse.Namespace) -> int:
    print("Loading resources...")
    blocks = _blocks(Path(args.orig), [Path(c) for c in args.cor], args, args.spacy_model,
                     None, announce=True)
    _write(blocks, Path(args.out))
    return EXIT_CLEAN


def _blocks(orig: Path, cors: list[Path], args: argparse.Namespace, model: str,
            encoding: str | None, announce: bool = False) -> Iterable[str]:
    from m2lsp.annotation.english import EnglishSettings
    from m2lsp.annotation.parallel import annotate, read_parallel
    from m2lsp.cli.progress import Ticker

    jobs = _jobs(args)
    text = read_parallel(orig, cors, encoding)
    _warn_about(orig, text)
    settings = EnglishSettings(args.tok, args.lev, args.merge, model)
    blocks = annotate(text, settings, jobs,
                      lambda total: Ticker(total, what="line", stalls=False))
    first = next(iter(blocks), None)  # loads the pipeline: its errors come before any output
    if announce:
        print("Processing parallel files...", flush=True)
    return _chain(first, blocks)


def _chain(first: str | None, rest: Iterable[str]) -> Iterable[str]:
    if first is not None:
        yield first
    yield from rest


def _warn_about(orig: Path, text: ParallelText) -> None:
    if text.sources and text.sources[0].startswith("\ufeff"):
        print(f"m2lsp: warning: {orig} starts with a byte-order mark; errant_parallel keeps it "
              f"as part of the first word, and so does this output", file=sys.stderr)


def _write(blocks: Iterable[str], output: Path | None) -> None:
    if output is None:
        for block in blocks:
            sys.stdout.write(block)
        return
    try:
        with open(output, "w", encoding="utf-8", newline="\n") as out:
            for block in blocks:
                out.write(block)
    except OSError as exc:
        raise InputError(f"cannot write {output}: {exc.strerror or exc}") from None
