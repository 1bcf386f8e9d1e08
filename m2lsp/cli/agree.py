"""`m2lsp agree`: how well the annotators of one M2 file agree (see m2lsp.agreement)."""

from __future__ import annotations

import argparse
import json
import sys
from itertools import combinations
from pathlib import Path
from typing import Any

import m2lsp.arguments as arguments
import m2lsp.defaults as defaults
from m2lsp.cli.exits import EXIT_CLEAN, EXIT_ERROR
from m2lsp.cli.inputs import read_text
from m2lsp.errors import UsageError
from m2lsp.formats.m2.annotators import annotators
from m2lsp.scoring.metric import agreeing

MOST_PAIRS = 10  # `--pairs auto` prints every pair up to this many (five annotators)


def add_commands(commands: argparse._SubParsersAction) -> None:
    agree = commands.add_parser(
        "agree", help="how well the annotators of an M2 file agree",
        description="Score each pair of annotators of GOLD against each other, both ways "
        "(F-beta, as Bryant and Ng 2015 measure agreement), with Cohen's kappa on whether "
        "each sentence needs a correction and the edits of each type they share.")
    agree.add_argument("gold", nargs="+", help="an M2 file with two or more annotators, or "
                       "several M2 files of the same sentences, each file one annotator (0, "
                       "1, ... in the order given)")
    agree.add_argument("--metric", choices=agreeing(), default="m2",
                       help="MaxMatch on one annotator's corrected sentences (default), or "
                       "errant_compare on both annotators' edits")
    agree.add_argument("--beta", type=arguments.BETA, default=defaults.BETA, help="F-beta (0.5)")
    agree.add_argument("--disagreements", action="store_true",
                       help="list each sentence where the annotators' edit sets differ (its "
                       "number and line) and the edits each has that another lacks, "
                       "instead of the agreement")
    agree.add_argument("--pairs", choices=("auto", "all", "summary"), default="auto",
                       help="every pair of annotators (all), or one row per annotator "
                       "(summary: the share of its edits another annotator made too); auto "
                       f"(default): every pair up to {MOST_PAIRS} pairs, else the summary")
    agree.add_argument("--annotators", metavar="A,B,...", help="compare only these "
                       "annotators (every pair of them)")
    agree.add_argument("--against", metavar="GOLD", type=Path,
                       help="score each annotator against GOLD (a curated gold of the same "
                       "sentences, one annotator) instead of against each other")
    agree.add_argument("--format", choices=("text", "json"), default="text")
    agree.add_argument("--encoding", default=None, help="the file's encoding (detected)")
    agree.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from m2lsp.agreement import agreement, agreement_data

    document = _document(args)
    if args.disagreements:
        return _disagreements(args, document)
    if args.against is not None:
        return _against(args, document)
    everyone = annotators(document)
    if len(everyone) < 2:
        print(f"m2lsp agree: {_why_not(args.gold[0], document, everyone)}", file=sys.stderr)
        return EXIT_ERROR
    chosen = _chosen(args, everyone)
    pairs = list(combinations(chosen, 2))
    if args.pairs == "summary" or (args.pairs == "auto" and len(pairs) > MOST_PAIRS
                                   and args.annotators is None):
        return _summary(args, document)
    found = agreement(document, args.metric, args.beta, pairs)
    if args.format == "json":
        print(json.dumps(agreement_data(found), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(agreement_text(found))
    return EXIT_CLEAN


def _chosen(args: argparse.Namespace, everyone: list[str]) -> list[str]:
    """The annotators `--annotators` names (all of them without it)."""
    if args.annotators is None:
        return everyone
    chosen = [a.strip() for a in args.annotators.split(",") if a.strip()]
    unknown = [a for a in chosen if a not in everyone]
    if unknown:
        raise UsageError(f"--annotators: {', '.join(unknown)} is no annotator of the file "
                         f"(they are {_listed(everyone)})")
    if len(chosen) < 2:
        raise UsageError(f"--annotators needs two or more of the file's annotators ("
                         f"{_listed(everyone)})")
    return chosen


def _listed(everyone: list[str]) -> str:
    return ", ".join(everyone[:10]) + (f", ... ({len(everyone)} in all)"
                                       if len(everyone) > 10 else "")


def _summary(args: argparse.Namespace, document: Any) -> int:
    from m2lsp.agreement import summary, summary_data

    found = summary(document)
    if args.format == "json":
        print(json.dumps(summary_data(found), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(summary_text(found))
    return EXIT_CLEAN


def summary_text(found: Any) -> str:
    """One line per annotator: linear in the annotators, whatever the pairs."""
    overall = "none" if found.agreement is None else f"{found.agreement:.4f}"
    lines = [f"Agreement of {len(found.annotators)} annotators on {found.sentences} "
             f"sentences: {found.pairs} pairs, summarised (--pairs all prints every pair, "
             "--annotators A,B some)",
             f"  edits another annotator of the sentence made too: {overall}",
             f"  {'annotator':<10} {'sentences':>9} {'shared':>7} {'edits':>6} "
             f"{'matched':>7}  agreement"]
    for r in found.rows:
        share = "-" if r.agreement is None else f"{r.agreement:.4f}"
        lines.append(f"  {r.annotator:<10} {r.sentences:>9} {r.shared:>7} {r.edits:>6} "
                     f"{r.matched:>7}  {share}")
    return "\n".join(lines) + "\n"


def _against(args: argparse.Namespace, document: Any) -> int:
    """`--against GOLD`: each annotator of the files scored against the gold."""
    from m2lsp.agreement import GOLD_ID, agreement, agreement_data, with_gold
    from m2lsp.parsing.m2 import parse_m2
    from m2lsp.parsing.source import SourceText

    gold = _one(args.against, args.encoding)
    everyone = annotators(document)
    if not everyone:
        raise UsageError(f"{args.gold[0]} has no annotator (no A line) to score")
    if GOLD_ID in everyone:
        raise UsageError(f"an annotator is named {GOLD_ID!r}, the name --against gives GOLD")
    try:
        both = parse_m2(SourceText(with_gold(document, gold, str(args.against))))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    _unfinished(args.against)
    chosen = _chosen(args, everyone) if args.annotators else everyone
    found = agreement(both, args.metric, args.beta, [(a, GOLD_ID) for a in chosen])
    if args.format == "json":
        print(json.dumps(agreement_data(found), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(agreement_text(found).replace(
            f"Agreement of {len(found.annotators)} annotators",
            f"Agreement of {len(chosen)} annotators with {args.against}", 1))
    return EXIT_CLEAN


def _unfinished(gold: Path) -> None:
    """A warning when GOLD is a curation with sentences still to decide."""
    from m2lsp.files.curation import is_curated, unfinished

    if is_curated(gold):
        left = unfinished(gold)
        if left:
            print(f"m2lsp agree: warning: {gold} is an unfinished curation ({left} "
                  "sentences still to decide): its noops there are no decision",
                  file=sys.stderr)


def _one(path: Path, encoding: str | None) -> Any:
    from m2lsp.parsing.m2 import parse_m2

    text = read_text(path, "gold", encoding)
    if text.text.strip() and not _has_sentences(text.text):
        raise UsageError(f"{path} is not an M2 file")
    return parse_m2(text)


def _document(args: argparse.Namespace) -> Any:
    """The one file, or the files merged (each one annotator)."""
    from m2lsp.agreement import merged
    from m2lsp.parsing.m2 import parse_m2
    from m2lsp.parsing.source import SourceText

    documents = []
    for name in args.gold:
        text = read_text(Path(name), "gold", args.encoding)
        if text.text.strip() and not _has_sentences(text.text):
            raise UsageError(f"{name} is not an M2 file (it reads as one sentence a line, "
                             "like a system output): agree compares the annotators of M2 "
                             "gold")
        documents.append((name, parse_m2(text)))
    if len(documents) == 1:
        return documents[0][1]
    try:
        return parse_m2(SourceText(merged(documents)))
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _disagreements(args: argparse.Namespace, document: Any) -> int:
    """`--disagreements`: every sentence where the annotators' edit sets differ."""
    from m2lsp.authoring.disagreements import annotators_of, disagreements

    everyone = annotators_of(document)
    if len(everyone) < 2:
        print(f"m2lsp agree: {args.gold[0]} has {len(everyone)} annotator(s): disagreements "
              "need two or more", file=sys.stderr)
        return EXIT_ERROR
    found = disagreements(document)
    name = args.gold[0] if len(args.gold) == 1 else "the merged files"
    if args.format == "json":
        print(json.dumps({"gold": name, "annotators": everyone,
                          "sentences": sum(1 for b in document.blocks if b.sentence),
                          "disagreements": [d.to_dict() for d in found]},
                         indent=2, ensure_ascii=False))
        return EXIT_CLEAN
    for d in found:
        print(f"{name}:{d.line + 1}: sentence {d.sentence}: {d.text}")
        for annotator, edits in d.only.items():
            shown = "; ".join(_edit_text(e) for e in edits) or "(none the others lack)"
            print(f"  annotator {annotator} only: {shown}")
    print(f"{len(found)} of {sum(1 for b in document.blocks if b.sentence)} sentences "
          f"disagree (annotators {', '.join(everyone)})")
    return EXIT_CLEAN


def _edit_text(edit: Any) -> str:
    corrections = " || ".join(c or "-NONE-" for c in edit.canonical)
    return f"{edit.start} {edit.end} {edit.type.strip()} -> {corrections}"


def _has_sentences(text: str) -> bool:
    """An M2 file has S lines (a file of them alone is M2 without edits)."""
    return any(line.startswith("S ") for line in text.splitlines()[:1000])


def _why_not(name: str, document: Any, everyone: list[str]) -> str:
    if not any(b.sentence is not None for b in document.blocks):
        return f"{name} has no sentence: there is nothing to compare"
    if not any(b.edits for b in document.blocks):
        return f"{name} has no edit line, so no annotator: agreement needs two or more"
    return (f"{name} has one annotator ({everyone[0]}): agreement needs two or more "
            "(or give one file per annotator: m2lsp agree A.m2 B.m2)")


def agreement_text(found: Any) -> str:
    lines = [f"Agreement of {len(found.annotators)} annotators ({found.metric.upper()}, "
             f"F{found.beta:g})"]
    for pair in found.pairs:
        lines.extend(_pair_text(pair, found.beta))
    return "\n".join(lines) + "\n"


def _pair_text(pair: Any, beta: float) -> list[str]:
    left = f", {pair.left_out} left out (edits that cannot be applied)" if pair.left_out else ""
    lines = ["", f"Annotators {pair.first} and {pair.second}: {pair.sentences} sentences{left}"]
    for d in (pair.forward, pair.backward):
        lines.append(f"  {d.scored} against {d.gold}: P {d.precision:.4f}  R {d.recall:.4f}  "
                     f"F{beta:g} {d.f:.4f}  (TP {d.tp}, FP {d.fp}, FN {d.fn})")
    lines.append(f"  mean F{beta:g}: {pair.mean_f:.4f}")
    lines.extend(_kappa_text(pair))
    lines.extend(_types_text(pair))
    return lines


def _kappa_text(pair: Any) -> list[str]:
    k = pair.needs_correction
    kappa = "undefined (one answer only)" if k.kappa is None else f"{k.kappa:.4f}"
    return [f"  needs a correction: both {k.both}, only {pair.first} {k.first_only}, only "
            f"{pair.second} {k.second_only}, neither {k.neither}; agree on "
            f"{k.observed:.4f}, Cohen's kappa {kappa}"]


def _types_text(pair: Any) -> list[str]:
    if not pair.types:
        return []
    first, second = f"by {pair.first}", f"by {pair.second}"
    width = max(8, *(len(t.type) for t in pair.types))
    rows = [f"  {'type':<{width}}  {first:>8}  {second:>8}  {'shared':>13}  agreement"]
    for t in pair.types:
        shared = f"{t.first_shared}/{t.second_shared}"
        rows.append(f"  {t.type:<{width}}  {t.first:>8}  {t.second:>8}  {shared:>13}  "
                    f"{t.agreement:.4f}")
    return rows
