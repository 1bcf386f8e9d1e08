"""`m2lsp report GOLD SYS1 SYS2 ...`: many systems scored with one metric, on one HTML page
or as paper tables (see m2lsp.reporting)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import m2lsp.arguments as arguments
import m2lsp.defaults as defaults
from m2lsp.attribution.attributors import ATTRIBUTORS
from m2lsp.cli.exits import EXIT_CLEAN
from m2lsp.errors import UsageError
from m2lsp.reporting import FORMATS, naming, rendered
from m2lsp.scoring.metric import declared, names


def add_commands(commands: argparse._SubParsersAction) -> None:
    from m2lsp.cli.score import WORK_FLAGS, _add_flags, _shared_options

    report = commands.add_parser(
        "report", help="many systems on one page (HTML) or in paper tables",
        description="Score every system against GOLD with one metric and write one offline "
        "HTML page (leaderboard with 95% bootstrap intervals and cluster ranks, paired "
        "bootstrap and approximate randomisation tests of every pair with Holm's "
        "correction, per-type heatmaps, precision-recall plot, every sentence with each "
        "system's edits), or the tables for a paper. The page needs the extra "
        "m2lsp[report] (Jinja2, matplotlib). With GOLD a folder of MultiGEC-2025 orig and "
        "refN files and each system a folder of its hypotheses: the shared task's tables "
        "(GLEU, ERRANT P, R, F0.5), one per language, corpus and track, systems ranked.")
    report.add_argument("gold", type=Path, help="the gold (as the metric reads it)")
    report.add_argument("systems", type=Path, nargs="+", help="the systems' outputs")
    report.add_argument("--metric", choices=names(), default=None,
                        help=f"default: [tool.m2lsp] metric, else {defaults.METRIC}")
    report.add_argument("--names", help="the systems' names, comma separated (default: "
                        "their file names without an extension)")
    report.add_argument("--format", choices=FORMATS, default="html",
                        help="html (default), md (GitHub), latex (booktabs), csv, or json "
                        "(the data the page is drawn from)")
    report.add_argument("-o", "--output", type=Path, help="where to write (default: "
                        "report.html for html, else standard output)")
    report.add_argument("--title", help="the page's title")
    report.add_argument("--meta-eval", choices=("seeda", "gjg15"), metavar="DATASET",
                        help="also meta-evaluate the metric on SEEDA or GJG15 (m2lsp "
                        "meta-eval's default system set): its correlations and a scatter "
                        "plot per human score on the HTML page, its tables after the md or "
                        "latex table, all of it in the JSON")
    report.add_argument("--meta-eval-data", type=Path, metavar="DIR",
                        help="the folder holding seeda/ and gjg15/ (default: the setting "
                        "meta-eval-data, else $M2LSP_META_EVAL_DATA)")
    report.add_argument("--explain", choices=ATTRIBUTORS, metavar="ATTRIBUTOR",
                        help="also attribute each system's sentence scores to its edits "
                        "(add, sub, shapley, shapley-sampling; as m2lsp explain with its "
                        "defaults): the error types and edits that help and hurt most, "
                        "per system")
    report.add_argument("--samples", type=arguments.SAMPLES, default=1000,
                        help="bootstrap resamples and randomisation shuffles (default 1000)")
    report.add_argument("--seed", type=arguments.SEED, default=12345, help="seed (default 12345)")
    _shared_options(report)
    for flag in WORK_FLAGS:
        report.add_argument(*flag.names, help=flag.help, **flag.spec)
    for name in names():
        _add_flags(report, declared(name))
    report.set_defaults(handler=run, command="report")


def system_names(args: argparse.Namespace) -> list[str]:
    """`--names`, else what the report calls files (`reporting.naming`: the file names
    without an extension, else the shortest ends of the paths that tell them apart)."""
    if args.names is None:
        return naming.system_names(args.systems)
    given = [n.strip() for n in args.names.split(",")]
    if len(given) != len(args.systems) or not all(given):
        raise UsageError(f"--names gives {len(given)} names for {len(args.systems)} systems")
    if len(set(given)) != len(given):
        raise UsageError("--names: two systems have the same name; each needs its own")
    return given


def run(args: argparse.Namespace) -> int:
    from m2lsp.cli.inputs import input_paths
    from m2lsp.cli.progress import Stages
    from m2lsp.cli.score import _configured, request_of
    from m2lsp.files.writing import refuse_inputs
    from m2lsp.reporting.data import MAX_SENTENCES, build_report, report_json

    if len(args.systems) < 1:
        raise UsageError("give at least one system")
    if _multigec_folders(args):
        return _multigec(args)
    if (target := _target(args)) is not None:
        refuse_inputs(target, input_paths(args, "output"))
    chosen = _configured(args, args.gold, *args.systems)
    gold = _read_gold(args, chosen)
    request = request_of(args, chosen, args.systems[0], gold)
    stages = Stages(6 if args.explain else 5, what="m2lsp report")
    try:
        report = build_report(chosen.metric, request, args.systems, system_names(args),
                              args.samples, args.seed, stages)
        data = report_json(report, MAX_SENTENCES if args.format == "html" else None)
        meta = _meta_eval(args, chosen.metric.name) if args.meta_eval else None
        if meta is not None:
            from m2lsp.metaeval import render

            data["meta_eval"] = render.to_dict(meta)
        if args.explain:
            stages("attributing the systems' scores to their edits")
            data["attribution"] = _attribution(args, chosen, gold)
        stages(f"drawing the {args.format} page" if args.format == "html"
               else f"writing {args.format}")
        text = rendered(data, args.format, args.title) + _meta_eval_table(meta, args.format)
    finally:
        stages.done()
    _write(args, text)
    return EXIT_CLEAN


def _multigec_folders(args: argparse.Namespace) -> bool:
    """Whether GOLD is a folder and every system a folder of MultiGEC hypotheses."""
    from m2lsp.reporting.multigec_table import is_folder_table

    return args.gold.is_dir() and all(is_folder_table(s) for s in args.systems)


def _multigec(args: argparse.Namespace) -> int:
    """Each system's folder scored as MultiGEC-2025 did, one table per language, corpus and
    track (`m2lsp.reporting.multigec`)."""
    from m2lsp.cli.multigec_table import pipelines, refuse_options, warn
    from m2lsp.cli.progress import Stages
    from m2lsp.cli.score import SHARED_FLAGS, WORK_FLAGS
    from m2lsp.reporting import multigec as report
    from m2lsp.reporting import multigec_table as multigec

    refuse_options(args, SHARED_FLAGS + WORK_FLAGS)
    if args.meta_eval:
        raise UsageError("--meta-eval is for one metric's report, not a MultiGEC table")
    metrics = multigec.chosen(args.metric)
    found = [multigec.submissions(folder, args.gold) for folder in args.systems]
    settings = multigec.Settings(metrics, pipelines(args, [s for f in found for s in f]),
                                 args.encoding, args.jobs, warn)
    stages = Stages(len(found) + 1, what="m2lsp report")
    systems = []
    try:
        for name, submissions in zip(system_names(args), found, strict=True):
            stages(f"scoring {name}")
            systems.append((name, [multigec.scored(s, settings) for s in submissions]))
        stages(f"writing {args.format}")
        text = report.rendered(report.report_data(systems, metrics), args.format, args.title)
    finally:
        stages.done()
    _write(args, text)
    return EXIT_CLEAN


def _meta_eval(args: argparse.Namespace, metric: str) -> Any:
    """The report's metric meta-evaluated on --meta-eval's dataset (a MetaEvalResult)."""
    from m2lsp.config import config_for
    from m2lsp.metaeval.run import MetaEvalRequest
    from m2lsp.metaeval.run import run as meta_eval

    setting = config_for([args.gold]).score.meta_eval_data
    return meta_eval(MetaEvalRequest(args.meta_eval, args.meta_eval_data, metrics=(metric,),
                                     setting_data=setting))


def _read_gold(args: argparse.Namespace, chosen: Any) -> Any:
    """GOLD read once, here, where the metric's gold is M2: the scores, the page's gold
    corrections and the attribution take its text; another gold (CGED's truth) as its
    path, which its metric reads (and keeps any report file from writing over)."""
    from m2lsp.cli.inputs import read_in

    if chosen.metric.declaration.gold != "M2":
        return args.gold
    return read_in(args.gold, "gold", args.encoding)


def _attribution(args: argparse.Namespace, chosen: Any, gold: Any) -> dict[str, Any]:
    """Each system's edits by error type, and its most helpful and harmful edits, by the
    attributor --explain names (m2lsp.attribution)."""
    from m2lsp.attribution import render
    from m2lsp.attribution.files import explain_file, explainable
    from m2lsp.attribution.run import Settings
    from m2lsp.attribution.variants import Scoring
    from m2lsp.config import config_for

    if not explainable(chosen.metric.name):
        raise UsageError(f"--explain: --metric {chosen.metric.name} does not score each "
                         "sentence")
    config = config_for([args.gold], args.config).score
    scoring = Scoring(chosen.metric, vars(args), config, chosen.shared, gold, args.encoding)
    settings = Settings(args.explain, args.seed)
    systems, signature = [], ""
    for name, path in zip(system_names(args), args.systems, strict=True):
        found = explain_file(scoring, path, settings, getattr(args, "spacy_model", None))
        systems.append({"name": name, **render.summary(found, 5)})
        signature = found.signature
    totals: dict[str, float] = {}
    for system in systems:
        for name, row in system["types"].items():
            totals[name] = totals.get(name, 0.0) + row["total"]
    types = sorted(totals, key=lambda t: (-totals[t], t))
    return {"attributor": args.explain, "signature": signature, "types": types,
            "systems": systems}


def _meta_eval_table(meta: Any, format: str) -> str:
    """The meta-evaluation's tables after a paper table (md, latex); the page and the JSON
    carry it themselves."""
    if meta is None or format not in ("md", "latex"):
        return ""
    from m2lsp.metaeval import render

    return "\n" + (render.markdown(meta) if format == "md" else render.latex(meta))


def _target(args: argparse.Namespace) -> Path | None:
    return args.output or (Path("report.html") if args.format == "html" else None)


def _write(args: argparse.Namespace, text: str) -> None:
    from m2lsp.cli.inputs import input_paths
    from m2lsp.files.writing import write_atomic

    target = _target(args)
    if target is None:
        sys.stdout.write(text)
        return
    write_atomic(target, text, inputs=input_paths(args, "output"))  # a failure says itself
    print(f"m2lsp: wrote {target} ({len(text.encode('utf-8')) / 1e6:.1f} MB)", file=sys.stderr)
