"""`m2lsp audit SYSTEM [GOLD] --metric M`: the attacks of Goto et al. (2025) on a metric
(m2lsp.audit), each attacked output's score against the system's own; exit 1 when one
climbs above it."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from m2lsp.cli.exits import EXIT_CLEAN, EXIT_FINDINGS


def add_commands(commands: argparse._SubParsersAction) -> None:
    from m2lsp.audit.attacks import ATTACKS
    from m2lsp.cli.metric_help import add_help, add_metric_groups
    from m2lsp.scoring.metric import declared, names

    command = commands.add_parser(
        "audit", help="how far outputs made to game a metric climb above a system's own",
        add_help=False, usage="%(prog)s SYSTEM [GOLD] --metric NAME [--source SRC] "
        "[--attack NAME ...] [options]",
        description="Score a system's output and outputs made only to please the metric "
        "(Goto et al. 2025, 'Reliability Crisis of Reference-free Metrics for GEC'): "
        "injection (an instruction to an LLM judge as every hypothesis), best-sentence (the "
        "corpus correction the metric rates best, for every sentence: --audit-corpus), "
        "mask-fill (Scribendi: a masked LM's filling its LM prefers: --audit-mask-model), "
        "neighbour (IMPARA: the nearest corpus corrections it rates best: --audit-corpus "
        "--audit-encoder). "
        "Prints each attack's score and how far it climbs above the system's; exit 1 when "
        "one does.")
    add_help(command)
    command.add_argument("system", type=Path, help="the system's output, one sentence a line")
    command.add_argument("gold", type=Path, nargs="?", help="an M2 gold (its S lines the "
                         "sources); a reference-free metric takes --source instead")
    command.add_argument("--metric", required=True, choices=names(), metavar="NAME",
                         help=f"the metric audited ({', '.join(names())})")
    command.add_argument("--source", type=Path, metavar="FILE",
                         help="the source sentences, one a line")
    command.add_argument("--attack", action="append", default=[], choices=ATTACKS,
                         help="an attack (repeatable; default: injection, and those whose "
                         "inputs are given)")
    command.add_argument("--audit-corpus", type=Path, metavar="M2", help="best-sentence: "
                         "the corrections to pick from, an M2 file (its first annotator's)")
    command.add_argument("--audit-mask-model", metavar="MODEL", help="mask-fill: the "
                         "masked LM, a hub id or a folder (default google-bert/"
                         "bert-base-cased, the attack's)")
    command.add_argument("--audit-encoder", metavar="MODEL", help="neighbour: the sentence "
                         "encoder, a hub id or a folder (default bert-base-cased, the "
                         "attack's; mean of its last hidden state)")
    command.add_argument("--audit-no-cuda", action="store_true",
                         help="mask-fill, neighbour: their models on the CPU")
    command.add_argument("--beta", type=float, default=None, metavar="B",
                         help="the metric's beta, where it has one")
    command.add_argument("--format", choices=["text", "json"], default="text")
    add_metric_groups(command, [declared(n) for n in names()])
    command.set_defaults(handler=run, command="audit")


def run(args: argparse.Namespace) -> int:
    from m2lsp.audit.run import AuditRequest, audit

    request = AuditRequest(args.system, args.metric, args.gold, args.source,
                           tuple(args.attack), args.audit_corpus, args.audit_mask_model,
                           args.audit_no_cuda, args.audit_encoder, _options(args))
    found = audit(request)
    if args.format == "json":
        print(json.dumps(as_dict(found), indent=1, ensure_ascii=False, allow_nan=False))
    else:
        sys.stdout.write(as_text(found))
    return EXIT_FINDINGS if found.climbed else EXIT_CLEAN


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The audited metric's options given on the command line, by their dest."""
    from m2lsp.scoring.metric import declared

    chosen = declared(args.metric)
    flags = [*chosen.flags, *chosen.also]
    given = {f.dest: getattr(args, f.dest) for f in flags
             if hasattr(args, f.dest) and getattr(args, f.dest) != f.default}
    if args.beta is not None:
        given["beta"] = args.beta
    return given


def as_dict(found: Any) -> dict[str, Any]:
    return {"metric": found.metric, "signature": found.signature, "honest": found.honest,
            "attacks": [{"attack": a.attack, "score": a.score, "difference": a.difference,
                         "sentences_higher": a.higher, "sentences": a.sentences,
                         "examples": list(a.examples)} for a in found.attacks],
            "climbed": [a.attack for a in found.climbed]}


def as_text(found: Any) -> str:
    lines = [f"{'system':<14} {found.honest:.4f}"]
    for a in found.attacks:
        verdict = "climbs above the system" if a.difference > 0 else "does not climb above it"
        share = ("" if a.higher is None else
                 f"; {a.higher} of {a.sentences} sentences above the system's")
        lines.append(f"{a.attack:<14} {a.score:.4f}  {a.difference:+.4f}  {verdict}{share}")
    return "\n".join(lines) + f"\n\n{found.signature}\n"
