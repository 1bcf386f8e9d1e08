"""`m2lsp meta-eval` and `m2lsp.meta_eval()`: what to meta-evaluate (registry metrics,
a user's own score files, a user's own judgments) gathered into one `evaluate` call."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from m2lsp.errors import InputError, UsageError
from m2lsp.metaeval.datasets import Dataset, data_folder, load
from m2lsp.metaeval.evaluate import (
    MetaEvalResult,
    MetricScores,
    Settings,
    evaluate,
    read_sentence_scores,
    read_system_scores,
)
from m2lsp.metaeval.scores import Progress
from m2lsp.parsing.source import Input, Text

GOLD_BESIDE = Path("conll2014") / "gold" / "official-2014.combined.m2"
REVISIT_RUNS = 100  # RevisitCGEC's TrueSkill runs by default (its Makefile: 1000)


@dataclass(frozen=True)
class MetaEvalRequest:
    """What a meta-evaluation is asked: the dataset and its system set, registry metrics
    (scored against `gold`), score files by name, and how."""

    dataset: str = "seeda"
    data: Path | None = None
    systems: str | None = None
    metrics: tuple[str, ...] = ()
    gold: Path | None = None
    scores: tuple[tuple[str, Path], ...] = ()  # NAME=FILE: SYSTEM<TAB>SCORE lines
    sentence_scores: tuple[tuple[str, Path], ...] = ()  # NAME=DIR: DIR/SYSTEM.txt
    order: str = "higher"
    judgments: Path | None = None  # a user's own Appraise rankings (Expected Wins)
    trueskill_runs: int = 0  # with judgments: also their TrueSkill, the mean of this many
    settings: Settings = field(default_factory=Settings)
    setting_data: str | None = None  # the configuration's meta-eval-data
    options: tuple[tuple[str, Any], ...] = ()  # the metrics' options given, by dest
    config: Any = None  # config.ScoreSettings: [tool.m2lsp] (None: the defaults)
    aggregation: str = "default"  # or trueskill, expected-wins (metaeval.rating)
    domain: str = "fce"  # GMEG's domain and split
    split: str = "test"
    synthetic: int = 0  # GMEG: synthetic systems more (metaeval.gmeg.synthetic)


def run(request: MetaEvalRequest, progress: Progress | None = None,
        warn: Callable[[str], None] | None = None) -> MetaEvalResult:
    """Score what needs scoring, read what was given, and meta-evaluate it all."""
    if request.order not in ("higher", "lower"):
        raise UsageError("--order is higher or lower")
    folder = data_folder(request.data, request.setting_data)
    dataset = load(request.dataset, folder, request.systems, request.domain, request.split)
    if request.synthetic and dataset.name != "gmeg":
        raise UsageError("--synthetic makes GMEG's synthetic systems: give --dataset gmeg")
    if dataset.name == "revisit-cgec":
        _refuse_whole_references(request.metrics)
        dataset = with_trueskill(dataset, request.trueskill_runs or REVISIT_RUNS,
                                 request.settings.seed)
    if request.judgments is not None:
        dataset = with_judgments(dataset, request.judgments, request.trueskill_runs,
                                 request.settings.seed)
    scores = _given(dataset, request) + _scored(dataset, folder, request, progress, warn)
    scores = [aggregated(s, dataset.systems, request.aggregation) for s in scores]
    scores = [_rated_throughout(s, warn) for s in scores]
    if request.synthetic:
        dataset, scores = _synthetic(dataset, scores, request)
    names = [s.name for s in scores]
    if len(set(names)) != len(names):
        raise UsageError("two metrics have the same name: "
                         + ", ".join(sorted({n for n in names if names.count(n) > 1})))
    from m2lsp.metaeval.rating import aggregation_name

    return replace(evaluate(dataset, scores, request.settings),
                   aggregation=aggregation_name(request.aggregation))


def aggregated(scores: MetricScores, systems: Sequence[str], aggregation: str
               ) -> MetricScores:
    """`scores` with its system scores the rating of its sentence scores' pairwise
    comparisons (metaeval.rating), the systems in the dataset's order; unchanged for the
    default aggregation.  The bootstrap resamples the metric's own score, so it is off."""
    from m2lsp.metaeval.rating import aggregation_name, ratings

    name = aggregation_name(aggregation)
    if name == "default":
        return scores
    if scores.sentences is None:
        raise UsageError(f"--aggregation {name}: {scores.name} has no sentence scores to "
                         "compare the systems by (give them with --sentence-scores)")
    sign = 1.0 if scores.higher else -1.0
    found = ratings({s: [None if v is None else sign * v for v in scores.sentences[s]]
                     for s in systems}, name)
    return replace(scores, system=found, resample=None,
                   signature=f"{scores.signature}|aggregation:{name}")


def _synthetic(dataset: Dataset, scores: list[MetricScores], request: MetaEvalRequest
               ) -> tuple[Dataset, list[MetricScores]]:
    from m2lsp.metaeval import gmeg

    if request.aggregation != "default":
        raise UsageError("--synthetic mixes the metric's own statistics; it does not go "
                         "with --aggregation")
    return gmeg.synthetic(dataset, scores, request.synthetic, request.settings.seed)


def _rated_throughout(scores: MetricScores, warn: Callable[[str], None] | None
                      ) -> MetricScores:
    """`scores` without its sentence scores where some sentence has none (an LLM judge
    shows at most five hypotheses a sentence): the sentence level compares the systems
    people ranked, and gec-metrics asks the judge anew for those; that is not done here."""
    if scores.sentences is None or all(v is not None for values in scores.sentences.values()
                                       for v in values):
        return scores
    if scores.sentence_judge is not None:  # the judge's own sentence level
        return replace(scores, sentences=None)
    if warn is not None:
        warn(f"note: {scores.name}: no sentence-level meta-evaluation (some systems' "
             "sentences were not shown to the judge; gec-metrics asks it again with the "
             "systems people ranked, which m2lsp does not yet do)")
    return replace(scores, sentences=None)


def _given(dataset: Dataset, request: MetaEvalRequest) -> list[MetricScores]:
    """The user's own scores, by name: system scores and, under the same name, sentence
    scores (a name with sentence scores alone is ranked by their mean)."""
    systems = dict(request.scores)
    sentences = dict(request.sentence_scores)
    for pairs in (request.scores, request.sentence_scores):
        repeated = sorted({n for n, _ in pairs if [m for m, _ in pairs].count(n) > 1})
        if repeated:
            raise UsageError(f"a second score file for {', '.join(repeated)}")
    higher = request.order == "higher"
    found = []
    for name in dict.fromkeys([*systems, *sentences]):
        per_sentence = (read_sentence_scores(sentences[name], dataset.systems,
                                             _output_sizes(dataset))
                        if name in sentences else None)
        if name in systems:
            system = read_system_scores(systems[name])
        else:
            assert per_sentence is not None
            system = {s: sum(v) / len(v) if v else 0.0 for s, v in per_sentence.items()}
        found.append(MetricScores(name, system, per_sentence, higher,
                                  f"{name}|given|order:{request.order}"))
    return found


def _output_sizes(dataset: Dataset) -> dict[str, int]:
    """Each system's number of output sentences (lines), where its output is there."""
    sizes = {}
    for system in dataset.systems:
        path = dataset.output(system)
        if isinstance(path, Text):  # made in memory (RevisitCGEC's)
            sizes[system] = len(path.source.lines) - 1
        elif path.is_file():
            with open(path, "rb") as handle:
                sizes[system] = sum(1 for _ in handle)
    return sizes


def _scored(dataset: Dataset, folder: Path, request: MetaEvalRequest,
            progress: Progress | None, warn: Callable[[str], None] | None
            ) -> list[MetricScores]:
    if not request.metrics:
        return []
    from m2lsp.metaeval.scores import gold_for, metric_scores
    from m2lsp.scoring.metric import names

    unknown = [m for m in request.metrics if m not in names()]
    if unknown:
        raise UsageError(f"no metric {unknown[0]!r}; the metrics are {', '.join(names())}")
    values = dict(request.options)
    _refuse_unused(values, request.metrics)
    gold: Input | None
    if dataset.prepared is not None:  # RevisitCGEC: the gold of its references
        from m2lsp.config import ScoreSettings
        from m2lsp.metaeval import revisit

        if dataset.prepared.cherrant_data is not None:
            values.setdefault("cherrant_data", dataset.prepared.cherrant_data)
        gold = request.gold or revisit.gold(dataset.prepared, request.config or
                                            ScoreSettings(), values.get("jobs") or 1)
    elif dataset.name == "gmeg":
        from m2lsp.config import ScoreSettings
        from m2lsp.metaeval import gmeg

        gold = request.gold or gmeg.gold(dataset, request.config or ScoreSettings(),
                                         values.get("jobs") or 1)
    else:
        gold = _read_once(request.gold or _gold_beside(folder, _reference_free(request.metrics)))
    references = (gold_for(dataset, gold) if gold is not None
                  else _sources_as_gold(dataset))
    return [metric_scores(dataset, name, references, progress, warn, values, request.config)
            for name in request.metrics]


def _read_once(gold: Input | None) -> Input | None:
    """The M2 gold at a path read and parsed here, once, for every system and metric (each
    read it again: GJG15's 13 systems, 13 times); as given where it cannot be read (the
    metric says why)."""
    from m2lsp.parsing.m2 import ParsedM2

    if gold is None or isinstance(gold, Text):
        return gold
    return ParsedM2.from_file(Path(gold)) or gold


def _reference_free(metrics: Sequence[str]) -> bool:
    from m2lsp.scoring.metric import declared

    return all(declared(m).reference_free for m in metrics)


def _sources_as_gold(dataset: Dataset) -> Text:
    """The dataset's INPUT as an M2 file of S lines (the sources of reference-free metrics,
    as gec-metrics reads them: SEEDA's INPUT.txt)."""
    from m2lsp.parsing.source import read_source

    path = dataset.output("INPUT")
    if not isinstance(path, Text) and not path.is_file():
        raise UsageError(f"{dataset.name}: no INPUT output at {path} to take the sources "
                         "from: give --gold")
    lines = read_source(path, f"{dataset.name}'s INPUT").text.splitlines()
    return Text.of(f"{dataset.name}'s INPUT (as an M2 gold of its S lines)",
                   "".join(f"S {line}\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
                           for line in lines))


def _refuse_unused(values: dict[str, Any], metrics: Sequence[str]) -> None:
    """A UsageError naming each option given that none of the metrics takes."""
    from m2lsp.metaeval.scores import taken_by

    taken = set().union(*(taken_by(m) for m in metrics))
    unused = sorted(k for k in values if k not in taken)
    if unused:
        raise UsageError(f"{', '.join(unused)}: no metric of this meta-evaluation "
                         f"({', '.join(metrics)}) takes {'it' if len(unused) == 1 else 'them'}")


def _gold_beside(folder: Path, sources_will_do: bool = False) -> Path | None:
    """The CoNLL-2014 gold beside the data folder (the layout of m2lsp's test data); else
    None where only sources are needed (reference-free metrics), else a UsageError asking
    for --gold."""
    for candidate in (folder / GOLD_BESIDE, folder.parent / GOLD_BESIDE,
                      folder.parent.parent / GOLD_BESIDE):
        if candidate.is_file():
            return candidate
    if sources_will_do:
        return None
    raise UsageError("scoring with --metric needs the CoNLL-2014 gold: give --gold "
                     "official-2014.combined.m2")


def _refuse_whole_references(metrics: Sequence[str]) -> None:
    from m2lsp.metaeval import revisit

    whole = [m for m in metrics if m in revisit.WHOLE_REFERENCES]
    if whole:
        raise UsageError(f"--metric {whole[0]} on RevisitCGEC: its references vary in "
                         "number (1 to 14 a sentence) and its char-level gold cannot give "
                         "every annotator's sentence; give that metric's scores with "
                         "--scores NAME=FILE (and --sentence-scores)")


def with_trueskill(dataset: Dataset, runs: int, seed: int) -> Dataset:
    """The dataset with the TrueSkill of its own rankings as a human score: the mean mu of
    `runs` runs of grammatical/evaluation's TS.py (run k seeded with seed + k)."""
    from m2lsp.metaeval.datasets import REVISIT_HUMAN
    from m2lsp.metaeval.judgments import read_judgments, trueskill

    found = trueskill(read_judgments(dataset.judgments["rank"]), runs, seed)
    human = {**dataset.human, "TS": tuple(found.get(s, 0.0) for s in dataset.systems)}
    names = {**dataset.human_names, "TS": f"{REVISIT_HUMAN['TS']}, {runs} runs, seed {seed}"}
    return replace(dataset, human=human, human_names=names)


def with_judgments(dataset: Dataset, path: Path, trueskill_runs: int = 0,
                   seed: int = 12345) -> Dataset:
    """The dataset with the Expected Wins of a user's own rankings as one more human score
    (named after the file) -- and their TrueSkill, given runs -- and those rankings for the
    sentence level."""
    from m2lsp.metaeval.judgments import expected_wins, read_judgments, trueskill

    judged = read_judgments(path)
    scores = {f"EW:{path.name}": (expected_wins(judged), f"Expected Wins of {path.name}")}
    if trueskill_runs:
        scores[f"TS:{path.name}"] = (trueskill(judged, trueskill_runs, seed),
                                     f"TrueSkill of {path.name}")
    human, names = dict(dataset.human), dict(dataset.human_names)
    for key, (found, name) in scores.items():
        missing = [s for s in dataset.systems if s not in found]
        if missing:
            raise InputError(f"{path}: ranks none of {', '.join(missing)} above another "
                             "system (its systems: " + ", ".join(sorted(found)) + ")")
        human[key], names[key] = tuple(found[s] for s in dataset.systems), name
    return replace(dataset, human=human, human_names=names,
                   judgments={**dataset.judgments, path.name: path})


def ranking(path: Path, trueskill_runs: int = 0, seed: int = 12345
            ) -> list[tuple[str, float, float | None]]:
    """The systems of an Appraise rankings file by Expected Wins, best first, with their
    TrueSkill given runs."""
    from m2lsp.metaeval.judgments import expected_wins, read_judgments, trueskill

    judged = read_judgments(path)
    wins = expected_wins(judged)
    skill = trueskill(judged, trueskill_runs, seed) if trueskill_runs else {}
    return [(s, v, skill.get(s)) for s, v in sorted(wins.items(), key=lambda x: (-x[1], x[0]))]


def pairs(values: Sequence[str], what: str) -> tuple[tuple[str, Path], ...]:
    """NAME=PATH arguments, checked."""
    found = []
    for value in values:
        name, equals, path = value.partition("=")
        if not equals or not name or not path:
            raise UsageError(f"{what} takes NAME=PATH, not {value!r}")
        found.append((name, Path(path)))
    return tuple(found)
