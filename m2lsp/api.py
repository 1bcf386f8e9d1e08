"""m2lsp from Python: the numbers `m2lsp score` prints, as objects a notebook or a training
loop can use.  Nothing here prints or exits: a problem is an `M2lspError` (see `errors`),
and what the command line would warn about is kept in `Score.warnings`.

    >>> import m2lsp
    >>> m2lsp.score("CAMB", gold="official-2014.combined.m2").f   # doctest: +SKIP
    0.3732...

Inputs are given as a path (a `str` without a line break, or a `pathlib.Path`), as a file's
text (a `str` with line breaks), or as a list of sentences (one line each).  Options are the
metric's own, by the name the command line gives them without dashes (`beta`,
`max_unchanged_words`, `errant_cat`, `cged_counting`, ...); `m2lsp.metrics()` lists them.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeGuard, cast

from m2lsp.errors import InputError, UsageError

Text = str | os.PathLike[str] | Sequence[str]
"""A path, the text of a file, or its lines."""

# the options several metrics share, by the name the API and the command line give them
SHARED = ("beta", "jobs", "seed", "source", "sentence_average")


@dataclass(frozen=True)
class MetricInfo:
    """A registered metric: its id, what it scores, and the options it takes."""

    name: str
    help: str
    options: tuple[str, ...]
    per_sentence: bool  # bootstrap intervals and `compare`
    needs_m2_gold: bool  # given sources= and references=, they are annotated first


def metrics() -> list[MetricInfo]:
    """Every metric `score` takes, from the registry."""
    from m2lsp.scoring.metric import declared, names

    found = []
    for name in names():
        chosen = declared(name)
        own = tuple(f.dest for f in (*chosen.flags, *chosen.also))
        shared = tuple(s for s in SHARED if s in chosen.shared)
        found.append(MetricInfo(name, chosen.help, shared + own, chosen.per_sentence,
                                chosen.annotates is not None))
    return found


def _annotates(name: str) -> str | None:
    """The language of the annotator that makes metric `name`'s M2 gold from plain-text
    references (ERRANT for English, ChERRANT at char level for Chinese), if it has one."""
    from m2lsp.scoring.metric import declared

    return declared(name).annotates


@dataclass(frozen=True)
class Score:
    """A metric's score: the headline numbers as attributes, every number `--format json`
    prints in `to_dict()`, per-sentence statistics, per-type counts, the signature."""

    metric: str
    signature: str
    data: dict[str, Any] = field(repr=False)
    warnings: tuple[str, ...] = ()
    _score: Any = field(default=None, repr=False, compare=False)
    _request: Any = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """What `m2lsp score --format json` prints for the same inputs and options."""
        return dict(self.data)

    @property
    def precision(self) -> float | None:
        return self._number("precision")

    @property
    def recall(self) -> float | None:
        return self._number("recall")

    @property
    def f(self) -> float | None:
        return self._number("f")

    @property
    def tp(self) -> int | None:
        return self._counts[0]

    @property
    def fp(self) -> int | None:
        return self._counts[1]

    @property
    def fn(self) -> int | None:
        return self._counts[2]

    @property
    def _counts(self) -> tuple[int | None, int | None, int | None]:
        """(TP, FP, FN) from the JSON's counts: ERRANT names them, M2 counts correct,
        proposed and gold edits; None where the metric has none."""
        counts = self.data.get("counts") or {}
        if "true_positives" in counts:
            return (counts["true_positives"], counts.get("false_positives"),
                    counts.get("false_negatives"))
        if "correct" in counts:
            correct = counts["correct"]
            return correct, counts["proposed"] - correct, counts["gold"] - correct
        return None, None, None

    @property
    def headline(self) -> dict[str, float]:
        """The numbers a leaderboard shows (for M2: precision, recall, f)."""
        stats = self._score.sentence_stats()
        if stats is not None:
            from m2lsp.scoring.metric import json_key

            keys = [json_key(n) for n in stats.names]
            if all(isinstance(self.data.get(k), float) for k in keys):
                return {k: self.data[k] for k in keys}
        return dict(self._score.headline(self.data))

    @property
    def sentences(self) -> list[Any]:
        """Each sentence's statistics: the JSON's sentences where the metric lists them,
        else the rows the bootstrap resamples (empty when it has none)."""
        if isinstance(self.data.get("sentences"), list):
            return list(self.data["sentences"])
        stats = self._score.sentence_stats()
        return [] if stats is None else [dict(zip(stats.names, row, strict=False))
                                         for row in stats.rows]

    @property
    def per_type(self) -> dict[str, dict[str, float]]:
        """Counts per error type: {type: {tp, fp, fn, f}}."""
        return {t: {"tp": tp, "fp": fp, "fn": fn, "f": f}
                for t, tp, fp, fn, f in self._score.type_counts()}

    def confidence(self, samples: int = 1000, seed: int = 12345) -> dict[str, Any]:
        """95% bootstrap intervals of the headline numbers over sentences, as
        `--bootstrap` prints them."""
        from m2lsp import arguments
        from m2lsp.scoring.metric import Shared, bootstrap_data

        stats = self._score.sentence_stats()
        if stats is None:
            raise UsageError(f"{self.metric} has no per-sentence statistics to resample")
        checked = int(_counted(arguments.SAMPLES, "samples", samples))
        request = replace(self._request, shared=replace(
            self._request.shared if self._request else Shared(), bootstrap=checked,
            seed=int(_counted(arguments.SEED, "seed", seed))))
        return bootstrap_data(stats, request)

    def _number(self, key: str) -> float | None:
        value = self.data.get(key)
        return value if isinstance(value, float) else None

    def _repr_html_(self) -> str:
        from html import escape

        cells = "".join(f"<tr><th>{escape(k)}</th><td>{v:.4f}</td></tr>"
                        for k, v in self.headline.items())
        return (f"<table><caption>{escape(self.metric)}</caption>{cells}</table>"
                f"<small><code>{escape(self.signature)}</code></small>")


def score(system: Text, gold: Text | None = None, *, metric: str = "m2",
          sources: Text | None = None, references: Sequence[Text] | None = None,
          **options: Any) -> Score:
    """Score `system` against `gold` (or against `references` of `sources`) with `metric`,
    as `m2lsp score` does: `score(...).to_dict()` is its `--format json`."""
    return Scorer(metric, gold=gold, sources=sources, references=references,
                  **options).score(system)


class Scorer:
    """One metric and one gold, kept for many scores (a training loop): the gold is read
    once, and ERRANT's spaCy pipeline loads once, at the first score that needs it."""

    def __init__(self, metric: str = "m2", *, gold: Text | None = None,
                 sources: Text | None = None, references: Sequence[Text] | None = None,
                 **options: Any) -> None:
        from m2lsp.scoring.metric import names

        if metric not in names():
            raise UsageError(f"no metric {metric!r}; the metrics are {', '.join(names())}")
        self.metric = metric
        self._folder = tempfile.TemporaryDirectory(prefix="m2lsp-")
        self._values, self._shared, self._options = _options(metric, options)
        self.gold = self._gold(gold, sources, references)

    def score(self, system: Text) -> Score:
        from m2lsp.scoring.metric import Request
        from m2lsp.scoring.metric import metric as registered

        warnings: list[str] = []
        path = _kept(system, Path(self._folder.name), "system")
        request = Request(path, self.gold, self._shared, self._options, warn=warnings.append)
        found = registered(self.metric).run(request)
        data = found.json(request)
        return Score(self.metric, found.signature, data, tuple(warnings), found, request)

    def close(self) -> None:
        self._folder.cleanup()

    def __enter__(self) -> Scorer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _gold(self, gold: Text | None, sources: Text | None,
              references: Sequence[Text] | None) -> Path | None:
        folder = Path(self._folder.name)
        if gold is not None:
            if references is not None:
                raise UsageError("give gold= or references=, not both")
            return _kept(gold, folder, "gold")
        if references is None:
            return None
        if sources is None:
            raise UsageError("references= needs sources= (the sentences they correct)")
        if self.metric == "gleu":  # gleu reads plain references itself
            raise UsageError("gleu: give references as ref=[...] and the sources as source=")
        lang = _annotates(self.metric)
        if lang is None:
            raise UsageError(f"{self.metric} cannot take references=: give its gold")
        m2 = annotate(_lines(sources), [_lines(r) for r in references],
                      lang=lang, **self._annotation_options())
        return _kept(m2, folder, "gold.m2")

    def _annotation_options(self) -> dict[str, Any]:
        model = self._values.get("spacy_model")
        return {"spacy_model": model} if model and _annotates(self.metric) == "en" else {}


def _options(name: str, given: Mapping[str, Any]) -> tuple[dict[str, Any], Any, Any]:
    """The metric's option values as the command line would pass them (each checked as
    its flag declares), the shared options, and the metric's typed options."""
    from m2lsp.config import config_for
    from m2lsp.scoring.metric import Shared, metric

    chosen = metric(name)
    flags = {f.dest: f for f in (*chosen.flags, *chosen.also)}
    allowed = set(flags) | {s for s in SHARED if s in chosen.shared} | {"seed"}
    unknown = sorted(set(given) - allowed)
    if unknown:
        raise UsageError(f"{name} takes no option {', '.join(unknown)}; its options: "
                         + ", ".join(sorted(allowed)))
    values = {dest: flag.default for dest, flag in flags.items()}
    for key, value in given.items():
        values[key] = _checked(flags.get(key), key, value)
    values["source"] = _source(values.get("source"))
    config = config_for([]).score
    shared = Shared.settled(values, config)
    return values, shared, chosen.options(values, shared, config)


def _checked(flag: Any, key: str, value: Any) -> Any:
    """A value as its declared type and choices take it (a UsageError says why not)."""
    from m2lsp import arguments

    kind = {"beta": arguments.BETA, "jobs": arguments.JOBS, "seed": arguments.SEED}.get(key)
    spec = flag.spec if flag is not None else {}
    kind = spec.get("type", kind)
    if value is not None and isinstance(kind, arguments.Number):
        value = _counted(kind, key, value)
    if value is not None and "choices" in spec and value not in spec["choices"]:
        raise UsageError(f"{key}: {value!r} is not one of {', '.join(map(str, spec['choices']))}")
    return value


def _counted(kind: Any, key: str, value: Any) -> float:
    """A value a numeric option takes (`arguments.Number`), or a UsageError naming it."""
    from m2lsp import arguments

    try:
        return arguments.converter(kind)(value)
    except ValueError as exc:
        raise UsageError(f"{key}: {exc}, not {value!r}") from None


def is_path(value: Any) -> TypeGuard[str | os.PathLike[str]]:
    """A path (a PathLike, or a str without a line break), not a text or a list of lines."""
    return isinstance(value, os.PathLike) or (isinstance(value, str) and "\n" not in value)


def _text(value: Any) -> str:
    """A text given as a str, or as its lines."""
    return value if isinstance(value, str) else "".join(f"{line}\n" for line in value)


def _source(value: Any) -> Path | None:
    if value is None:
        return None
    if is_path(value):
        return Path(value)
    raise UsageError("source= is a path here (give the sentences as a file)")


def _lines(value: Text) -> list[str]:
    """The sentences of a path, a text or a list."""
    if is_path(value):
        from m2lsp.parsing.source import read_source

        return read_source(Path(value), "input").text.splitlines()
    if isinstance(value, str):
        return value.splitlines()
    return [str(line) for line in cast(Sequence[str], value)]


def _kept(value: Text, folder: Path, name: str) -> Path:
    """A path for the value: its own, or a file in `folder` holding its text."""
    if is_path(value):
        path = Path(value)
        if not path.is_file():
            raise InputError(f"{path}: no such file (a text is given with its line breaks, "
                             "or as a list of sentences)")
        return path
    path = folder / name
    path.write_text(_text(value), encoding="utf-8")
    return path


def compare(system_a: Text, system_b: Text, gold: Text, *, metric: str = "m2",
            samples: int = 1000, seed: int = 12345, alternative: str = "two-sided",
            **options: Any) -> dict[str, Any]:
    """`m2lsp compare`: both systems' main number, the difference with its 95% interval,
    and the paired bootstrap and approximate randomisation p-values."""
    from m2lsp import arguments, defaults
    from m2lsp.scoring.bootstrap import compare as paired

    if alternative not in defaults.ALTERNATIVES:
        raise UsageError(f"alternative: one of {', '.join(defaults.ALTERNATIVES)}")
    with Scorer(metric, gold=gold, **options) as scorer:
        a, b = scorer.score(system_a), scorer.score(system_b)
    stats = [s._score.sentence_stats() for s in (a, b)]
    if stats[0] is None or stats[1] is None:
        raise UsageError(f"{metric} has no per-sentence statistics to compare")
    found = paired(stats[0].rows, stats[1].rows, stats[0].aggregate, stats[0].main,
                   int(_counted(arguments.SAMPLES, "samples", samples)),
                   int(_counted(arguments.SEED, "seed", seed)), alternative)
    return {"metric": metric, "name": stats[0].names[stats[0].main], "a": found.a,
            "b": found.b, "difference": found.a - found.b,
            "interval": [found.difference.low, found.difference.high],
            "p_bootstrap": found.p_value, "p_randomised": found.p_randomised,
            "samples": found.samples, "seed": found.seed, "alternative": alternative,
            "signature": a.signature}


def annotate(sources: Text, corrections: Sequence[Text], *, lang: str = "en",
             spacy_model: str | None = None, jobs: int = 1) -> str:
    """M2 of the sources and their corrections (one list per annotator), as errant_parallel
    (lang="en") or ChERRANT's parallel_to_m2.py -g char (lang="zh") writes it."""
    from m2lsp.annotation.parallel import ParallelText
    from m2lsp.annotation.parallel import annotate as annotated

    text = ParallelText(_lines(sources), [_lines(c) for c in corrections])
    for column in text.corrections:
        if len(column) != len(text.sources):
            raise InputError(f"{len(text.sources)} sources but a correction list of "
                             f"{len(column)}")
    return "".join(annotated(text, _annotation_settings(lang, spacy_model), jobs))


def _annotation_settings(lang: str, spacy_model: str | None) -> Any:
    from m2lsp.annotation.parallel import settings_for
    from m2lsp.config import config_for

    return settings_for(lang, config_for([]).score, spacy_model=spacy_model)


def check(path_or_text: Text, *, format: str | None = None) -> list[Any]:
    """Every diagnostic `m2lsp check` finds (`diagnostic.Diagnostic`: code, message, span,
    severity, fix)."""
    from m2lsp.config import LintSettings
    from m2lsp.files.reading import read_bytes
    from m2lsp.linting.run import lint
    from m2lsp.model import Format
    from m2lsp.parsing.detect import detect_format
    from m2lsp.parsing.source import SourceText, decode

    if is_path(path_or_text):
        path = Path(path_or_text)
        source = decode(read_bytes(path))
    else:
        path = Path("text")
        source = SourceText(_text(path_or_text))
    fmt = Format(format) if format else detect_format(path, source.text) or Format.M2
    return list(lint(source, fmt, LintSettings()).diagnostics)


def agree(gold: Text, *, metric: str = "m2", beta: float = 0.5) -> Any:
    """How well the annotators of an M2 gold agree (`agreement.Agreement`), as
    `m2lsp agree` computes it."""
    from m2lsp import arguments
    from m2lsp.agreement import agreement
    from m2lsp.parsing.m2 import parse_m2
    from m2lsp.parsing.source import SourceText
    from m2lsp.scoring.metric import agreeing

    if metric not in agreeing():
        raise UsageError(f"agree: metric {' or '.join(agreeing())}, not {metric!r}")
    with tempfile.TemporaryDirectory(prefix="m2lsp-") as folder:
        path = _kept(gold, Path(folder), "gold.m2")
        text = path.read_text(encoding="utf-8")
    return agreement(parse_m2(SourceText(text)), metric,
                     _counted(arguments.BETA, "beta", beta))


def report(gold: Text, systems: Mapping[str, Text] | Sequence[Text], *, metric: str = "m2",
           samples: int = 1000, seed: int = 12345, format: str = "json",
           **options: Any) -> Any:
    """`m2lsp report`: the data (format "json", a dict) or a rendering ("html", "md",
    "latex", "csv"; a str) of many systems against one gold."""
    from m2lsp import arguments
    from m2lsp.reporting.data import MAX_SENTENCES, build_report, report_json
    from m2lsp.scoring.metric import Request
    from m2lsp.scoring.metric import metric as registered

    named = dict(systems) if isinstance(systems, Mapping) else {
        Path(str(s)).name if is_path(s)
        else f"system {i + 1}": s for i, s in enumerate(systems)}
    with Scorer(metric, **options, gold=gold) as scorer:
        folder = Path(scorer._folder.name)
        paths = [_kept(text, folder, f"system-{i}") for i, text in enumerate(named.values())]
        request = Request(paths[0], scorer.gold, scorer._shared, scorer._options)
        built = build_report(registered(metric), request, paths, list(named),
                             int(_counted(arguments.SAMPLES, "samples", samples)),
                             int(_counted(arguments.SEED, "seed", seed)))
        data = report_json(built, MAX_SENTENCES if format == "html" else None)
    if format == "json":
        return data
    from m2lsp.reporting import rendered

    return rendered(data, format)


@dataclass(frozen=True)
class MetaEval:
    """A meta-evaluation: `to_dict()` is what `m2lsp meta-eval --format json` prints;
    `correlation(metric, human)` one system-level number, `agreement(metric, judgments)`
    one sentence-level pair, `table` what the terminal shows."""

    data: dict[str, Any] = field(repr=False)
    table: str = field(repr=False)

    @property
    def signature(self) -> str:
        return str(self.data["signature"])

    def to_dict(self) -> dict[str, Any]:
        return dict(self.data)

    def correlation(self, metric: str, human: str, kind: str = "pearson") -> float | None:
        """The system-level correlation (kind "pearson" or "spearman") of `metric` with the
        human score `human` (SEEDA: EW_edit, EW_sent, TS_edit, TS_sent; GJG15: EW, TS)."""
        return self._metric(metric)["system_level"][human][kind]

    def agreement(self, metric: str, judgments: str) -> tuple[float | None, float | None]:
        """(accuracy, Kendall) of `metric` against the pairwise preferences of
        `judgments` (SEEDA: edit, sent; GJG15: rank)."""
        found = self._metric(metric)["sentence_level"][judgments]
        return found["accuracy"], found["kendall"]

    def _metric(self, name: str) -> dict[str, Any]:
        for found in self.data["metrics"]:
            if found["metric"] == name:
                return dict(found)
        raise UsageError(f"no metric {name!r} in this meta-evaluation")

    def _repr_html_(self) -> str:
        from html import escape

        return f"<pre>{escape(self.table)}</pre>"


def meta_eval(dataset: str = "seeda", *, data: str | os.PathLike[str] | None = None,
              systems: str | None = None, metrics: Sequence[str] = (),
              gold: str | os.PathLike[str] | None = None,
              scores: Mapping[str, str | os.PathLike[str]] | None = None,
              sentence_scores: Mapping[str, str | os.PathLike[str]] | None = None,
              order: str = "higher", judgments: str | os.PathLike[str] | None = None,
              trueskill_runs: int = 0, bootstrap: int = 0, seed: int = 12345,
              window: int = 0) -> MetaEval:
    """`m2lsp meta-eval`: registry `metrics` (scored here) and given score files (`scores`:
    name -> SYSTEM<TAB>SCORE file; `sentence_scores`: name -> folder of SYSTEM.txt)
    against the human judgments of `dataset` ("seeda" or "gjg15") in the folder `data`."""
    from m2lsp import arguments
    from m2lsp.config import config_for
    from m2lsp.metaeval import render
    from m2lsp.metaeval.evaluate import Settings
    from m2lsp.metaeval.run import MetaEvalRequest, run

    def paths(given: Mapping[str, Any] | None) -> tuple[tuple[str, Path], ...]:
        return tuple((name, Path(path)) for name, path in (given or {}).items())

    settings = Settings(int(_counted(arguments.SAMPLES, "bootstrap", bootstrap))
                        if bootstrap else 0, int(_counted(arguments.SEED, "seed", seed)),
                        int(window))
    request = MetaEvalRequest(
        dataset, Path(data) if data is not None else None, systems, tuple(metrics),
        Path(gold) if gold is not None else None, paths(scores), paths(sentence_scores),
        order, Path(judgments) if judgments is not None else None, int(trueskill_runs),
        settings, config_for([]).score.meta_eval_data)
    found = run(request)
    return MetaEval(render.to_dict(found), render.text(found))
