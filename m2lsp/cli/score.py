"""`m2lsp score`, `m2lsp compare` and the drop-in `m2scorer` command: a loop over the metric
registry (`m2lsp.scoring.metric`).  Each metric declares its own options; this module only
builds the flags, reads `[tool.m2lsp]`, hands the values over and prints what comes back."""

from __future__ import annotations

import argparse
import getopt
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import m2lsp.arguments as arguments
import m2lsp.defaults as defaults
from m2lsp.cli.exits import EXIT_CLEAN, EXIT_ERROR
from m2lsp.errors import M2lspError, UsageError
from m2lsp.parsing.source import Input
from m2lsp.scoring.metric import (
    Declaration,
    Flag,
    Metric,
    Request,
    Shared,
    comparable,
    declared,
    metric,
    names,
)


def add_commands(commands: argparse._SubParsersAction) -> None:
    from m2lsp.cli.metric_help import add_help, add_metric_groups

    metrics = [declared(name) for name in names()]
    score = commands.add_parser(
        "score", help="score a system against gold edits or references", add_help=False,
        usage="%(prog)s SYSTEM [GOLD] [--metric NAME] [options]",
        description="Score a system's output with a metric (--metric NAME; default: "
        f"[tool.m2lsp] metric, else {defaults.METRIC}). The common options come first, then "
        "each metric's own, in a group that says what the metric is and what it reads; "
        "`m2lsp score --metric NAME --help` shows that metric's only. Defaults come from "
        "[tool.m2lsp] in the nearest pyproject.toml, flags win.")
    add_help(score)
    score.add_argument("system", type=Path, help="system output (see --metric); or a folder "
                       "of MultiGEC-2025 hypotheses (LANG-CORPUS-hyp-SPLIT.md), scored into "
                       "the shared task's table")
    score.add_argument("gold", type=Path, nargs="?",
                       help="gold: what the metric compares with (see --metric); for a "
                       "folder of hypotheses, the folder of their orig and refN files "
                       "(default: beside each hypothesis)")
    score.add_argument("--metric", choices=names(), default=None, metavar="NAME",
                       help=f"{', '.join(names())} (default: [tool.m2lsp] metric, else "
                       f"{defaults.METRIC}); what each is: its group below")
    _shared_options(score)
    score.add_argument("--format", choices=["text", "json", "csv"], default="text",
                       help="text (the reference tool's output) or json; for a folder of "
                       "MultiGEC-2025 hypotheses (SYSTEM a folder), its results table as "
                       "text, json or csv")
    for flag in SHARED_FLAGS + WORK_FLAGS:
        score.add_argument(*flag.names, help=flag.help, **flag.spec)
    score.add_argument("--seed", type=arguments.SEED, default=12345,
                       help="bootstrap seed (default 12345)")
    add_metric_groups(score, metrics)
    score.set_defaults(handler=run_score, command="score")

    testable = comparable()
    compare = commands.add_parser(
        "compare", help="paired significance test of two systems", add_help=False,
        usage="%(prog)s SYSTEM_A SYSTEM_B GOLD [--metric NAME] [options]",
        description="Do systems A and B differ? A paired bootstrap test over sentences "
        "(same resamples for both systems) and paired approximate randomisation, both "
        "two-sided unless --alternative says otherwise, for every metric with per-sentence "
        f"statistics ({', '.join(testable)}).")
    add_help(compare)
    compare.add_argument("system_a", type=Path)
    compare.add_argument("system_b", type=Path)
    compare.add_argument("gold", type=Path)
    compare.add_argument("--metric", choices=testable, default=None,
                         help=f"default: [tool.m2lsp] metric, else {defaults.METRIC}")
    _shared_options(compare)
    compare.add_argument("--samples", type=arguments.SAMPLES, default=1000,
                         help="resamples (default 1000)")
    compare.add_argument("--seed", type=arguments.SEED, default=12345, help="seed (default 12345)")
    compare.add_argument("--alternative", choices=defaults.ALTERNATIVES, default="two-sided",
                         help="two-sided (default): A and B differ; greater: A is better; "
                         "less: A is worse")
    compare.add_argument("--format", choices=["text", "json"], default="text",
                         help="text (default), or json: the numbers unrounded, as "
                         "m2lsp.compare() returns them, with both systems' paths")
    for flag in WORK_FLAGS:
        compare.add_argument(*flag.names, help=flag.help, **flag.spec)
    add_metric_groups(compare, [declared(name) for name in testable])
    compare.set_defaults(handler=run_compare, command="compare")


def _shared_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--beta", type=arguments.BETA_OR_ZERO, default=None, metavar="B",
                        help=f"weight of recall in the F-score (default: [tool.m2lsp] beta, "
                        f"else {defaults.BETA}; 0, precision alone: m2 only, as the NUS "
                        "scorer takes it)")
    parser.add_argument("--encoding", help="encoding of the files (default: UTF-8)")
    parser.add_argument("--config", type=Path,
                        help="pyproject.toml to read [tool.m2lsp] from (default: the nearest)")


# options several metrics take; a metric names those it honours in `Metric.shared`
SHARED_FLAGS = (
    Flag(("-v", "--verbose"), "print every sentence's edits, as the NUS scorer's -v does",
         {"action": "store_true"}),
    Flag(("--per-type",), "also print P/R/F per error type of the gold edits",
         {"action": "store_true"}),
    Flag(("--sentence-level", "--sent"), "also print each sentence's scores",
         {"action": "store_true", "dest": "sentence_level"}),
    Flag(("--sentence-average",), "m2, errant: also print the mean over sentences of each "
         "sentence's F-beta against its own best annotator (SentM2, SentERRANT, as SEEDA "
         "compares them)", {"action": "store_true", "dest": "sentence_average"}),
    Flag(("--bootstrap",), "also print 95%% bootstrap intervals from N resamples",
         {"type": arguments.SAMPLES, "default": None, "metavar": "N"}),
)
# shared by `score` and `compare`
WORK_FLAGS = (
    Flag(("--jobs",), "m2, errant, cherrant: processes working in parallel (m2: default 1; "
         "annotating a plain-text hypothesis: the cores this process may use)",
         {"type": arguments.JOBS, "default": None, "metavar": "N"}),
    Flag(("--source",), "the source sentences, one a line: gleu (with --ref); errant and "
         "cherrant, for a plain-text hypothesis (default: GOLD's S lines)",
         {"type": Path, "default": None, "metavar": "FILE"}),
)


def _add_flags(parser: argparse.ArgumentParser, m: Declaration) -> None:
    for flag in m.flags:
        parser.add_argument(*flag.names, help=flag.help, **flag.spec)


@dataclass(frozen=True)
class Chosen:
    """The metric a command runs, with its settled shared options and its own."""

    metric: Metric
    shared: Shared
    options: Any


def _configured(args: argparse.Namespace, *paths: Path) -> Chosen:
    """The chosen metric, after refusing the options the command line gave that it does not
    take; its options from the command line, else from [tool.m2lsp] (`config.config_for`: a
    bad value is exit 2), built and checked once by the metric."""
    from m2lsp.config import config_for

    config = config_for(paths, args.config, names()).score
    chosen = metric(args.metric or config.metric)
    _refuse_others(args, chosen)
    values = vars(args)
    shared = Shared.settled(values, config)
    return Chosen(chosen, shared, chosen.options(values, shared, config))


def _refuse_others(args: argparse.Namespace, chosen: Metric) -> None:
    """A usage error naming every option given on the command line (before the configuration
    fills the rest) that the chosen metric does not take."""
    others = [f for name in names() if name != chosen.name for f in declared(name).flags
              if f not in chosen.also]
    shared = [f for f in SHARED_FLAGS + WORK_FLAGS if f.dest not in chosen.shared]
    given = [next(n for n in f.names if n.startswith("--")) for f in others + shared
             if getattr(args, f.dest, f.default) != f.default]
    if args.beta is not None and "beta" not in chosen.shared:
        given.append("--beta")
    elif args.beta == 0 and chosen.name != "m2":
        raise UsageError(f"--beta 0 (F_0: precision alone) is taken by --metric m2 only, as "
                         f"the NUS scorer takes it; --metric {chosen.name} divides by beta: "
                         "read its precision instead")
    if given:
        raise UsageError(f"not available with --metric {chosen.name}: "
                         + ", ".join(dict.fromkeys(given)))


def _warn(message: str) -> None:
    print(f"m2lsp: {message}", file=sys.stderr)


def _progress(total: int) -> Any:
    from m2lsp.cli.progress import Ticker

    return Ticker(total)


# each command's files in their order, for a message about arguments given the wrong way
ORDERS = {"score": "SYSTEM GOLD", "compare": "SYSTEM_A SYSTEM_B GOLD",
          "report": "GOLD SYSTEM...", "explain": "SYSTEM GOLD"}


def request_of(args: argparse.Namespace, chosen: Chosen, system: Input,
               gold: Input | None) -> Request:
    command = getattr(args, "command", "score")
    metric = f" --metric {args.metric}" if args.metric else ""
    usage = f"m2lsp {command}{metric} {ORDERS[command]}"
    return Request(system, gold, chosen.shared, chosen.options, args.encoding, _warn,
                   _progress, usage)


def run_score(args: argparse.Namespace) -> int:
    if args.system.is_dir():  # (a file never is a table: its module not even loaded)
        from m2lsp.reporting.multigec_table import is_folder_table

        if is_folder_table(args.system):
            from m2lsp.cli import multigec_table

            return multigec_table.run(args, SHARED_FLAGS + WORK_FLAGS)
    if args.format == "csv":
        raise UsageError("--format csv is the table of a folder of MultiGEC hypotheses; "
                         f"{args.system} is not one (one system: text or json)")
    chosen = _configured(args, *(p for p in (args.system, args.gold) if p is not None))
    request = request_of(args, chosen, args.system, args.gold)
    score = chosen.metric.run(request)
    if args.bootstrap and score.sentence_stats() is None:
        raise UsageError(f"--bootstrap needs per-sentence statistics, which --metric "
                         f"{chosen.metric.name} does not have")
    if args.format == "json":
        import json

        sys.stdout.write(json.dumps(score.json(request), ensure_ascii=False, indent=1) + "\n")
        return EXIT_CLEAN
    out = score.text(request)
    if isinstance(out, bytes):
        sys.stdout.flush()
        sys.stdout.buffer.write(out)
    else:
        sys.stdout.write(out)
    signature = score.signature
    if signature not in (out.decode("utf-8", "replace") if isinstance(out, bytes) else out):
        # stdout is the reference tool's output byte for byte: the signature goes beside it
        sys.stdout.flush()
        print(f"m2lsp: signature: {signature}", file=sys.stderr)
    return EXIT_CLEAN


def run_compare(args: argparse.Namespace) -> int:
    from m2lsp.scoring.bootstrap import compare

    chosen = _configured(args, args.system_a, args.system_b, args.gold)
    if not chosen.metric.per_sentence:
        raise UsageError(f"--metric {chosen.metric.name} has no per-sentence statistics to "
                         f"compare (compare takes {', '.join(comparable())})")
    scores = _both(chosen, args)
    stats = [s.sentence_stats() for s in scores]
    found = compare(stats[0].rows, stats[1].rows, stats[0].aggregate, stats[0].main,
                    args.samples, args.seed, args.alternative)
    name = stats[0].names[stats[0].main]
    if args.format == "json":
        import json

        sys.stdout.write(json.dumps(comparison_data(found, name, args, chosen.metric.name,
                                                    scores[0].signature),
                                    ensure_ascii=False, indent=1) + "\n")
        return EXIT_CLEAN
    sys.stdout.write(comparison_text(found, name, args, stats[0].scale)
                     + f"{scores[0].signature}\n")
    return EXIT_CLEAN


def comparison_data(found: Any, name: str, args: argparse.Namespace, metric_name: str,
                    signature: str) -> dict[str, Any]:
    """`compare --format json`: what `m2lsp.compare()` returns, with the systems' paths."""
    return {"metric": metric_name, "name": name, "system_a": str(args.system_a),
            "system_b": str(args.system_b), "a": found.a, "b": found.b,
            "difference": found.a - found.b,
            "interval": [found.difference.low, found.difference.high],
            "p_bootstrap": found.p_value, "p_randomised": found.p_randomised,
            "samples": found.samples, "seed": found.seed, "alternative": found.alternative,
            "signature": signature}


HYPOTHESES = {"two-sided": "A and B differ", "greater": "A is better than B",
              "less": "A is worse than B"}
BOOTSTRAP_P = {
    "two-sided": "twice the share of resamples on the far side of 0 from the observed "
                 "difference",
    "greater": "the share of resamples in which A does not beat B",
    "less": "the share of resamples in which B does not beat A"}
RANDOMISED_P = {
    "two-sided": "how often swapping sentences between A and B gives a difference at least "
                 "as large in size",
    "greater": "how often swapping sentences gives A - B at least as large",
    "less": "how often swapping sentences gives A - B at least as small"}


def comparison_text(found: Any, name: str, args: argparse.Namespace, scale: float = 1.0
                    ) -> str:
    """What `compare` prints: both scores (times `scale`, as `score` prints them), the
    difference with its interval, and the two p-values, each saying which alternative it
    tests and how it was counted."""
    side, k = found.alternative, scale
    return (f"A: {args.system_a}  {name} = {k * found.a:.4f}\n"
            f"B: {args.system_b}  {name} = {k * found.b:.4f}\n"
            f"A - B = {k * (found.a - found.b):+.4f}, 95% interval "
            f"[{k * found.difference.low:+.4f}, {k * found.difference.high:+.4f}] (paired "
            f"bootstrap percentiles)\n"
            f"alternative: {side} ({HYPOTHESES[side]})\n"
            f"{p_value(found.p_value, found.samples)} ({side}, paired bootstrap, "
            f"{found.samples} resamples of sentences, seed {found.seed}: "
            f"{BOOTSTRAP_P[side]})\n"
            f"{p_value(found.p_randomised, found.samples)} ({side}, paired approximate "
            f"randomisation, "
            f"{found.samples} shuffles, seed {found.seed}: {RANDOMISED_P[side]})\n")


def p_value(p: float, samples: int = 10_000) -> str:
    """`p = 0.031`, to the decimals `samples` resamples resolve (1,000: three); a p-value
    that rounds to 0 there is `p < 0.001`, not `p = 0.000`."""
    from m2lsp.scoring.bootstrap import p_text

    text = p_text(p, samples)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def _both(chosen: Chosen, args: argparse.Namespace) -> Sequence[Any]:
    """Both systems' scores (the M2 gold read once)."""
    return chosen.metric.run_many(request_of(args, chosen, args.system_a, args.gold),
                                  [args.system_a, args.system_b])


def score_files(system_path: Path, gold_path: Path, settings: Any,
                loudness: Loudness | None = None, encoding: str | None = None,
                usage: str = "m2scorer [OPTIONS] SYSTEM GOLD") -> str:
    """The NUS scorer's output for one system (summary, or with -v the full report);
    `usage`: the command that asked, for a message about arguments in the wrong order."""
    from m2lsp.scoring.m2.maxmatch import choose, corpus_score
    from m2lsp.scoring.m2.metric import Scoring
    from m2lsp.scoring.m2.report import Reprs, summary, verbose

    job = Scoring(settings, encoding, usage=usage)
    results = job.results(system_path, gold_path)
    if loudness is not None and loudness.verbose:
        reprs = Reprs(True, job.texts[gold_path].split("\n")) if loudness.python2 else Reprs()
        return verbose(results, settings, reprs=reprs)[0]
    _, total = choose(results, settings.beta)
    return summary(corpus_score(total, settings))


@dataclass(frozen=True)
class Loudness:
    """What the drop-in prints beyond the summary: -v's report, in Python 2.7's reprs with
    `--python2`; `very`: --very_verbose was asked for (m2lsp prints -v's report then)."""

    verbose: bool = False
    python2: bool = False
    very: bool = False


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
# said after the usage: m2lsp's own options, and what differs from 3.2
OWN_OPTIONS = """m2lsp's own:
        --python2                   -  with -v, print 3.2's bytes under Python 2.7 (u'' strings, 12-digit floats)
        --max_lattice_memory MIB    -  stop on a sentence whose edit lattice needs more than MIB MiB
        --very_verbose prints what -v prints: 3.2's matrices and graphs are not reproduced
"""  # noqa: E501
VERY_VERBOSE_NOTE = ("m2scorer: note: --very_verbose prints what -v prints; release 3.2's "
                     "edit matrices, graphs and weights are not reproduced (`m2lsp score "
                     "--very-verbose` prints each sentence's lattice in m2lsp's own format)")


def m2scorer_main(argv: Sequence[str] | None = None) -> int:
    """`m2scorer [OPTIONS] SYSTEM GOLD`, with the NUS scorer's flags, output and exit codes
    (an unknown option or a wrong argument count prints its usage and exits with 255)."""
    import gc

    gc.disable()
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        opts, args = getopt.getopt(argv, "v", ["max_unchanged_words=", "beta=", "verbose",
                                               "ignore_whitespace_casing", "very_verbose",
                                               "max_lattice_memory=", "python2"])
        settings, loudness = _m2scorer_options(opts)
    except (getopt.GetoptError, UsageError, ValueError) as exc:
        print(exc, file=sys.stderr)
        sys.stderr.write(USAGE + OWN_OPTIONS)
        return 255
    if len(args) != 2:
        sys.stderr.write(USAGE + OWN_OPTIONS)
        return 255
    if loudness.very:
        print(VERY_VERBOSE_NOTE, file=sys.stderr)
    try:
        sys.stdout.write(score_files(Path(args[0]), Path(args[1]), settings, loudness))
    except M2lspError as exc:
        message = str(exc).replace("--max-lattice-memory", "--max_lattice_memory")
        print(f"m2scorer: error: {message}", file=sys.stderr)
        return EXIT_ERROR
    return EXIT_CLEAN


def _m2scorer_options(opts: list[tuple[str, str]]) -> tuple[Any, Loudness]:
    from m2lsp.scoring.m2.maxmatch import M2Settings

    max_unchanged, beta, ignore = defaults.MAX_UNCHANGED_WORDS, defaults.BETA, False
    loud = very = python2 = False
    memory = M2Settings.max_lattice_memory
    for option, value in opts:
        if option in ("-v", "--verbose"):
            loud = True
        elif option == "--very_verbose":
            loud = very = True
        elif option == "--python2":
            python2 = True
        elif option == "--max_unchanged_words":
            max_unchanged = int(arguments.converter(arguments.UNCHANGED_WORDS)(value))
        elif option == "--beta":
            beta = arguments.converter(arguments.BETA_OR_ZERO)(value)
        elif option == "--ignore_whitespace_casing":
            ignore = True
        elif option == "--max_lattice_memory":  # m2lsp's own: the bound on one lattice
            memory = int(arguments.converter(arguments.MEBIBYTES)(value))
    if python2 and not loud:
        raise UsageError("--python2 changes what -v prints: give -v too")
    return M2Settings(max_unchanged, beta, ignore, memory), Loudness(loud, python2, very)

