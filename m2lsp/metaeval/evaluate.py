"""The meta-evaluation itself: a metric's scores of a dataset's systems against the human
scores (system level: Pearson and Spearman, over every window of consecutive human-ranked
systems too, with bootstrap intervals where the metric has per-sentence statistics) and
against each human pairwise preference (sentence level: accuracy and Kendall's tau-like
score), and Williams' test between two metrics."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from m2lsp.errors import InputError
from m2lsp.metaeval.datasets import Dataset
from m2lsp.metaeval.statistics import CORRELATIONS, agreement, williams

Row = tuple[float, ...]


@dataclass(frozen=True)
class MetricScores:
    """One metric's scores of a dataset's systems: one a system, and (for the sentence
    level) one per output line; `resample` (a list of sentence indices -> a score per
    system) where the metric has per-sentence statistics, for bootstrap intervals."""

    name: str
    system: Mapping[str, float]
    sentences: Mapping[str, Sequence[float]] | None = None
    higher: bool = True
    signature: str = ""
    resample: Callable[[Sequence[int]], dict[str, float]] | None = field(
        default=None, compare=False, repr=False)
    sentence_count: int = 0  # the sentences `resample` draws from
    mix: Callable[[Sequence[str]], float] | None = field(default=None, compare=False,
                                                         repr=False)  # the score of an
    # output taking each sentence from the system named (GMEG's synthetic systems)
    sentence_judge: Callable[[Any, Mapping[str, Sequence[Any]]], list[Any]] | None = field(
        default=None, compare=False, repr=False)  # the sentence level of a judge that
    # rates systems side by side (metaeval.judge_sentences): (name, accuracy, kendall, pairs)


@dataclass(frozen=True)
class Correlation:
    human: str
    pearson: float
    spearman: float
    pearson_interval: tuple[float, float] | None = None
    spearman_interval: tuple[float, float] | None = None


@dataclass(frozen=True)
class Window:
    human: str
    first: int  # 1-based human rank of the window's first system
    last: int
    pearson: float
    spearman: float


@dataclass(frozen=True)
class SentenceLevel:
    judgments: str
    accuracy: float
    kendall: float
    pairs: int


@dataclass(frozen=True)
class MetricResult:
    metric: str
    signature: str
    scores: tuple[tuple[str, float], ...]  # (system, score) in the dataset's order
    system: tuple[Correlation, ...]
    sentence: tuple[SentenceLevel, ...]
    windows: tuple[Window, ...] = ()


@dataclass(frozen=True)
class Comparison:
    """Williams' test of metric a against metric b for one human score and one
    correlation (Pearson)."""

    a: str
    b: str
    human: str
    t: float
    p: float


@dataclass(frozen=True)
class MetaEvalResult:
    dataset: Dataset
    results: tuple[MetricResult, ...]
    comparisons: tuple[Comparison, ...] = ()
    samples: int = 0
    seed: int = 12345
    window: int = 0
    aggregation: str = "default"  # how the metrics' system scores were made (--aggregation)

    @property
    def signature(self) -> str:
        extra = f"|bootstrap:{self.samples}|seed:{self.seed}" if self.samples else ""
        if self.aggregation != "default":
            extra += f"|aggregation:{self.aggregation}"
        return f"META-EVAL|{self.dataset.signature}{extra}"


@dataclass(frozen=True)
class Settings:
    samples: int = 0  # bootstrap resamples of sentences (0: no intervals)
    seed: int = 12345
    window: int = 0  # systems in each window (0: no window analysis)
    sentence_level: bool = True


def evaluate(dataset: Dataset, metrics: Sequence[MetricScores],
             settings: Settings = Settings()) -> MetaEvalResult:
    """Every metric against the dataset's human scores and judgments."""
    wanted = settings.sentence_level and any(
        m.sentences is not None or m.sentence_judge is not None for m in metrics)
    judgments = {**_judgments(dataset), **dataset.judged} if wanted else {}
    results = tuple(_one(dataset, m, judgments, settings) for m in metrics)
    return MetaEvalResult(dataset, results, _comparisons(dataset, results), settings.samples,
                          settings.seed, settings.window)


def _one(dataset: Dataset, scores: MetricScores, judgments: Mapping[str, Any],
         settings: Settings) -> MetricResult:
    values = _in_order(dataset, scores)
    system = tuple(_correlation(dataset, name, human, values, scores, settings)
                   for name, human in dataset.human.items())
    if scores.sentence_judge is not None and judgments:
        sentence = tuple(SentenceLevel(*found)
                         for found in scores.sentence_judge(dataset, judgments))
    else:
        sentence = tuple(_sentence_level(dataset, name, rows, scores)
                         for name, rows in judgments.items()) if scores.sentences else ()
    windows = tuple(w for name, human in dataset.human.items()
                    for w in _windows(name, human, values, settings.window))
    return MetricResult(scores.name, scores.signature,
                        tuple(zip(dataset.systems, values, strict=True)), system, sentence,
                        windows)


def _in_order(dataset: Dataset, scores: MetricScores) -> list[float]:
    missing = [s for s in dataset.systems if s not in scores.system]
    if missing:
        raise InputError(f"{scores.name}: no score for {', '.join(missing)} (the "
                         f"{dataset.name} {dataset.subset} systems are "
                         f"{', '.join(dataset.systems)})")
    return [float(scores.system[s]) for s in dataset.systems]


def _correlation(dataset: Dataset, name: str, human: Sequence[float], values: list[float],
                 scores: MetricScores, settings: Settings) -> Correlation:
    found = {kind: f(values, human) for kind, f in CORRELATIONS.items()}
    if not (settings.samples and scores.resample is not None):
        return Correlation(name, found["pearson"], found["spearman"])
    intervals = _intervals(dataset, human, scores, settings)
    return Correlation(name, found["pearson"], found["spearman"], intervals["pearson"],
                       intervals["spearman"])


def _intervals(dataset: Dataset, human: Sequence[float], scores: MetricScores,
               settings: Settings) -> dict[str, tuple[float, float]]:
    """95% percentile intervals of each correlation over resamples of the sentences (the
    systems' scores recomputed on each resample, the human scores fixed)."""
    from m2lsp.scoring.bootstrap import resamples

    assert scores.resample is not None
    found: dict[str, list[float]] = {kind: [] for kind in CORRELATIONS}
    for sample in resamples(scores.sentence_count, settings.samples, settings.seed):
        again = scores.resample(sample)
        values = [again[s] for s in dataset.systems]
        for kind, f in CORRELATIONS.items():
            found[kind].append(f(values, human))
    return {kind: _percentiles(sorted(v for v in got if not math.isnan(v)))
            for kind, got in found.items()}


def _percentiles(values: list[float]) -> tuple[float, float]:
    if not values:
        return math.nan, math.nan
    low = values[int(0.025 * (len(values) - 1))]
    high = values[math.ceil(0.975 * (len(values) - 1))]
    return low, high


def _windows(name: str, human: Sequence[float], values: list[float], size: int
             ) -> list[Window]:
    """Correlations over each run of `size` consecutive systems in the human ranking, best
    first (SEEDA's window_analysis_system.py: ties in the human scores keep numpy's order,
    the later system first)."""
    if size <= 1 or size > len(values):
        return []
    order = sorted(range(len(human)), key=human.__getitem__)[::-1]
    ranked_human = [human[i] for i in order]
    ranked = [values[i] for i in order]
    return [Window(name, start + 1, start + size,
                   *(f(ranked_human[start:start + size], ranked[start:start + size])
                     for f in CORRELATIONS.values()))
            for start in range(len(order) - size + 1)]


def _judgments(dataset: Dataset) -> dict[str, Any]:
    from m2lsp.metaeval.judgments import read_judgments

    return {name: read_judgments(path) for name, path in dataset.judgments.items()}


def _sentence_level(dataset: Dataset, name: str, judged: Sequence[Any],
                    scores: MetricScores) -> SentenceLevel:
    assert scores.sentences is not None
    lines = dataset.judged_lines(judged)
    per_system = [scores.sentences.get(s) for s in dataset.systems]
    missing = [s for s, v in zip(dataset.systems, per_system, strict=True) if v is None]
    if missing:
        raise InputError(f"{scores.name}: no sentence scores for {', '.join(missing)}")
    count = 1 + max(lines, default=-1)
    short = [s for s, v in zip(dataset.systems, per_system, strict=True)
             if v is not None and len(v) < count]
    if short:
        raise InputError(f"{scores.name}: {short[0]} has fewer sentence scores than the "
                         f"{count} sentences {dataset.name} judged")
    human = [j.scores(dataset.systems) for j in judged]
    metric = [[v[line] for v in per_system if v is not None] for line in lines]
    found = agreement(human, metric, scores.higher)
    return SentenceLevel(name, found.accuracy, found.kendall, found.pairs)


def _comparisons(dataset: Dataset, results: Sequence[MetricResult]
                 ) -> tuple[Comparison, ...]:
    """Williams' test for every pair of metrics and every human score, A the metric with
    the higher Pearson correlation: does A correlate better than B?"""
    from m2lsp.metaeval.statistics import pearson

    values = {r.metric: [v for _, v in r.scores] for r in results}
    out = []
    for k, first in enumerate(results):
        for second in results[k + 1:]:
            r_ab = pearson(values[first.metric], values[second.metric])
            for name, human in dataset.human.items():
                r_a, r_b = (pearson(values[r.metric], human) for r in (first, second))
                a, b = (first, second) if not r_b > r_a else (second, first)
                test = williams(max(r_a, r_b), min(r_a, r_b), r_ab, len(dataset.systems))
                out.append(Comparison(a.metric, b.metric, name, test.t, test.p))
    return tuple(out)


def read_system_scores(path: Path) -> dict[str, float]:
    """`SYSTEM<TAB>SCORE` lines (any whitespace between; blank lines and # comments
    skipped); a score that is not a finite number is an InputError naming its line."""
    from m2lsp.parsing.source import read_source

    found: dict[str, float] = {}
    for number, line in enumerate(read_source(path, "scores").text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split()
        try:
            name, value = parts[0], float(parts[-1])
        except (IndexError, ValueError):
            raise InputError(f"{path}:{number}: expected SYSTEM<TAB>SCORE, not "
                             f"{line!r}") from None
        if len(parts) != 2:
            raise InputError(f"{path}:{number}: expected SYSTEM<TAB>SCORE, not {line!r}")
        if not math.isfinite(value):
            raise InputError(f"{path}:{number}: {name}'s score {parts[-1]!r} is not a finite "
                             f"number (a NaN or an infinity has no correlation)")
        if name in found:
            raise InputError(f"{path}:{number}: a second score for {name}")
        found[name] = value
    return found


def read_sentence_scores(folder: Path, systems: Sequence[str],
                         expected: Mapping[str, int] | None = None) -> dict[str, list[float]]:
    """SEEDA's layout: `folder/SYSTEM.txt`, one score a line in the order of the
    dataset's outputs (`expected`: each system's number of output sentences).  A blank
    line, a line that is not a finite number, and a file with fewer or more lines than its
    output are each an InputError of their own, naming the file and line."""
    from m2lsp.parsing.source import read_source

    found = {}
    for system in systems:
        path = folder / f"{system}.txt"
        if not path.is_file():
            raise InputError(f"{path}: no such file (sentence scores are DIR/SYSTEM.txt, one "
                             "score a line)")
        lines = read_source(path, "scores").text.rstrip().splitlines()
        found[system] = [_sentence_score(path, number, line)
                         for number, line in enumerate(lines, 1)]
        wanted = (expected or {}).get(system)
        if wanted is not None and len(lines) != wanted:
            which = "fewer" if len(lines) < wanted else "more"
            raise InputError(f"{path}: {len(lines)} sentence scores, {which} than the "
                             f"{wanted} sentences of {system}'s output (one score a line)")
    return found


def _sentence_score(path: Path, number: int, line: str) -> float:
    if not line.strip():
        raise InputError(f"{path}:{number}: a blank line; sentence scores are one number "
                         "a line, with no line between them")
    try:
        value = float(line)
    except ValueError:
        raise InputError(f"{path}:{number}: not a number: {line[:40]!r}") from None
    if not math.isfinite(value):
        raise InputError(f"{path}:{number}: {line.strip()!r} is not a finite number (a NaN "
                         f"or an infinity has no correlation)")
    return value
