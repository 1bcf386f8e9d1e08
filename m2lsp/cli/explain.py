"""`m2lsp explain SYSTEM GOLD --metric M --attributor A`: each hypothesis edit's share of the
metric's sentence score (m2lsp.attribution), as text or JSON."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import m2lsp.arguments as arguments
import m2lsp.defaults as defaults
from m2lsp.attribution.attributors import ATTRIBUTORS, MAX_EXACT, SAMPLES
from m2lsp.cli.exits import EXIT_CLEAN

EXACT = arguments.Number(int, 0, 20)  # 2^20 sentences to score for one sentence at most


def add_commands(commands: argparse._SubParsersAction) -> None:
    from m2lsp.attribution.files import explainable
    from m2lsp.cli.score import WORK_FLAGS, _add_flags, _shared_options
    from m2lsp.scoring.metric import declared, names

    chosen = [n for n in names() if explainable(n)]
    command = commands.add_parser(
        "explain", help="each hypothesis edit's share of a sentence-level score",
        description="Attribute each sentence's score change M(S, H) - M(S, S) to the "
        "hypothesis's edits (ERRANT's, English), as gec-metrics' attributors do: add (each "
        "edit alone), sub (all edits but one), shapley (exact Shapley values; past "
        "--max-exact-edits edits, sampled), shapley-sampling (--samples orders of the "
        "edits). Prints the edits by error type and those that help and hurt most.")
    command.add_argument("system", type=Path, help="the system's output, one sentence a line")
    command.add_argument("gold", type=Path, nargs="?", help="the gold as the metric reads "
                         "it (an M2 file); a reference-free metric takes --source instead")
    command.add_argument("--metric", choices=chosen, default=None,
                         help=f"default: [tool.m2lsp] metric, else {defaults.METRIC}")
    command.add_argument("--attributor", choices=ATTRIBUTORS, default="add",
                         help="add (default), sub, shapley or shapley-sampling")
    command.add_argument("--samples", type=arguments.SAMPLES, default=SAMPLES,
                         help=f"sampled Shapley: orders per sentence (default {SAMPLES}; "
                         "all orders where there are no more)")
    command.add_argument("--max-exact-edits", type=EXACT, default=MAX_EXACT,
                         metavar="N", help="shapley: a sentence with more edits is "
                         f"attributed by sampled Shapley, and said (default {MAX_EXACT}: "
                         "exact Shapley scores 2^N sentences)")
    command.add_argument("--max-edits", type=arguments.SAMPLES, default=None, metavar="N",
                         help="leave out sentences with more edits (gec-metrics' "
                         "max_num_edits; default: none)")
    command.add_argument("--seed", type=arguments.SEED, default=12345,
                         help="sampled Shapley's seed (default 12345)")
    command.add_argument("--top", type=arguments.SAMPLES, default=10,
                         help="how many of the most helpful and harmful edits (default 10)")
    command.add_argument("--sentence-level", "--sent", action="store_true",
                         dest="sentence_level", help="also print every sentence's edits")
    command.add_argument("--format", choices=["text", "json"], default="text")
    _shared_options(command)
    for flag in WORK_FLAGS:
        command.add_argument(*flag.names, help=flag.help, **flag.spec)
    for name in chosen:
        _add_flags(command, declared(name))
    command.set_defaults(handler=run, command="explain")


def run(args: argparse.Namespace) -> int:
    from m2lsp.attribution import render
    from m2lsp.attribution.attributors import Bounds
    from m2lsp.attribution.files import explain_file
    from m2lsp.attribution.run import Settings, switched
    from m2lsp.attribution.variants import Scoring
    from m2lsp.cli.inputs import read_in
    from m2lsp.cli.score import _configured
    from m2lsp.config import config_for

    spacy_model = args.spacy_model  # ERRANT's pipeline for the edits, whatever the metric
    takes_it = (args.metric or config_for([args.system]).score.metric) in (
        "errant", "gotoscorer", "pt-errant")
    if not takes_it:
        args.spacy_model = None
    chosen = _configured(args, *(p for p in (args.system, args.gold) if p is not None))
    config = config_for([args.system], args.config).score
    system = read_in(args.system, "system", args.encoding)  # once: the core takes texts
    gold = None if args.gold is None else read_in(args.gold, "gold", args.encoding)
    scoring = Scoring(chosen.metric, vars(args), config, chosen.shared, gold, args.encoding)
    settings = Settings(args.attributor, args.seed, Bounds(args.samples, args.max_exact_edits),
                        args.max_edits)
    metric = f" --metric {args.metric}" if args.metric else ""
    found = explain_file(scoring, system, settings, spacy_model,
                         f"m2lsp explain{metric} SYSTEM GOLD")
    _say_switched(switched(found), args)
    if args.format == "json":
        import json

        sys.stdout.write(json.dumps(render.data(found, str(args.system), args.top),
                                    ensure_ascii=False, indent=1, allow_nan=False) + "\n")
    else:
        sys.stdout.write(render.text(found, str(args.system), args.sentence_level, args.top))
    return EXIT_CLEAN


def _say_switched(sentences: list, args: argparse.Namespace) -> None:
    if sentences:
        shown = ", ".join(str(s.index + 1) for s in sentences[:5])
        more = ", ..." if len(sentences) > 5 else ""
        print(f"m2lsp: note: {len(sentences)} sentence(s) ({shown}{more}) have more than "
              f"--max-exact-edits {args.max_exact_edits} edits: exact Shapley would score "
              f"2^n sentences each; they were attributed by sampled Shapley (--samples "
              f"{args.samples}, --seed {args.seed})", file=sys.stderr)
