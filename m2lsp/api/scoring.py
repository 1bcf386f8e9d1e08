"""Scores from Python: `score`, the `Scorer` a training loop keeps (batches, subsets by
index, a corpus score accumulated over batches), and the `Score` every metric returns in
one shape."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import m2lsp.api.inputs as inputs
from m2lsp.api.listing import SHARED
from m2lsp.errors import InputError, M2lspError, UsageError
from m2lsp.parsing.m2 import block_texts
from m2lsp.parsing.source import Input, Text
from m2lsp.scoring.metric import REFERENCES


def plain_references(name: str) -> bool:
    """Whether metric `name` reads plain-text references (`--ref`, the API's references=)
    itself, rather than an M2 gold annotated from them."""
    from m2lsp.scoring.metric import declared

    found = declared(name)
    return any(f.dest == REFERENCES for f in (*found.flags, *found.also))


@dataclass(frozen=True)
class Score:
    """A metric's score, in the same shape for every metric: `precision`, `recall` and
    `f` at full precision (None where the metric has no such number), `counts` with the
    same keys for every counting metric (`tp`, `fp`, `fn`, and `tn` where it has them),
    `score` the number that ranks systems, `signature`, `warnings` (what the command
    line would have said), and `to_dict()`, what `m2lsp score --format json` prints."""

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
    def _numbers(self) -> Any:
        return self._score.unrounded(self.data)

    @property
    def precision(self) -> float | None:
        return self._numbers.precision

    @property
    def recall(self) -> float | None:
        return self._numbers.recall

    @property
    def f(self) -> float | None:
        return self._numbers.f

    @property
    def counts(self) -> dict[str, float]:
        """{tp, fp, fn[, tn]}: edits (M2, ERRANT, ChERRANT) or chunks (CLEME, weighted);
        empty for a metric that does not count (GLEU, GREEN, CGEC, CGED's levels)."""
        return dict(self._numbers.counts)

    @property
    def tp(self) -> float | None:
        return self.counts.get("tp")

    @property
    def fp(self) -> float | None:
        return self.counts.get("fp")

    @property
    def fn(self) -> float | None:
        return self.counts.get("fn")

    @property
    def tn(self) -> float | None:
        return self.counts.get("tn")

    @property
    def score(self) -> float | None:
        """The one number that ranks systems (F0.5 for M2 and ERRANT, GLEU for GLEU...),
        as sacreBLEU's `.score`, at full precision."""
        from m2lsp.scoring.metric import json_key

        stats = self._score.sentence_stats()
        key = json_key(stats.names[stats.main]) if stats is not None else None
        if key in ("precision", "recall", "f") and getattr(self, key) is not None:
            return getattr(self, key)
        return self._score.main(self.data)

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
    def sentence_scores(self) -> list[float | None] | None:
        """Each sentence's own score, in input order, at full precision: what
        sentence-level meta-evaluation reads (M2 and ERRANT: the sentence's F against its
        best annotator; GLEU, GREEN, the learned metrics: their sentence scores); None
        where the metric has none (CGEC, CGED)."""
        found = self._score.sentence_scores()
        return None if found is None else list(found)

    @property
    def per_type(self) -> dict[str, dict[str, float]]:
        """Counts per error type: {type: {tp, fp, fn, f}}."""
        return {t: {"tp": tp, "fp": fp, "fn": fn, "f": f}
                for t, tp, fp, fn, f in self._score.type_counts()}

    @property
    def macro(self) -> dict[str, float] | None:
        """The macro-averaged {precision, recall, f, types} over the error types of
        `per_type` (errant PR #52's definition: types with no edit left out); None when the
        metric does not count by type or no type has an edit."""
        from m2lsp.scoring.macro import macro_average

        beta = self.data.get("beta")
        if not isinstance(beta, int | float):  # counts by type, but not as an F-beta
            return None
        found = macro_average(((t, c["tp"], c["fp"], c["fn"])
                               for t, c in self.per_type.items()), beta)
        return None if found is None else found.data()

    def flat(self) -> dict[str, Any]:
        """The numbers under the JSON's keys (its numbers, the counts, `precision`,
        `recall` and `f` at full precision) and the signature: one level, as `evaluate`
        modules and a Trainer's `compute_metrics` return them."""
        out: dict[str, Any] = {k: v for k, v in self.data.items()
                               if isinstance(v, int | float) and not isinstance(v, bool)}
        for key in ("precision", "recall", "f"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        out.update(self.counts)
        out["signature"] = self.signature
        return out

    def confidence(self, samples: int = 1000, seed: int = 12345) -> dict[str, Any]:
        """95% bootstrap intervals of the headline numbers over sentences, as
        `--bootstrap` prints them."""
        import m2lsp.arguments as arguments
        from m2lsp.scoring.metric import Shared, bootstrap_data

        stats = self._score.sentence_stats()
        if stats is None:
            raise UsageError(f"{self.metric} has no per-sentence statistics to resample")
        checked = int(inputs.counted(arguments.SAMPLES, "samples", samples))
        request = replace(self._request, shared=replace(
            self._request.shared if self._request else Shared(), bootstrap=checked,
            seed=int(inputs.counted(arguments.SEED, "seed", seed))))
        return bootstrap_data(stats, request)

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v:.4f}" for k, v in self.headline.items())
        return f"Score({self.metric}: {shown})"

    def _repr_html_(self) -> str:
        from html import escape

        cells = "".join(f"<tr><th>{escape(k)}</th><td>{v:.4f}</td></tr>"
                        for k, v in self.headline.items())
        return (f"<table><caption>{escape(self.metric)}</caption>{cells}</table>"
                f"<small><code>{escape(self.signature)}</code></small>")


def score(system: Any, gold: Any = None, *, metric: str = "m2", sources: Any = None,
          references: Any = None, ids: Sequence[int] | None = None, **options: Any) -> Score:
    """Score `system` against `gold` (or against `references` of `sources`) with `metric`,
    as `m2lsp score` does: `score(...).to_dict()` is its `--format json`.  `ids`: the
    gold's sentences (0-based indices) the system's sentences are, in their order."""
    with Scorer(metric, gold=gold, sources=sources, references=references,
                **options) as scorer:
        return scorer.score(system, ids=ids)


class Scorer:
    """One metric and one gold, kept for many scores (a training loop): the gold is read
    once, and ERRANT's spaCy pipeline loads once, at the first score that needs it.

    - `score(hypotheses)` scores the whole gold; `score(hypotheses, ids=[...])` the gold's
      sentences at those indices (0-based), the hypotheses in that order.
    - `update(hypotheses, ids=None)` adds a batch (by default the sentences after the last
      batch's), `compute()` scores every sentence added so far, in the gold's order, as one
      corpus (equal to scoring them at once: corpus scores are not averages of batches),
      and `reset()` starts again.
    """

    def __init__(self, metric: str = "m2", *, gold: Any = None, sources: Any = None,
                 references: Any = None, **options: Any) -> None:
        from m2lsp.scoring.metric import names

        if not isinstance(metric, str):
            raise inputs.refuse("metric", metric, "a metric's name (a str)")
        if metric not in names():
            raise UsageError(f"no metric {metric!r}; the metrics are {', '.join(names())}")
        self.metric = metric
        self._folder = inputs.Files()
        self._batch: dict[int, str] = {}
        self._next = 0
        self._file: tuple[Path, tuple | None] | None = None  # the gold's file, as read
        self._unit_cache: list[str] | None = None
        with self._speaking():
            self._values, self._shared, self._options = _options(metric, options)
            self.gold = self._gold(gold, sources, references)
            self._subsets: dict[tuple[int, ...], tuple[Input | None, Any]] = {}

    # -- scoring ------------------------------------------------------------------------

    def score(self, system: Any, *, ids: Sequence[int] | None = None) -> Score:
        """The score of `system` (an input: path, text or list of sentences) against the
        gold, or against its sentences `ids` (indices, 0-based, the system's sentences in
        their order)."""
        from m2lsp.logs import collected
        from m2lsp.scoring.metric import Request
        from m2lsp.scoring.metric import metric as registered

        warnings: list[str] = []
        with self._speaking():
            self._fresh()
            gold, options = self._subset(ids)
            path = self._folder.file(system, "the system")
            request = Request(path, gold, self._shared, options, warn=warnings.append,
                              usage=f"m2lsp.score(system, gold, metric={self.metric!r})")
            self._fits(system, ids)
            with collected(warnings.append, once=True):
                found = registered(self.metric).run(request)
                data = found.json(request)
        cleaned = tuple(self._folder.cleaned(w) for w in dict.fromkeys(warnings))
        return Score(self.metric, found.signature, _cleaned(data, self._folder), cleaned,
                     found, request)

    def update(self, hypotheses: Any, ids: Sequence[int] | None = None) -> None:
        """Add a batch of hypotheses (a list of sentences), for the gold's sentences `ids`
        (default: those after the last batch's)."""
        found = inputs.sentences(hypotheses, "hypotheses")
        if ids is None:
            ids = range(self._next, self._next + len(found))
        chosen = _indices(ids, self.size)
        if len(chosen) != len(found):
            raise InputError(f"a batch of {len(found)} hypotheses for {len(chosen)} ids")
        taken = [i for i in chosen if i in self._batch]
        if taken:
            raise InputError(f"sentence {taken[0]} is already in this corpus (reset() "
                             f"starts another)")
        self._batch.update(zip(chosen, found, strict=True))
        self._next = max(self._next, max(chosen, default=-1) + 1)

    def compute(self) -> Score:
        """The score of every sentence `update` added, as one corpus, in the gold's order
        (all of them: the same as scoring the whole corpus at once)."""
        if not self._batch:
            raise UsageError("compute(): no hypotheses yet; add them with update()")
        ids = sorted(self._batch)
        whole = ids == list(range(self.size))
        return self.score([self._batch[i] for i in ids], ids=None if whole else ids)

    def reset(self) -> None:
        """Forget the batches `update` added."""
        self._batch.clear()
        self._next = 0

    @property
    def size(self) -> int:
        """The number of sentences of the gold (or of the sources of plain references)."""
        return len(self._units())

    def close(self) -> None:
        """Nothing to release: the Scorer holds no file and no folder (kept so that code
        which closes a Scorer, or uses it in `with`, runs on)."""

    def __enter__(self) -> Scorer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what the metric reads ----------------------------------------------------------

    @contextmanager
    def _speaking(self) -> Iterator[None]:
        """An M2lspError raised inside comes out in the API's words, naming inputs as the
        user gave them."""
        try:
            yield
        except M2lspError as exc:
            raise type(exc)(inputs.api_words(self._folder.cleaned(str(exc)))) from None

    def _gold(self, gold: Any, sources: Any, references: Any) -> Input | None:
        from m2lsp.scoring.metric import declared

        if gold is not None:
            if references is not None:
                raise UsageError("give gold= or references=, not both")
            if sources is not None:
                if "source" not in declared(self.metric).shared:
                    raise UsageError(f"{self.metric} reads the sources from its gold: give "
                                     "gold= without sources=")
                self._set("source", self._folder.file(sources, "the sources"))
            return self._held(self._folder.file(gold, "the gold"))
        if references is None:
            if sources is not None and declared(self.metric).reference_free:
                self._set("source", self._folder.file(sources, "the sources"))
                return None
            if sources is not None:
                raise UsageError("sources= goes with references= (or with gold=)")
            return None
        if sources is None:
            raise UsageError("references= needs sources= (the sentences they correct)")
        columns = inputs.several(references, "references")
        if plain_references(self.metric):
            self._set("source", self._folder.file(sources, "the sources"))
            self._set(REFERENCES,
                      [self._folder.file(c, f"reference {k + 1}")
                       for k, c in enumerate(columns)])
            return None
        lang = declared(self.metric).annotates
        if lang is None:
            raise UsageError(f"{self.metric} cannot take references=: give its gold=")
        from m2lsp.api.annotating import annotate

        m2 = annotate(sources, columns, lang=lang, **self._annotation_options())
        return self._held(self._folder.file(m2, "the gold (annotated from references=)"))

    def _held(self, given: Input) -> Input:
        """The gold as the Scorer holds it: an M2 gold read (a path: here, once) and parsed
        once (`ParsedM2`), what each score reads of it kept with it; a gold of another
        form, or a file that does not read as UTF-8 text, as given (its metric says what
        is wrong with it, in its words).  The process keeps the last few (files.kept): a
        `score()` after another on the same gold parses it no more than a Scorer does."""
        from m2lsp.files.kept import identity, kept
        from m2lsp.parsing.m2 import ParsedM2
        from m2lsp.scoring.metric import declared

        if declared(self.metric).gold != "M2":
            return given
        if isinstance(given, Text):
            return kept(given, ("parsed-m2", given.name),
                        lambda: ParsedM2.read(given.name, given.source))
        seen = identity(given)  # before reading: a write meanwhile is read at the next score
        found = kept(given, ("parsed-m2", str(given)), lambda: ParsedM2.from_file(given))
        if found is None:
            return given
        self._file = (given, seen)
        return found

    def _fresh(self) -> None:
        """The gold read again where its file changed on disk since it was read (a user
        who corrects the gold between scores means the corrected one)."""
        from m2lsp.files.kept import identity

        if self._file is None or identity(self._file[0]) == self._file[1]:
            return
        self.gold = self._held(self._file[0])
        self._subsets.clear()
        self._unit_cache = None

    def _set(self, dest: str, value: Any) -> None:
        """An option's value (a path the API made), and the metric's options again."""
        from m2lsp.config import config_for
        from m2lsp.scoring.metric import Shared, metric

        self._values[dest] = [_option(v) for v in value] if isinstance(value, list) else value
        config = config_for([]).score
        self._shared = Shared.settled(self._values, config)
        self._options = metric(self.metric).options(self._values, self._shared, config)

    def _annotation_options(self) -> dict[str, Any]:
        from m2lsp.scoring.metric import declared

        model = self._values.get("spacy_model")
        english = declared(self.metric).annotates == "en"
        return {"spacy_model": model} if model and english else {}

    def _units(self) -> list[str]:
        """The gold's sentences as units to take subsets of: M2 blocks, or the lines of
        the sources of plain references."""
        cached = self._unit_cache
        if cached is None:
            if isinstance(self.gold, Text):
                cached = block_texts(self.gold.text)
            elif self.gold is not None:
                cached = block_texts(self.gold.read_text(encoding="utf-8"))
            elif self._values.get("source") is not None:
                cached = _lines(self._values["source"])
            else:
                raise UsageError(f"{self.metric}: no gold to take sentences of")
            self._unit_cache = cached
        return cached

    def _subset(self, ids: Sequence[int] | None) -> tuple[Input | None, Any]:
        """The gold and the options for the sentences `ids` (all: as they are)."""
        if ids is None:
            return self.gold, self._options
        chosen = tuple(_indices(ids, self.size))
        if chosen not in self._subsets:
            self._subsets[chosen] = self._made_subset(chosen)
        return self._subsets[chosen]

    def _made_subset(self, chosen: tuple[int, ...]) -> tuple[Input | None, Any]:
        from m2lsp.config import config_for
        from m2lsp.scoring.metric import metric

        if self.metric == "cged":
            raise UsageError("cged scores sentences by their ids in the truth file: give "
                             "the results of the sentences to score, without ids=")
        values = dict(self._values)
        for dest in ("source", REFERENCES):
            if values.get(dest) is not None:
                values[dest] = _lines_subset(values[dest], chosen)
        gold: Input | None = None
        if self.gold is not None:
            blocks = self._units()
            text, name = "".join(blocks[i] for i in chosen), \
                f"the gold's sentences {_shown(chosen)}"
            gold = self._held(Text.of(name, text))
        config = config_for([]).score
        shared = replace(self._shared, source=_input(values.get("source")))
        return gold, metric(self.metric).options(values, shared, config)

    def _fits(self, system: Any, ids: Sequence[int] | None) -> None:
        """Where a list of hypotheses does not match the gold's sentences, say how to
        score part of it."""
        if not isinstance(system, list | tuple) or ids is not None or self.metric == "cged":
            return
        if self.gold is None and self._values.get("source") is None:
            return
        if len(system) != self.size:
            raise InputError(f"{inputs.named(system, 'the system')} against "
                             f"{self.size} sentences of the gold: to score some of them, "
                             f"give ids= (their indices), or add batches with update() and "
                             f"score them with compute()")


def _indices(ids: Any, size: int) -> list[int]:
    """Sentence indices, checked: ints within the gold, each once."""
    if isinstance(ids, str | bytes) or not isinstance(ids, Sequence | range):
        raise inputs.refuse("ids", ids, "a list of sentence indices (int)")
    found = []
    for k, value in enumerate(ids):
        if isinstance(value, bool) or not isinstance(value, int):
            raise UsageError(f"ids: item {k} is {inputs.kind_of(value)}, not an index (int)")
        if not 0 <= value < size:
            raise InputError(f"ids: {value} is not a sentence of the gold (0 to {size - 1})")
        found.append(value)
    if len(set(found)) != len(found):
        raise UsageError("ids: an index given twice")
    return found


def _shown(chosen: Sequence[int]) -> str:
    return ", ".join(map(str, chosen[:5])) + (", ..." if len(chosen) > 5 else "")


def _lines_subset(value: Any, chosen: tuple[int, ...]) -> Any:
    """A file option (a path, a text in memory, or a list of them) cut to the lines
    `chosen`, as a text in memory."""
    if isinstance(value, list):
        return [_lines_subset(v, chosen) for v in value]
    lines = _lines(value)
    text = "".join(lines[i] + "\n" for i in chosen)
    return Text.of(f"{value} (its lines {_shown(chosen)})", text)


def _lines(value: Any) -> list[str]:
    """The lines of a file option's value (a path, or a text in memory)."""
    if isinstance(value, Text):
        return value.text.splitlines()
    return Path(value).read_text(encoding="utf-8").splitlines()


def _option(value: Any) -> Any:
    """A file option's value as the metric's options take it: a text in memory as it is,
    a path as a str (as the command line gives it)."""
    return value if isinstance(value, Text) else str(value)


def _input(value: Any) -> Input | None:
    """The shared `source` as a Request reads it."""
    if value is None or isinstance(value, Text):
        return value
    return Path(value)


def _cleaned(data: Any, files: inputs.Files) -> Any:
    """The JSON data with every temporary path named as the user gave it (walked only
    when a temporary path is in it: a sentence-level answer has tens of thousands of
    values, and the paths are in a few of them)."""
    import json

    try:
        text = json.dumps(data, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):  # not JSON through and through
        return _walked(data, files)
    if not files.holds(text):
        return data
    if json.loads(text) != data:  # a tuple, an int key: the text would not give it back
        return _walked(data, files)
    return json.loads(files.cleaned(text, lambda name: json.dumps(name)[1:-1]))


def _walked(data: Any, files: inputs.Files) -> Any:
    if isinstance(data, str):
        return files.cleaned(data) if files.holds(data) else data
    if isinstance(data, dict):
        return {k: _walked(v, files) for k, v in data.items()}
    if isinstance(data, list):
        return [_walked(v, files) for v in data]
    return data


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


def checked_options(name: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """Options from an editor or another caller, by `dest`: each one metric `name`
    declares checked as the API checks it (a UsageError says which and why); the others
    are left as they are, for the caller to read."""
    from m2lsp.scoring.metric import metric

    chosen = metric(name)
    flags = {f.dest: f for f in (*chosen.flags, *chosen.also)}
    return {key: _checked(flags[key], key, value) if key in flags else value
            for key, value in given.items()}


def _checked(flag: Any, key: str, value: Any) -> Any:
    """A value as its declared type, action and choices take it (a UsageError says why
    not): a number where a number goes, True or False for a switch, a str for a name."""
    import m2lsp.arguments as arguments

    kind = {"beta": arguments.BETA, "jobs": arguments.JOBS, "seed": arguments.SEED}.get(key)
    spec = flag.spec if flag is not None else {}
    kind = spec.get("type", kind)
    if value is None:
        return None
    if isinstance(kind, arguments.Number):
        return inputs.counted(kind, key, value)
    if spec.get("action") == "store_true":
        if not isinstance(value, bool):
            raise inputs.refuse(key, value, "True or False")
        return value
    if "choices" in spec:
        if value not in spec["choices"]:
            raise UsageError(f"{key}: {value!r} is not one of "
                             f"{', '.join(map(str, spec['choices']))}")
        return value
    if spec.get("nargs") in ("+", "*"):
        if isinstance(value, str | os.PathLike):
            value = [value]
        if not isinstance(value, list | tuple) or not all(
                isinstance(v, str | os.PathLike) for v in value):
            raise inputs.refuse(key, value, "a list of paths or names")
        return [str(v) for v in value]
    if key != "source" and not isinstance(value, str | os.PathLike):
        raise inputs.refuse(key, value, "a str")
    return value


def _source(value: Any) -> Path | None:
    if value is None:
        return None
    if isinstance(value, Path):
        return value
    if inputs.is_path(value):
        return Path(value)
    raise UsageError("source= is a path here; give the sources as sources= (a path, a "
                     "text or a list of sentences)")
