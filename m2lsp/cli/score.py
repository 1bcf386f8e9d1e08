"""`m2lsp score` and the drop-in `m2scorer` command (the scorers' command line)."""

from __future__ import annotations

import argparse
import getopt
import sys
from collections.abc import Sequence
from pathlib import Path

from m2lsp.cli.exits import EXIT_CLEAN, EXIT_ERROR
from m2lsp.errors import InputError, M2lspError, UsageError
from m2lsp.parsing.m2 import parse_m2
from m2lsp.parsing.source import SourceText, decode
from m2lsp.scoring.m2 import M2Settings, evaluate
from m2lsp.scoring.m2_input import read_gold, read_system
from m2lsp.scoring.m2_report import summary, verbose


def add_commands(commands: argparse._SubParsersAction) -> None:
    score = commands.add_parser(
        "score", help="score a system against gold edits",
        description="Score a system's output against gold edits (M2 metric: identical to the "
        "NUS M2 scorer 3.2).")
    score.add_argument("system", type=Path, help="system output, one tokenized sentence a line")
    score.add_argument("gold", type=Path, help="gold M2 file")
    score.add_argument("-v", "--verbose", action="store_true",
                       help="print every sentence's edits, as the NUS scorer's -v does")
    score.add_argument("--very-verbose", action="store_true",
                       help="also print each sentence's lattice")
    score.add_argument("--max-unchanged-words", type=int, default=2, metavar="N",
                       help="longest run of unchanged tokens inside one edit (default 2)")
    score.add_argument("--beta", type=float, default=0.5, metavar="B",
                       help="weight of recall in the F-score (default 0.5)")
    score.add_argument("--ignore-whitespace-casing", action="store_true",
                       help="drop system edits that only change whitespace or case")
    score.add_argument("--format", choices=["text", "json"], default="text",
                       help="text (the NUS scorer's output) or json")
    score.add_argument("--encoding", help="encoding of both files (default: UTF-8)")
    score.set_defaults(handler=run_score)


def run_score(args: argparse.Namespace) -> int:
    settings = M2Settings(args.max_unchanged_words, args.beta, args.ignore_whitespace_casing)
    result_text = score_files(args.system, args.gold, settings, verbose_output=args.verbose
                              or args.very_verbose, encoding=args.encoding,
                              output=args.format)
    sys.stdout.write(result_text)
    return EXIT_CLEAN


def read_text(path: Path, what: str, encoding: str | None) -> SourceText:
    """A file's text, or an InputError that says what is wrong with it."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {what} file {path}: {exc.strerror or exc}") from exc
    source = decode(data, encoding)
    if source.problem is not None:
        raise InputError(f"{what} file {path} is {source.problem.describe()}")
    return source


def score_files(system_path: Path, gold_path: Path, settings: M2Settings,
                verbose_output: bool = False, encoding: str | None = None,
                output: str = "text") -> str:
    """Read, check and score; the text to print."""
    gold_source = read_text(gold_path, "gold", encoding)
    system_source = read_text(system_path, "system", encoding)
    gold = read_gold(parse_m2(gold_source), gold_source, str(gold_path))
    hypotheses = read_system(system_source)
    if len(gold) != len(hypotheses):
        raise InputError(count_mismatch(gold, hypotheses, system_path, gold_path))
    if output == "json":
        from m2lsp.scoring.m2_json import result_json

        return result_json(evaluate(gold, hypotheses, settings), system_path, gold_path)
    if verbose_output:
        from m2lsp.scoring.m2 import score_all

        text, _ = verbose(score_all(gold, hypotheses, settings), settings)
        return text
    return summary(evaluate(gold, hypotheses, settings).score)


def count_mismatch(gold: Sequence, hypotheses: Sequence[str], system_path: Path,
                   gold_path: Path) -> str:
    """Both counts, and the first sentence where the files stop lining up."""
    line = first_divergence([g.source for g in gold], hypotheses)
    where = ""
    if line is not None:
        gold_line = gold[line].line + 1 if line < len(gold) else None
        where = (f"; they stop lining up at system line {line + 1}"
                 + (f" (gold S line {gold_line})" if gold_line else ""))
    return (f"system file {system_path} has {len(hypotheses)} sentences but gold file "
            f"{gold_path} has {len(gold)}{where}")


def first_divergence(sources: Sequence[str], hypotheses: Sequence[str]) -> int | None:
    """The first index from which hypotheses look more like a shifted source than their own
    (a sentence lost or added), or the end of the shorter file."""
    def overlap(a: str, b: str) -> float:
        x, y = set(a.split()), set(b.split())
        return len(x & y) / max(len(x | y), 1)

    for index in range(min(len(sources), len(hypotheses))):
        own = overlap(sources[index], hypotheses[index])
        shifted = max(overlap(sources[index + 1], hypotheses[index])
                      if index + 1 < len(sources) else 0.0,
                      overlap(sources[index - 1], hypotheses[index]) if index else 0.0)
        if shifted > own + 0.2:
            return index
    return min(len(sources), len(hypotheses))


# ---------------------------------------------------------------------------------------
# m2scorer: the NUS scorer's own command line

USAGE = """Usage: m2scorer.py [OPTIONS] proposed_sentences gold_source
where
  proposed_sentences   -   system output, sentence per line
  source_gold          -   source sentences with gold token edits
OPTIONS
  -v    --verbose                   -  print verbose output
        --very_verbose              -  print lots of verbose output
        --max_unchanged_words N     -  Maximum unchanged words when extraction edit. Default 2.
        --beta B                    -  Beta value for F-measure. Default 0.5.
        --ignore_whitespace_casing  -  Ignore edits that only affect whitespace and caseing. Default no.
"""  # noqa: E501


def m2scorer_main(argv: Sequence[str] | None = None) -> int:
    """`m2scorer [OPTIONS] SYSTEM GOLD`, with the NUS scorer's flags, output and exit codes
    (an unknown option or a wrong argument count prints its usage and exits with 255)."""
    import gc

    gc.disable()
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        opts, args = getopt.getopt(argv, "v", ["max_unchanged_words=", "beta=", "verbose",
                                               "ignore_whitespace_casing", "very_verbose"])
        settings, loud = _m2scorer_options(opts)
    except (getopt.GetoptError, UsageError, ValueError) as exc:
        print(exc, file=sys.stderr)
        sys.stderr.write(USAGE)
        return 255
    if len(args) != 2:
        sys.stderr.write(USAGE)
        return 255
    try:
        sys.stdout.write(score_files(Path(args[0]), Path(args[1]), settings, loud))
    except M2lspError as exc:
        print(f"m2scorer: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return EXIT_CLEAN


def _m2scorer_options(opts: list[tuple[str, str]]) -> tuple[M2Settings, bool]:
    max_unchanged, beta, ignore, loud = 2, 0.5, False, False
    for option, value in opts:
        if option in ("-v", "--verbose", "--very_verbose"):
            loud = True
        elif option == "--max_unchanged_words":
            max_unchanged = int(value)
        elif option == "--beta":
            beta = float(value)
        elif option == "--ignore_whitespace_casing":
            ignore = True
    return M2Settings(max_unchanged, beta, ignore), loud
