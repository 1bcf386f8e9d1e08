"""The API's other jobs: `check` gold data, `agree` (the annotators of an M2 gold),
`compare` two systems, and `report` many."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import m2lsp.api.inputs as inputs
from m2lsp.api.inputs import counted
from m2lsp.api.scoring import Scorer
from m2lsp.errors import InputError, UsageError


def check(path_or_text: Any, *, format: str | None = None) -> list[Any]:
    """Every diagnostic `m2lsp check` finds (`diagnostic.Diagnostic`: code, message, span,
    severity, fix)."""
    from m2lsp.config import LintSettings
    from m2lsp.files.reading import read_bytes
    from m2lsp.linting.run import lint
    from m2lsp.model import Format
    from m2lsp.parsing.detect import detect_format
    from m2lsp.parsing.source import SourceText, decode

    formats = [f.value for f in Format]
    if format is not None and format not in formats:
        raise UsageError(f"format: one of {', '.join(formats)}, not {format!r}")
    value = inputs.checked(path_or_text, "the file")
    if inputs.is_path(value):
        path = inputs.readable(Path(value), "the file")
        try:
            source = decode(read_bytes(path))
        except OSError as exc:
            raise InputError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    else:
        path = Path("text")
        source = SourceText(inputs.text_of(value))
    fmt = Format(format) if format else detect_format(path, source.text) or Format.M2
    return list(lint(source, fmt, LintSettings()).diagnostics)


def agree(gold: Any, *, metric: str = "m2", beta: float = 0.5) -> Any:
    """How well the annotators of an M2 gold agree (`agreement.Agreement`), as
    `m2lsp agree` computes it."""
    import m2lsp.arguments as arguments
    from m2lsp.agreement import agreement
    from m2lsp.parsing.m2 import parse_m2
    from m2lsp.parsing.source import SourceText, Text
    from m2lsp.scoring.metric import agreeing

    if not isinstance(metric, str) or metric not in agreeing():
        raise UsageError(f"agree: metric {' or '.join(agreeing())}, not {metric!r}")
    weight = counted(arguments.BETA, "beta", beta)
    with inputs.files() as files:
        given = files.file(gold, "the gold")
        text = given.text if isinstance(given, Text) else given.read_text(encoding="utf-8")
        return agreement(parse_m2(SourceText(text)), metric, weight)


def compare(system_a: Any, system_b: Any, gold: Any, *, metric: str = "m2",
            samples: int = 1000, seed: int = 12345, alternative: str = "two-sided",
            **options: Any) -> dict[str, Any]:
    """`m2lsp compare`: both systems' main number, the difference with its 95% interval,
    and the paired bootstrap and approximate randomisation p-values."""
    import m2lsp.arguments as arguments
    import m2lsp.defaults as defaults
    from m2lsp.scoring.bootstrap import compare as paired

    if alternative not in defaults.ALTERNATIVES:
        raise UsageError(f"alternative: one of {', '.join(defaults.ALTERNATIVES)}")
    resamples = int(counted(arguments.SAMPLES, "samples", samples))
    chosen_seed = int(counted(arguments.SEED, "seed", seed))
    with Scorer(metric, gold=gold, **options) as scorer:
        a, b = scorer.score(system_a), scorer.score(system_b)
    stats = [s._score.sentence_stats() for s in (a, b)]
    if stats[0] is None or stats[1] is None:
        raise UsageError(f"{metric} has no per-sentence statistics to compare")
    found = paired(stats[0].rows, stats[1].rows, stats[0].aggregate, stats[0].main,
                   resamples, chosen_seed, alternative)
    return {"metric": metric, "name": stats[0].names[stats[0].main], "a": found.a,
            "b": found.b, "difference": found.a - found.b,
            "interval": [found.difference.low, found.difference.high],
            "p_bootstrap": found.p_value, "p_randomised": found.p_randomised,
            "samples": found.samples, "seed": found.seed, "alternative": alternative,
            "signature": a.signature}


def report(gold: Any, systems: Any, *, metric: str = "m2", samples: int = 1000,
           seed: int = 12345, format: str = "json", **options: Any) -> Any:
    """`m2lsp report`: the data (format "json", a dict) or a rendering ("html", "md",
    "latex", "csv"; a str) of many systems against one gold.  `systems`: a mapping of
    names to inputs, or a list of inputs (files named as `m2lsp report` names them: the file
name without its extension, else the shortest end of the path that tells them apart;
texts "system 1", ...)."""
    import m2lsp.arguments as arguments
    from m2lsp.reporting.data import MAX_SENTENCES, build_report, report_json
    from m2lsp.scoring.metric import Request
    from m2lsp.scoring.metric import metric as registered

    if format not in ("json", "html", "md", "latex", "csv"):
        raise UsageError(f"format: json, html, md, latex or csv, not {format!r}")
    named = _named_systems(systems)
    resamples = int(counted(arguments.SAMPLES, "samples", samples))
    chosen_seed = int(counted(arguments.SEED, "seed", seed))
    with Scorer(metric, **options, gold=gold) as scorer, scorer._speaking():
        files = scorer._folder
        paths = [files.file(text, f"system {name!r}")
                 for i, (name, text) in enumerate(named.items())]
        request = Request(paths[0], scorer.gold, scorer._shared, scorer._options)
        built = build_report(registered(metric), request, paths, list(named), resamples,
                             chosen_seed)
        data = report_json(built, MAX_SENTENCES if format == "html" else None)
    if format == "json":
        return data
    from m2lsp.reporting import rendered

    return rendered(data, format)


def _named_systems(systems: Any) -> dict[str, Any]:
    if isinstance(systems, Mapping):
        if not systems:
            raise UsageError("systems: an empty mapping; give at least one system")
        for name in systems:
            if not isinstance(name, str):
                raise UsageError(f"systems: the name {name!r} is not a str")
        return dict(systems)
    if isinstance(systems, str) or not isinstance(systems, Sequence) or not systems:
        raise inputs.refuse("systems", systems, "a mapping of names to systems, or a "
                            "non-empty list of systems (each a path, a text or a list of "
                            "sentences)")
    from m2lsp.reporting.naming import system_names

    files = iter(system_names([str(s) for s in systems if inputs.is_path(s)]))
    return {next(files) if inputs.is_path(s) else f"system {i + 1}": s
            for i, s in enumerate(systems)}


def rank_systems(systems: Any, gold: Any = None, *, metric: str = "m2",
                 aggregation: str = "default", sources: Any = None,
                 **options: Any) -> dict[str, float]:
    """Each system's score for ranking them, as gec-metrics' `rank_systems`: with
    aggregation "default" the metric's own corpus score; with "trueskill" or
    "expected-wins" its sentence scores turned into a win, loss or tie for every pair of
    systems on every sentence, and the systems rated from those (TrueSkill: mu 0, sigma
    0.5, beta 0.25, tau 0, draw probability 0.25; the order of `systems` is the order of
    the ratings).  `systems`: a mapping of names to inputs, or a list of inputs.  All
    systems are scored in one pass (an LLM judge sees them side by side)."""
    from m2lsp.metaeval.rating import aggregation_name, ratings
    from m2lsp.scoring.metric import Request
    from m2lsp.scoring.metric import metric as registered

    if not isinstance(aggregation, str):
        raise inputs.refuse("aggregation", aggregation, "default, trueskill or expected-wins")
    how = aggregation_name(aggregation)
    named = _named_systems(systems)
    with Scorer(metric, **options, gold=gold, sources=sources) as scorer, \
            scorer._speaking():
        paths = [scorer._folder.file(text, f"system {name!r}")
                 for i, (name, text) in enumerate(named.items())]
        request = Request(paths[0], scorer.gold, scorer._shared, scorer._options)
        found = list(registered(metric).run_many(request, paths))
    if how == "default":
        return {name: _main(metric, score, request) for name, score in zip(named, found,
                                                                            strict=True)}
    sentences = {name: score.sentence_scores() for name, score in zip(named, found,
                                                                      strict=True)}
    lacking = [name for name, values in sentences.items() if values is None]
    if lacking:
        raise UsageError(f"aggregation {how}: --metric {metric} has no sentence scores to "
                         "compare the systems by")
    return ratings({k: list(v or ()) for k, v in sentences.items()}, how)


def _main(metric: str, score: Any, request: Any) -> float:
    found = score.main(score.json(request))
    if found is None:
        raise UsageError(f"metric {metric} has no single number to rank systems by")
    return float(found)
