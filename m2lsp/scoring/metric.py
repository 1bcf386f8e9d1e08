"""One interface for every metric, and the registry the command line and the server loop over.

A metric lives in its own subpackage (`scoring/m2/`, `scoring/errant/`, ...):
- its `__init__.py` declares it as data, `DECLARATION`: its name, help, its own options (so
  the command line builds its flags and the configuration checks its keys without loading
  any metric's code) and its capabilities (per-sentence statistics, annotator agreement,
  scoring an open plain-text file);
- its `metric` module defines `METRIC`, which holds that declaration and does the work:
  `run` reads the inputs, computes per-sentence statistics and returns a `Score`.  A `Score`
  knows its signature (how the numbers were made, sacreBLEU style:
  `NAME|option:value|...|scorer:...`), renders text and JSON, and -- where the metric has
  per-sentence statistics -- hands them to the shared bootstrap and significance code as
  `SentenceStats`.

The server scores an open document through `Metric.in_editor` the same way.

Adding a metric: a folder with an `__init__.py` and a `metric.py`, and one line in
`REGISTRY`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import m2lsp.defaults as defaults

if TYPE_CHECKING:
    from m2lsp.config import ScoreSettings
    from m2lsp.parsing.source import Input

# name -> the metric's package: its DECLARATION, and its `metric` module's METRIC (each
# imported only when used: a command starts faster)
REGISTRY: dict[str, str] = {
    "m2": "m2lsp.scoring.m2",
    "errant": "m2lsp.scoring.errant",
    "cherrant": "m2lsp.scoring.cherrant",
    "cged": "m2lsp.scoring.cged",
    "cgec": "m2lsp.scoring.cgec",
    "gleu": "m2lsp.scoring.gleu",
    "green": "m2lsp.scoring.green",
    "cleme": "m2lsp.scoring.cleme",
    "impara": "m2lsp.scoring.impara",
    "some": "m2lsp.scoring.some",
    "scribendi": "m2lsp.scoring.scribendi",
    "bertscore": "m2lsp.scoring.bertscore",
    "gotoscorer": "m2lsp.scoring.gotoscorer",
    "pt-errant": "m2lsp.scoring.pt_errant",
    "pt-m2": "m2lsp.scoring.pt_m2",
    "llm-s": "m2lsp.scoring.llm_s",
    "llm-e": "m2lsp.scoring.llm_e",
}

REFERENCES = "gleu_references"  # the option of the metrics that read plain references


@dataclass(frozen=True)
class Flag:
    """One option of a metric: its command-line spellings and argparse's keyword arguments
    (`dest`, `default`, `type`, `choices`, `action`, `nargs`, `metavar`)."""

    names: tuple[str, ...]
    help: str
    spec: Mapping[str, Any] = field(default_factory=dict)

    @property
    def dest(self) -> str:
        return self.spec.get("dest") or self.names[-1].lstrip("-").replace("-", "_")

    @property
    def default(self) -> Any:
        if "default" in self.spec:
            return self.spec["default"]
        return False if self.spec.get("action") == "store_true" else None


@dataclass(frozen=True)
class Declaration:
    """What a metric is, as data (its package's `DECLARATION`): enough for the command line,
    the configuration, the editor's settings and `m2lsp.metrics()`, without its code."""

    name: str
    help: str
    flags: tuple[Flag, ...] = ()
    also: tuple[Flag, ...] = ()  # other metrics' flags it honours too (cherrant: errant's)
    shared: frozenset[str] = frozenset()  # the options several metrics take that it
    # honours (by dest)
    per_sentence: bool = False  # has per-sentence statistics: bootstrap intervals and
    # `compare`
    plain_text_document: bool = False  # the editor may score it on an open plain-text
    # file (which is not linted: GLEU's source or hypothesis), not only on M2 or CGED
    agrees: bool = False  # scores one annotator of an M2 gold against another (`m2lsp
    # agree`)
    annotates: str | None = None  # the language ('en', 'zh') of the annotator that turns
    # plain-text references into this metric's M2 gold (the API's references=), if any
    reference_free: bool = False  # scores a system against its sources alone (--source)
    gold: str = "M2"  # what GOLD is: M2 (a `Scorer` reads and parses it once, and holds
    # the document), or another form the metric alone reads ("CGED truth")


@dataclass(frozen=True)
class Shared:
    """The options several metrics take (each honours those its `shared` names), settled:
    the command line's value, else the configuration's, else the default."""

    beta: float = defaults.BETA
    verbose: bool = False
    per_type: bool = False
    sentence_level: bool = False
    sentence_average: bool = False  # also the mean of each sentence's best F (SentM2)
    bootstrap: int = 0  # resamples for 95% intervals (0: none)
    seed: int = 12345
    jobs: int | None = None  # processes (None: the metric's default)
    source: Input | None = None  # the source sentences, one a line

    @classmethod
    def settled(cls, values: Mapping[str, Any], config: ScoreSettings) -> Shared:
        """From option values by `dest` (the command line's, or the API's, each already
        checked): a value not given is the configuration's, else the default."""
        return cls(beta=given(values, "beta", config.beta),
                   verbose=bool(values.get("verbose")), per_type=bool(values.get("per_type")),
                   sentence_level=bool(values.get("sentence_level")),
                   sentence_average=bool(values.get("sentence_average")),
                   bootstrap=given(values, "bootstrap", cls.bootstrap),
                   seed=given(values, "seed", cls.seed), jobs=values.get("jobs"),
                   source=values.get("source"))


@dataclass(frozen=True)
class Request:
    """What a metric is asked to score: the inputs (files, or -- for a metric whose
    `texts` says it takes them -- `parsing.source.Text`s given in memory, read once at the
    edge), the shared options, and the metric's own typed options (what its `options`
    built)."""

    system: Input
    gold: Input | None
    shared: Shared = field(default_factory=Shared)
    options: Any = None
    encoding: str | None = None
    warn: Callable[[str], None] | None = None
    """Where a metric says what the user should know (gold problems, slow sentences)."""
    progress: Callable[[int], Any] | None = None
    """(items) -> a context manager whose value's `at(index, line)` reports progress."""
    usage: str = "m2lsp score SYSTEM GOLD"
    """How the command that asked is run, for a message about arguments in the wrong
    order."""


def given(values: Mapping[str, Any], dest: str, fallback: Any) -> Any:
    """An option's value from the command line (by `dest`; None: not given), else
    `fallback` (the configuration's, or the default)."""
    value = values.get(dest)
    return fallback if value is None else value


@dataclass(frozen=True)
class SentenceStats:
    """Per-sentence statistic vectors that add up to the corpus, and what turns a sum into the
    headline numbers (e.g. P, R, F): enough for bootstrap intervals and paired tests."""

    rows: Sequence[tuple[float, ...]]
    names: tuple[str, ...]
    aggregate: Callable[[tuple[float, ...]], tuple[float, ...]]
    main: int = -1  # which headline number a comparison of systems compares
    scale: float = 1.0  # text shows each number times this (GREEN: 100, as `score` prints)


COUNT_KEYS = ("tp", "fp", "fn", "tn")


@dataclass(frozen=True)
class Numbers:
    """A score's headline numbers at full precision (what the reference tool prints may be
    rounded; printing rounds, not the score), and its edit counts under the same keys for
    every counting metric: tp, fp, fn, and tn where the metric has true negatives."""

    precision: float | None = None
    recall: float | None = None
    f: float | None = None
    counts: Mapping[str, float] = field(default_factory=dict)


class Score(Protocol):
    """A metric's result.  Its optional capabilities are declared here, each with the
    default `ScoreBase` gives (nothing is found by probing for an attribute)."""

    @property
    def signature(self) -> str:
        """How the numbers were made (`NAME|option:value|...`)."""

    def text(self, request: Request) -> str | bytes:
        """What the command prints (bytes: written as they are, e.g. a report with CRLF)."""

    def json(self, request: Request) -> dict[str, Any]:
        """The same as JSON-ready data, with `metric` and `signature`."""

    def sentence_stats(self) -> SentenceStats | None:
        """Per-sentence statistics for the bootstrap and paired tests (default: none)."""

    def headline(self, data: dict[str, Any]) -> dict[str, float]:
        """The numbers a report ranks systems by, from this score's JSON `data` (default:
        the JSON's floats; counts are not scores)."""

    def type_counts(self) -> list[tuple[str, int, int, int, float]]:
        """(type, TP, FP, FN, F) per error type (default: none)."""

    def reviews(self) -> list[Any]:
        """Each sentence's `review.SentenceReview` (default: none)."""

    def main(self, data: dict[str, Any]) -> float | None:
        """The one number that ranks systems (meta-evaluation correlates it with human
        scores), from this score's JSON `data` (default: the number `compare` compares,
        else the first headline number)."""

    def sentence_scores(self) -> list[float | None] | None:
        """Each sentence's own score, in input order, for sentence-level meta-evaluation
        (default: none)."""

    def unrounded(self, data: dict[str, Any]) -> Numbers:
        """Precision, recall, F at full precision and the counts as `Numbers` (default:
        the JSON's `precision`, `recall` and `f`, no counts)."""


class ScoreBase:
    """The defaults of `Score`'s optional capabilities; every metric's score derives from
    it and overrides what it has."""

    def sentence_stats(self) -> SentenceStats | None:
        return None

    def headline(self, data: dict[str, Any]) -> dict[str, float]:
        return {k: v for k, v in data.items() if isinstance(v, float)}

    def type_counts(self) -> list[tuple[str, int, int, int, float]]:
        return []

    def reviews(self) -> list[Any]:
        return []

    def main(self, data: dict[str, Any]) -> float | None:
        stats = self.sentence_stats()
        if stats is not None:
            value = data.get(json_key(stats.names[stats.main]))
            if isinstance(value, float):
                return value
        return next(iter(self.headline(data).values()), None)

    def sentence_scores(self) -> list[float | None] | None:
        return None

    def unrounded(self, data: dict[str, Any]) -> Numbers:
        def number(key: str) -> float | None:
            value = data.get(key)
            return float(value) if isinstance(value, int | float) and not isinstance(
                value, bool) else None
        return Numbers(number("precision"), number("recall"), number("f"))


@dataclass(frozen=True)
class EditorJob:
    """Scoring in the editor: the open document it is asked on (the gold, or for GLEU the
    source or hypothesis), the system's text, the command's options and the settings."""

    uri: str
    text: str
    lines: Sequence[str]
    format: Any  # model.Format of the open document
    document: Any  # its parsed form: M2Document for M2, else None
    system_text: str
    options: Mapping[str, Any]
    settings: Any  # config.ScoreSettings


@dataclass(frozen=True)
class EditorScore:
    """What the editor shows: marks on the open document, a one-line message with the
    signature, and the command's JSON-ready answer."""

    marks: list[Any]  # diagnostic.Diagnostic
    message: str
    data: dict[str, Any]


Steps = Generator[int, None, EditorScore]  # yields sentences done, returns the score
T = TypeVar("T")


def drain(steps: Generator[Any, None, T]) -> T:
    """Run a generator of steps to its end; its return value."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


class Metric(Protocol):
    declaration: Declaration  # its package's DECLARATION; the properties below read it
    editor: str  # how the editor scores it without a live score: "steps" (its in_editor,
    # between requests on the server's loop), "thread" (its in_editor in a thread: it
    # loads and runs models, seconds to minutes), "files" (no editor code of its own: the
    # open gold and the system scored as files, as `m2lsp score` does, in a thread)

    @property
    def name(self) -> str: ...
    @property
    def help(self) -> str: ...
    @property
    def flags(self) -> tuple[Flag, ...]: ...
    @property
    def also(self) -> tuple[Flag, ...]: ...
    @property
    def shared(self) -> frozenset[str]: ...
    @property
    def per_sentence(self) -> bool: ...
    @property
    def plain_text_document(self) -> bool: ...
    @property
    def agrees(self) -> bool: ...

    def agreement(self, scored_m2: str, gold_m2: str, corrected: Sequence[str],
                  beta: float) -> Agreement:
        """One annotator against another (see `MetricBase.agreement`)."""

    def options(self, values: Mapping[str, Any], shared: Shared,
                config: ScoreSettings) -> Any:
        """This metric's own options, typed, from the command line's values (by `dest`) and
        the configuration, checked once: a UsageError names a bad one."""

    def run(self, request: Request) -> Score:
        """Read the inputs and score them (an M2lspError for unusable inputs)."""

    def in_editor(self, job: EditorJob) -> Steps:
        """Score an open document in steps (the server stays responsive between them); an
        M2lspError says why it cannot."""

    def live(self, config: ScoreSettings) -> LiveScoring | None:
        """A score the editor keeps current while the texts change, or None: scored once."""

    def run_many(self, request: Request, systems: Sequence[Input]) -> Sequence[Score]:
        """Several systems against the gold of `request` (for `m2lsp compare`)."""


@dataclass(frozen=True)
class Agreement:
    """One annotator scored against another as a system against its gold (Bryant and Ng
    2015): the counts and P, R, F."""

    tp: int
    fp: int
    fn: int
    precision: float
    recall: float
    f: float


class MetricBase:
    """What a metric has unless it says otherwise: its declaration's facts, no options of
    its own, scored once in the editor (no live score), each system read on its own, no
    annotator agreement."""

    declaration: Declaration
    editor = "files"

    @property
    def name(self) -> str:
        return self.declaration.name

    @property
    def help(self) -> str:
        return self.declaration.help

    @property
    def flags(self) -> tuple[Flag, ...]:
        return self.declaration.flags

    @property
    def also(self) -> tuple[Flag, ...]:
        return self.declaration.also

    @property
    def shared(self) -> frozenset[str]:
        return self.declaration.shared

    @property
    def per_sentence(self) -> bool:
        return self.declaration.per_sentence

    @property
    def plain_text_document(self) -> bool:
        return self.declaration.plain_text_document

    @property
    def agrees(self) -> bool:
        return self.declaration.agrees

    def agreement(self, scored_m2: str, gold_m2: str, corrected: Sequence[str],
                  beta: float) -> Agreement:
        """The annotator of `scored_m2` (whose corrected sentences are `corrected`) against
        the annotator of `gold_m2`, both one-annotator M2 texts of the same sentences."""
        raise NotImplementedError(f"{type(self).__name__} does not score annotators")

    def options(self, values: Mapping[str, Any], shared: Shared,
                config: ScoreSettings) -> Any:
        return None  # no options of its own

    def live(self, config: ScoreSettings) -> LiveScoring | None:
        return None

    def in_editor(self, job: EditorJob) -> Steps:
        """Scored once, derived from the live score where the metric has one: the numbers
        of its first view, without marks (the server keeps the live score instead and
        places its marks)."""
        live = self.live(job.settings)
        if live is None:
            from m2lsp.errors import UsageError

            raise UsageError(f"--metric {self.name} is not available in the editor yet; run "
                             f"`m2lsp score --metric {self.name} SYSTEM GOLD`")
        view = yield from live.steps(job)
        return EditorScore([], f"{view.headline}  ({view.signature})",
                           {"precision": view.precision, "recall": view.recall, "f": view.f,
                            "signature": view.signature, **view.counts})

    def run(self, request: Request) -> Score:
        raise NotImplementedError  # each metric defines it

    def run_many(self, request: Request, systems: Sequence[Input]) -> Sequence[Score]:
        return [self.run(replace(request, system=system)) for system in systems]


class LiveScoring(Protocol):
    """A score the editor keeps current while the gold and the system change (a metric
    that has one offers it as `live(config.ScoreSettings)`)."""

    def update(self, job: EditorJob) -> Any:
        """The current `review.LiveView` of the job's texts, reusing what did not change; an
        M2lspError when they cannot be scored as they are."""

    def steps(self, job: EditorJob) -> Generator[int, None, Any]:
        """`update` in steps (yielding sentences done), for a first score of many."""

    def warm_up(self) -> None:
        """Load now, off the editor's path, what a later update will need (default:
        nothing; ERRANT's spaCy pipeline when the first score came from the cache)."""


class LiveBase:
    """The defaults of `LiveScoring`'s optional capabilities."""

    def warm_up(self) -> None:
        return None


def live_scoring(name: str, config: ScoreSettings) -> LiveScoring | None:
    """The live score of metric `name`, or None if it has none (it scores once)."""
    return metric(name).live(config)


def names() -> list[str]:
    return list(REGISTRY)


def agreeing() -> list[str]:
    """The metrics `m2lsp agree` can score annotators with."""
    return [name for name in REGISTRY if declared(name).agrees]


def comparable() -> list[str]:
    """The metrics with per-sentence statistics, which `compare` can test."""
    return [name for name in REGISTRY if declared(name).per_sentence]


def declared(name: str) -> Declaration:
    """What the registered metric `name` is (its package is imported, not its code)."""
    return importlib.import_module(REGISTRY[name]).DECLARATION


def metric(name: str) -> Metric:
    """The registered metric `name` (its `metric` module is imported now)."""
    return importlib.import_module(REGISTRY[name] + ".metric").METRIC


def bootstrap_text(stats: SentenceStats, request: Request) -> str:
    """The 95% bootstrap intervals of a score's headline numbers, as text."""
    from m2lsp.scoring.bootstrap import confidence

    ci = confidence(stats.rows, stats.aggregate, request.shared.bootstrap, request.shared.seed)
    lines = [f"95% bootstrap intervals ({ci.samples} resamples of sentences, seed {ci.seed}):"]
    k = stats.scale
    lines += [f"{name:<12}: [{k * i.low:.4f}, {k * i.high:.4f}]"
              for name, i in zip(stats.names, ci.intervals, strict=True)]
    return "\n".join(lines) + "\n"


def bootstrap_data(stats: SentenceStats, request: Request) -> dict[str, Any]:
    """The same intervals as JSON-ready data (keys: the names in lower case, `F_0.5` -> `f`)."""
    from m2lsp.scoring.bootstrap import confidence

    ci = confidence(stats.rows, stats.aggregate, request.shared.bootstrap, request.shared.seed)
    data: dict[str, Any] = {"samples": ci.samples, "seed": ci.seed, "level": ci.level}
    for name, interval in zip(stats.names, ci.intervals, strict=True):
        data[json_key(name)] = [interval.low, interval.high]
    return data


def json_key(name: str) -> str:
    """`Precision` -> `precision`, `F_0.5` -> `f`."""
    return "f" if name.startswith("F_") else name.lower().replace(" ", "_")
