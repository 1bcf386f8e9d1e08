"""`m2lsp curate`: a curated gold apart from the annotators' files (see m2lsp.curation).

    m2lsp curate A.m2 B.m2 -o gold.m2          start a curation, or continue it
    m2lsp curate gold.m2 --status              what is decided, open, and by which rule
    m2lsp curate gold.m2 --sentence 3 --take 1 a decision (also --accept, --reject, --edit,
                                               --correct, --done, --reopen)
    m2lsp curate gold.m2 --accept-agreed       every edit all annotators made, accepted

Every run rebuilds gold.m2 from the annotators' files and the decision log beside it
(gold.m2.curation.jsonl); the annotators' files are only read."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from m2lsp.cli.exits import EXIT_CLEAN, EXIT_FINDINGS
from m2lsp.errors import UsageError

DECISIONS = ("take", "accept", "reject", "edit", "correct", "done", "reopen")


def add_commands(commands: argparse._SubParsersAction) -> None:
    curate = commands.add_parser(
        "curate", help="curate annotators' M2 files into a gold of its own",
        description="Start or continue a curation: GOLD (-o) holds, for each sentence, "
        "the edits every annotator agrees on (auto-merged) or the curator's decision; the "
        "decisions are appended to GOLD.curation.jsonl. The annotators' files are never "
        "written. Given only GOLD, the inputs are those the log names.")
    curate.add_argument("files", nargs="*", type=Path, help="the annotators' M2 files (numbered "
                        "as m2lsp merge numbers them: one annotator a file, annotator k is "
                        "the k-th file) or one merged file; or only the gold, to continue")
    curate.add_argument("-o", "--output", type=Path, metavar="GOLD",
                        help="the curated gold to write (its log beside it)")
    curate.add_argument("--status", action="store_true",
                        help="print each sentence's state and rule, write nothing (exit 1 "
                        "while sentences are unfinished)")
    curate.add_argument("--sentence", metavar="N", help="the sentence a decision is on: its "
                        "number (1-based) or its key")
    curate.add_argument("--take", metavar="ANNOTATOR", help="the gold takes this "
                        "annotator's edits for the sentence (decided)")
    curate.add_argument("--accept", metavar="EDIT", help="accept an annotator's edit "
                        "`START END|||TYPE|||CORRECTION`, replacing any it competes with")
    curate.add_argument("--from", dest="source", metavar="ANNOTATOR",
                        help="with --accept: whose edit (default: whoever made it)")
    curate.add_argument("--reject", metavar="EDIT", help="remove an edit from the gold")
    curate.add_argument("--edit", metavar="EDIT", help="add the curator's own edit")
    curate.add_argument("--correct", action="store_true",
                        help="the sentence needs no edit (decided)")
    curate.add_argument("--done", action="store_true",
                        help="the sentence is decided with the edits the gold holds")
    curate.add_argument("--reopen", action="store_true",
                        help="forget the decisions on the sentence")
    curate.add_argument("--accept-agreed", action="store_true",
                        help="in every unfinished sentence, accept the edits all annotators "
                        "made")
    curate.add_argument("--who", help="who decides (default: git's user.name, or $USER)")
    curate.add_argument("--format", choices=("text", "json"), default="text",
                        help="of --status")
    curate.add_argument("--encoding", default=None, help="the inputs' encoding (detected)")
    curate.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from m2lsp.files.curation import decide, open_curation

    gold = _gold(args)
    opened = open_curation(gold, args.files, args.encoding)
    if args.status:
        return _status(args, gold, opened.found)
    who, time = _who(args), _now()
    found = decide(opened, _requested(args, opened.found, who, time), who, time)
    print(f"m2lsp: wrote {gold}: {_summary(found)}", file=sys.stderr)
    return EXIT_CLEAN


def _gold(args: argparse.Namespace) -> Path:
    from m2lsp.files.curation import is_curated

    if args.output is not None:
        return args.output
    if len(args.files) == 1 and is_curated(args.files[0]):
        gold = args.files[0]
        args.files = []
        return gold
    raise UsageError("name the curated gold: m2lsp curate A.m2 B.m2 -o gold.m2 starts a "
                     "curation, m2lsp curate gold.m2 continues one")


def _requested(args: argparse.Namespace, found: Any, who: str, time: str) -> list[Any]:
    """The decisions the flags ask for (a UsageError for a mixture that makes no sense)."""
    from m2lsp.curation.requests import accept_agreed, requested

    chosen = [name for name in DECISIONS if getattr(args, name)]
    if args.source is not None and args.accept is None:
        raise UsageError("--from goes with --accept")
    if args.accept_agreed:
        if chosen or args.sentence:
            raise UsageError("--accept-agreed takes no --sentence nor another decision")
        return accept_agreed(found, who, time)
    if not chosen:
        if args.sentence:
            raise UsageError("--sentence needs a decision: --take, --accept, --reject, "
                             "--edit, --correct, --done or --reopen")
        return []
    if len(chosen) > 1:
        raise UsageError(f"one decision a run: --{chosen[0]} and --{chosen[1]} were given")
    if not args.sentence:
        raise UsageError(f"--{chosen[0]} needs --sentence N (a number or a key)")
    value = getattr(args, chosen[0])
    return [requested(found, chosen[0], args.sentence, value if isinstance(value, str)
                      else None, args.source, who, time)]


def _who(args: argparse.Namespace) -> str:
    if args.who:
        return args.who
    try:
        name = subprocess.run(["git", "config", "user.name"], capture_output=True,
                              text=True, timeout=5, check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        name = ""
    return name or os.environ.get("USER") or "unknown"


def _now() -> str:
    from m2lsp.curation.record import now

    return now()


def _summary(found: Any) -> str:
    counts = found.counts()
    return (f"curated {found.curated} of {len(found.outcomes)} sentences (auto-merged "
            f"{counts['auto']}, decided {counts['decided']}, in progress "
            f"{counts['in progress']}, open {counts['open']})")


def _status(args: argparse.Namespace, gold: Path, found: Any) -> int:
    from m2lsp.curation.requests import status_data

    if args.format == "json":
        print(json.dumps(status_data(str(gold), found), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(status_text(gold, found))
    return EXIT_CLEAN if found.complete else EXIT_FINDINGS


def status_text(gold: Path, found: Any) -> str:
    lines = [f"{gold}: {_summary(found)}; annotators {', '.join(found.annotators)}"]
    for o in found.outcomes:
        lines.append(f"{o.number:>5} {o.key:<16} {o.state:<12} {o.rule}")
        if o.finished:
            continue
        for annotator, version in o.versions.items():
            shown = "(no line yet)" if version is None else \
                "; ".join(e.key for e in version) or "noop"
            lines.append(f"{'':>7}annotator {annotator}: {shown}")
        if o.state == "in progress":
            lines.append(f"{'':>7}gold: {'; '.join(e.key for e in o.edits) or 'noop'}")
    for d in found.unknown:
        lines.append(f"  a decision on a sentence the inputs no longer have: {d.line().strip()}")
    if not found.complete:
        lines.append(f"unfinished: {len(found.outcomes) - found.curated} sentences to "
                     "decide")
    return "\n".join(lines) + "\n"

