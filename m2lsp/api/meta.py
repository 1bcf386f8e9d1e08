"""`m2lsp.meta_eval()`: which metric agrees with people, from Python."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import m2lsp.api.inputs as inputs
from m2lsp.api.inputs import counted
from m2lsp.api.scoring import _checked
from m2lsp.errors import UsageError


@dataclass(frozen=True)
class MetaEval:
    """A meta-evaluation: `to_dict()` is what `m2lsp meta-eval --format json` prints;
    `correlation(metric, human)` one system-level number, `agreement(metric, judgments)`
    one sentence-level pair, `table` what the terminal shows."""

    data: dict[str, Any] = field(repr=False)
    table: str = field(repr=False)
    warnings: tuple[str, ...] = ()

    @property
    def signature(self) -> str:
        return str(self.data["signature"])

    def to_dict(self) -> dict[str, Any]:
        return dict(self.data)

    def correlation(self, metric: str, human: str, kind: str = "pearson") -> float | None:
        """The system-level correlation (kind "pearson" or "spearman") of `metric` with the
        human score `human` (SEEDA: EW_edit, EW_sent, TS_edit, TS_sent; GJG15: EW, TS);
        None where it cannot be computed (a constant side)."""
        levels = self._metric(metric)["system_level"]
        if human not in levels or kind not in ("pearson", "spearman"):
            raise UsageError(f"correlation: human one of {', '.join(levels)}, kind pearson "
                             f"or spearman, not {human!r}, {kind!r}")
        return levels[human][kind]

    def agreement(self, metric: str, judgments: str) -> tuple[float | None, float | None]:
        """(accuracy, Kendall) of `metric` against the pairwise preferences of
        `judgments` (SEEDA: edit, sent; GJG15: rank)."""
        levels = self._metric(metric)["sentence_level"]
        if judgments not in levels:
            raise UsageError(f"agreement: judgments one of {', '.join(levels) or 'none'}, "
                             f"not {judgments!r}")
        found = levels[judgments]
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
              window: int = 0, aggregation: str = "default", domain: str = "fce",
              split: str = "test", **options: Any) -> MetaEval:
    """`m2lsp meta-eval`: registry `metrics` (scored here, with their `options` as `score`
    takes them: `spacy_model=`, `beta=`, `max_unchanged_words=`, ... and the [tool.m2lsp]
    settings) and given score files (`scores`: name -> SYSTEM<TAB>SCORE file;
    `sentence_scores`: name -> folder of SYSTEM.txt) against the human judgments of
    `dataset` ("seeda", "gjg15", "revisit-cgec" or "gmeg", with its `domain` and `split`)
    in the folder `data`; `aggregation`
    "trueskill" or "expected-wins" rates the systems from their sentence scores (see
    `rank_systems`)."""
    import m2lsp.arguments as arguments
    from m2lsp.config import config_for
    from m2lsp.logs import collected
    from m2lsp.metaeval import render
    from m2lsp.metaeval.evaluate import Settings
    from m2lsp.metaeval.run import MetaEvalRequest, run

    _names("dataset", dataset, ("seeda", "gjg15", "revisit-cgec", "gmeg"))
    _names("domain", domain, ("fce", "wiki", "yahoo"))
    _names("split", split, ("test", "dev"))
    _names("order", order, ("higher", "lower"))
    _names("aggregation", aggregation, ("default", "trueskill", "expected-wins",
                                        "expected_wins"))
    if systems is not None:
        _names("systems", systems, ("base", "+INPUT", "+REF-F_GPT-3.5", "all", "+source"))
    chosen = inputs.strings(metrics, "metrics")
    settings = Settings(int(counted(arguments.SAMPLES, "bootstrap", bootstrap))
                        if bootstrap else 0, int(counted(arguments.SEED, "seed", seed)),
                        int(counted(arguments.Number(int, 0), "window", window)))
    runs = int(counted(arguments.Number(int, 0), "trueskill_runs", trueskill_runs))
    config = config_for([]).score
    request = MetaEvalRequest(
        dataset, _path("data", data), systems, chosen, _path("gold", gold),
        _files("scores", scores), _files("sentence_scores", sentence_scores), order,
        _path("judgments", judgments), runs, settings, config.meta_eval_data,
        _metric_options(chosen, options), config, aggregation.replace("_", "-"), domain,
        split)
    said: list[str] = []
    with collected(said.append, once=True):
        found = run(request, warn=said.append)
    return MetaEval(render.to_dict(found), render.text(found), tuple(dict.fromkeys(said)))


def _metric_options(metrics: Sequence[str], given: Mapping[str, Any]
                    ) -> tuple[tuple[str, Any], ...]:
    """The options, each checked as the metric that declares it takes it."""
    from m2lsp.scoring.metric import declared, names

    flags = {f.dest: f for name in names() for f in declared(name).flags}
    out = []
    for key, value in given.items():
        if key not in flags and key not in ("beta", "jobs"):
            raise UsageError(f"meta_eval takes no option {key}; the metrics' options are "
                             "those `m2lsp.metrics()` lists")
        out.append((key, _checked(flags.get(key), key, value)))
    return tuple(out)


def _names(role: str, value: Any, allowed: Sequence[str]) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise UsageError(f"{role}: one of {', '.join(allowed)}, not {value!r}")


def _path(role: str, value: Any) -> Path | None:
    if value is None:
        return None
    if not isinstance(value, str | os.PathLike) or (isinstance(value, str) and not value):
        raise inputs.refuse(role, value, "a path (pathlib.Path or str)")
    return Path(value)


def _files(role: str, value: Any) -> tuple[tuple[str, Path], ...]:
    if value is None:
        return ()
    if not isinstance(value, Mapping):
        raise inputs.refuse(role, value, "a mapping of names to paths ({'mine': 'f.tsv'})")
    found = []
    for name, path in value.items():
        if not isinstance(name, str) or not name:
            raise UsageError(f"{role}: the name {name!r} is not a str")
        checked = _path(f"{role}[{name!r}]", path)
        assert checked is not None
        found.append((name, checked))
    return tuple(found)
