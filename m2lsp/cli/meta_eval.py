"""`m2lsp meta-eval`: which metric agrees with people (see m2lsp.metaeval)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import m2lsp.arguments as arguments
from m2lsp.cli.exits import EXIT_CLEAN
from m2lsp.errors import UsageError
from m2lsp.scoring.metric import names

FORMATS = ("text", "json", "md", "latex")


def add_commands(commands: argparse._SubParsersAction) -> None:
    from m2lsp.cli.metric_help import add_help

    meta = commands.add_parser(
        "meta-eval", help="correlate metrics with human judgments (SEEDA, GJG15, RevisitCGEC, "
        "GMEG)",
        add_help=False, usage="%(prog)s [--dataset NAME] [--metric NAME ...] [--scores "
        "NAME=FILE ...] [options]",
        description="Meta-evaluate metrics against human judgments: system-level Pearson "
        "and Spearman against the human scores (SEEDA: Expected Wins and TrueSkill, "
        "edit- and sentence-based; GJG15: its Table 3; RevisitCGEC: Expected Wins and "
        "TrueSkill computed from its rankings as grammatical/evaluation's scripts compute "
        "them), sentence-level accuracy and "
        "Kendall's tau-like score against each pairwise human preference, as SEEDA's "
        "corr_system.py and corr_sentence.py compute them. Registry metrics are scored "
        "here; any other metric is given as score files.")
    add_help(meta)
    meta.add_argument("--dataset", choices=("seeda", "gjg15", "revisit-cgec", "gmeg"),
                      default="seeda", help="the human judgments (default seeda)")
    meta.add_argument("--data", type=Path, help="the folder holding seeda/ and gjg15/, or "
                      "RevisitCGEC's release with MuCGEC_dev.txt and "
                      "yaclc-minimal_dev.para (default: the setting meta-eval-data, else "
                      "$M2LSP_META_EVAL_DATA)")
    meta.add_argument("--systems", choices=("base", "+INPUT", "+REF-F_GPT-3.5", "all",
                                            "+source"),
                      help="SEEDA's system sets (default base, as its scripts); GJG15 and "
                      "RevisitCGEC: all; GMEG: base (its six systems) or +source")
    meta.add_argument("--domain", choices=("fce", "wiki", "yahoo"), default="fce",
                      help="GMEG: the domain (default fce; yahoo's text is given on "
                      "request)")
    meta.add_argument("--split", choices=("test", "dev"), default="test",
                      help="GMEG: the split (default test, as the paper's tables)")
    meta.add_argument("--synthetic", type=int, default=0, metavar="N",
                      help="GMEG: N synthetic systems more, each a seeded mix of a pair of "
                      "its systems' sentences, as the paper adds 674 (metrics with "
                      "per-sentence statistics)")
    meta.add_argument("--metric", action="append", default=[], choices=names(),
                      metavar="NAME", help="a registry metric to score the systems with "
                      f"(repeatable: {', '.join(names())})")
    meta.add_argument("--gold", type=Path, help="the CoNLL-2014 gold M2 the registry "
                      "metrics score against (default: conll2014/gold/ beside the data)")
    meta.add_argument("--scores", action="append", default=[], metavar="NAME=FILE",
                      help="a metric's system scores, SYSTEM<TAB>SCORE lines (repeatable)")
    meta.add_argument("--sentence-scores", action="append", default=[], metavar="NAME=DIR",
                      help="a metric's sentence scores, DIR/SYSTEM.txt with one score a "
                      "line in the order of the outputs (SEEDA's layout; repeatable)")
    meta.add_argument("--order", choices=("higher", "lower"), default="higher",
                      help="for the given scores: which way is better (default higher)")
    meta.add_argument("--judgments", type=Path, metavar="FILE", help="rankings in the "
                      "Appraise XML format: their Expected Wins become one more human "
                      "score; alone, the systems they rank are printed by Expected Wins")
    meta.add_argument("--trueskill-runs", type=arguments.SAMPLES, default=None, metavar="N",
                      help="with --judgments: also their TrueSkill (WMT's and GJG15's "
                      "settings, seeded by --seed), the mean of N runs; RevisitCGEC: its "
                      "TrueSkill's runs (default 100; its Makefile runs 1000) (needs "
                      "m2lsp[meta-eval]; a run over GJG15's judgments takes about 10 s, "
                      "over RevisitCGEC's 1 s)")
    meta.add_argument("--aggregation", choices=("default", "trueskill", "expected-wins"),
                      default="default", help="the system scores: the metric's own "
                      "(default), or its sentence scores turned into pairwise wins and "
                      "rated by TrueSkill or Expected Wins, as gec-metrics' rank_systems "
                      "(Goto et al. 2025; needs sentence scores, TrueSkill m2lsp[meta-eval])")
    meta.add_argument("--bootstrap", type=arguments.SAMPLES, default=0, metavar="N",
                      help="95%% intervals of each correlation from N resamples of the "
                      "sentences (registry metrics with per-sentence statistics)")
    meta.add_argument("--seed", type=arguments.SEED, default=12345,
                      help="bootstrap seed (default 12345)")
    meta.add_argument("--window", type=int, default=0, metavar="N",
                      help="also correlate over each N consecutive systems of the human "
                      "ranking (SEEDA's window analysis uses 4 to 8)")
    meta.add_argument("--no-sentence-level", action="store_true",
                      help="the system level only (an LLM judge's sentence level shows it "
                      "each human ranking's systems: on SEEDA 419 prompts more than the "
                      "391 of its system level)")
    meta.add_argument("--format", choices=FORMATS, default="text")
    meta.add_argument("--digits", type=arguments.DIGITS, default=4,
                      help="decimals of the tables (default 4; JSON has every digit)")
    _metric_options(meta)
    meta.set_defaults(handler=run, command="meta-eval")


# a metric's options that mean nothing here: the references come from the dataset's gold
NOT_HERE = {"gleu_references", "gleu_digits", "source"}


def _metric_options(parser: argparse.ArgumentParser) -> None:
    """--beta and --jobs for the metrics scored here, then each registry metric's own
    options (as `score` takes them) in a group of its own."""
    from m2lsp.cli.metric_help import add_metric_groups
    from m2lsp.scoring.metric import declared

    group = parser.add_argument_group("options of the --metric scored (as m2lsp score)")
    group.add_argument("--beta", type=arguments.BETA, default=None, metavar="B",
                       help="weight of recall in the F-score (default: [tool.m2lsp] beta, "
                       "else 0.5)")
    group.add_argument("--jobs", type=arguments.JOBS, default=None, metavar="N",
                       help="processes scoring or annotating")
    add_metric_groups(parser, [declared(name) for name in names()], skip=NOT_HERE)


def _given_options(args: argparse.Namespace) -> tuple[tuple[str, Any], ...]:
    """The metric options given on the command line (those left at their default are
    not: the configuration and the metric fill them)."""
    from m2lsp.scoring.metric import declared

    flags = {f.dest: f for name in names() for f in declared(name).flags
             if f.dest not in NOT_HERE}
    given = [(dest, getattr(args, dest)) for dest, flag in flags.items()
             if hasattr(args, dest) and getattr(args, dest) != flag.default]
    given += [(dest, getattr(args, dest)) for dest in ("beta", "jobs")
              if getattr(args, dest) is not None]
    return tuple(given)


def run(args: argparse.Namespace) -> int:
    from m2lsp.metaeval import render
    from m2lsp.metaeval.evaluate import Settings
    from m2lsp.metaeval.run import MetaEvalRequest, pairs, ranking
    from m2lsp.metaeval.run import run as meta_eval

    if args.judgments is not None and not (args.metric or args.scores
                                           or args.sentence_scores):
        return _ranking(ranking(args.judgments, args.trueskill_runs or 0, args.seed), args)
    if not (args.metric or args.scores or args.sentence_scores):
        raise UsageError("nothing to meta-evaluate: give --metric NAME, --scores NAME=FILE "
                         "or --sentence-scores NAME=DIR")
    if args.window < 0:
        raise UsageError("--window is a number of systems (0: none)")
    request = MetaEvalRequest(
        args.dataset, args.data, args.systems, tuple(args.metric), args.gold,
        pairs(args.scores, "--scores"), pairs(args.sentence_scores, "--sentence-scores"),
        args.order, args.judgments, args.trueskill_runs or 0,
        Settings(args.bootstrap, args.seed, args.window, not args.no_sentence_level),
        _setting(args),
        _given_options(args), _config(args).score, args.aggregation, args.domain, args.split,
        _synthetic(args.synthetic))
    found = meta_eval(request, progress=_progress, warn=_warn)
    if args.format == "json":
        print(json.dumps(render.to_dict(found), indent=1, ensure_ascii=False,
                         allow_nan=False))
    else:
        shown = {"text": render.text, "md": render.markdown, "latex": render.latex}
        sys.stdout.write(shown[args.format](found, args.digits))
    return EXIT_CLEAN


def _synthetic(count: int) -> int:
    if count < 0 or count > 100_000:
        raise UsageError(f"--synthetic is a number of systems from 0 to 100000, not {count}")
    return count


def _ranking(found: list[tuple[str, float, float | None]], args: argparse.Namespace) -> int:
    if args.format == "json":
        print(json.dumps([{"system": s, "expected_wins": v}
                          | ({"trueskill": t} if t is not None else {})
                          for s, v, t in found], indent=1, allow_nan=False))
    else:
        skill = any(t is not None for _, _, t in found)
        rows = [["rank", "system", "EW", *(["TrueSkill"] if skill else [])]] + [
            [str(rank), s, f"{v:.{args.digits}f}",
             *([f"{t:+.{args.digits}f}" if t is not None else "-"] if skill else [])]
            for rank, (s, v, t) in enumerate(found, 1)]
        widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
        sys.stdout.write("".join("  ".join(  # the system's name left, numbers right
            cell.ljust(w) if k == 1 else cell.rjust(w)
            for k, (cell, w) in enumerate(zip(r, widths, strict=True))).rstrip() + "\n"
            for r in rows))
    return EXIT_CLEAN


def _config(args: argparse.Namespace) -> Any:
    """[tool.m2lsp] of the nearest pyproject.toml (of the data, the gold, else here)."""
    from m2lsp.config import config_for

    return config_for([p for p in (args.data, args.gold) if p is not None])


def _setting(args: argparse.Namespace) -> str | None:
    return _config(args).score.meta_eval_data


def _progress(total: int) -> Any:
    from m2lsp.cli.progress import Ticker

    return Ticker(total, what="system")


def _warn(message: str) -> None:
    """Said once a run: the same note comes from each system scored (the `m2lsp` logger's
    handler of the command line keeps each distinct message once)."""
    from m2lsp.logs import logger

    logger(__name__).warning(message)
