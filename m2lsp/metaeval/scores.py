"""A registry metric's scores of a dataset's systems: each system output scored as `m2lsp
score` scores it, against the CoNLL-2014 gold of the sentences the dataset judged (SEEDA:
the gold blocks whose S line is each line of its INPUT; GJG15: the whole test set).  The
system score is the metric's main number (F0.5, GLEU); the sentence scores are each
sentence's own (SentM2, SentERRANT, sentence GLEU)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

from m2lsp.errors import InputError, UsageError
from m2lsp.metaeval.datasets import Dataset
from m2lsp.metaeval.evaluate import MetricScores
from m2lsp.parsing.source import Input, Text

Progress = Callable[[int], AbstractContextManager[Any]]


def gold_for(dataset: Dataset, gold: Input, folder: Path | None = None) -> Input:
    """The M2 gold of the dataset's outputs, line for line: for SEEDA the CoNLL-2014
    blocks of its judged sentences, in its order (a text in memory; a file in `folder`
    where one is given)."""
    if dataset.name != "seeda":
        return gold
    from m2lsp.parsing.source import read_source

    blocks: dict[str, str] = {}
    for block in read_source(gold, "gold").text.replace("\r\n", "\n").split("\n\n"):
        first = block.strip("\n").split("\n", 1)[0]
        if first.startswith("S "):
            blocks.setdefault(first[2:].rstrip(), block.strip("\n"))
    sources = read_source(dataset.output("INPUT"), "SEEDA's INPUT").text.splitlines()
    missing = [i + 1 for i, s in enumerate(sources) if s.rstrip() not in blocks]
    if missing:
        raise InputError(f"{gold}: SEEDA's INPUT line {missing[0]} is no S line of it (the "
                         f"gold must be CoNLL-2014's official-2014.combined.m2)")
    text = "\n\n".join(blocks[s.rstrip()] for s in sources) + "\n\n"
    if folder is None:
        return Text.of(f"{gold} (SEEDA's sentences)", text)
    path = folder / "seeda-subset.m2"
    path.write_text(text, encoding="utf-8")
    return path


def metric_scores(dataset: Dataset, name: str, gold: Input | None,
                  progress: Progress | None = None, warn: Callable[[str], None] | None = None,
                  values: Mapping[str, Any] | None = None, config: Any = None
                  ) -> MetricScores:
    """Every system of `dataset` scored with registry metric `name` against `gold` (the
    M2 file of the outputs' sentences), with the option `values` (by dest) it takes and
    the [tool.m2lsp] settings `config` (`config.ScoreSettings`; default: the defaults).
    ERRANT as gec-metrics scores it (`--errant-variant gec-metrics`) is given the gold's
    sources and its annotators' corrected sentences as plain text, and annotates them
    (gec-metrics' ERRANT never reads the gold's own edits)."""
    from m2lsp.config import ScoreSettings

    config = config if config is not None else ScoreSettings()
    mine = {k: v for k, v in (values or {}).items() if k in taken_by(name)}
    if plain_references(name, mine):  # ERRANT, which takes texts
        found = dict(mine, **references_of(gold))
        return _scores(dataset, name, None, progress, warn, found, config)
    return _scores(dataset, name, gold, progress, warn, mine, config)


def _scores(dataset: Dataset, name: str, gold: Input | None, progress: Progress | None,
            warn: Callable[[str], None] | None, mine: dict[str, Any], config: Any
            ) -> MetricScores:
    """`metric_scores` with the metric's own option values `mine`, settled."""
    from m2lsp.scoring.metric import Request, Shared, metric

    chosen = metric(name)
    shared = Shared.settled(mine, config)
    options = chosen.options(mine, shared, config)
    found, sentences, stats = {}, {}, {}
    first = Request(_output(dataset, dataset.systems[0], name), gold, shared, options,
                    warn=warn)
    ticker = progress(len(dataset.systems)) if progress else nullcontext(None)
    with ticker as tick:
        for system, request, score in _run(dataset, name, chosen, first, tick):
            main = score.main(score.json(request))
            if main is None:
                raise UsageError(f"--metric {name} has no single number to rank systems by")
            found[system] = main
            sentences[system] = score.sentence_scores()
            stats[system] = score.sentence_stats()
    signature = str(score.signature)
    unrated = getattr(chosen, "side_by_side", False)
    return MetricScores(name, found, _complete(sentences, unrated), signature=signature,
                        resample=_resampler(stats), sentence_count=_count(stats),
                        mix=_mixer(stats), sentence_judge=_judge(dataset, name, chosen, first))


def plain_references(name: str, values: Mapping[str, Any]) -> bool:
    """Whether metric `name` with option `values` scores against plain-text references
    made from the gold (ERRANT as gec-metrics) rather than against the gold's edits."""
    return (name == "errant" and values.get("errant_variant") == "gec-metrics"
            and not values.get("gleu_references"))


def references_of(gold: Input | None, folder: Path | None = None) -> dict[str, Any]:
    """The gold's S lines and each annotator's corrected sentences, one sentence a line
    (what gec-metrics' download script makes of the CoNLL-2014 gold: INPUT, REF0, REF1),
    as the option values `--source` and `--ref`: texts in memory, or files in `folder`
    where one is given."""
    from m2lsp.scoring.sentence_inputs import from_m2

    if gold is None:
        raise UsageError("--errant-variant gec-metrics needs the gold's references")
    sources, references, _ = from_m2(gold, None)
    if folder is None:
        return {"source": Text.of_lines("the gold's sources", sources),
                "gleu_references": [
                    Text.of_lines(f"the gold's annotator {k}", [r[k] for r in references])
                    for k in range(len(references[0]) if references else 0)]}
    source = folder / "INPUT.txt"
    source.write_text("".join(f"{s}\n" for s in sources), encoding="utf-8")
    paths = []
    for k in range(len(references[0]) if references else 0):
        path = folder / f"REF{k}.txt"
        path.write_text("".join(f"{r[k]}\n" for r in references), encoding="utf-8")
        paths.append(str(path))
    return {"source": source, "gleu_references": paths}


def _judge(dataset: Dataset, name: str, chosen: Any, first: Any) -> Any:
    """For a metric that judges systems side by side: its sentence level, the judge asked
    about each human ranking's systems (metaeval.judge_sentences)."""
    if not getattr(chosen, "side_by_side", False):
        return None
    from dataclasses import replace

    from m2lsp.metaeval.judge_sentences import sentence_levels

    read = [chosen.sentences(replace(first, system=_output(dataset, s, name)))
            for s in dataset.systems]

    def rate(sources: list[str], systems: list[list[str]]) -> Any:
        from m2lsp.scoring.llm.judged import Judge

        judged, _ = chosen.judged(first.options, sources, systems,
                                  Judge(first.options, chosen.label))
        return judged.ratings

    def judge(data: Any, judgments: Mapping[str, Sequence[Any]]) -> list[Any]:
        return sentence_levels(data, judgments, read[0].sources,
                               [r.hypotheses for r in read], rate)
    return judge


def _run(dataset: Dataset, name: str, chosen: Any, first: Any, tick: Any
         ) -> Iterator[tuple[str, Any, Any]]:
    """Each system, its request and its score: one system after another, or all in one
    run for a metric that judges them side by side (the LLM judges)."""
    from dataclasses import replace

    requests = [replace(first, system=_output(dataset, s, name)) for s in dataset.systems]
    if getattr(chosen, "side_by_side", False):
        if tick is not None:
            tick.at(0)
        scores = chosen.run_many(first, [r.system for r in requests])
        yield from zip(dataset.systems, requests, scores, strict=True)
        return
    for index, (system, request) in enumerate(zip(dataset.systems, requests, strict=True)):
        if tick is not None:
            tick.at(index)
        yield system, request, chosen.run(request)


def _output(dataset: Dataset, system: str, metric: str) -> Input:
    if dataset.prepared is not None:
        from m2lsp.metaeval import revisit

        return revisit.output_for(dataset.prepared, system, metric)
    return dataset.output(system)


SHARED_OPTIONS = ("beta", "jobs")  # what a metric's shared options may be given here


def taken_by(name: str) -> set[str]:
    """The option dests metric `name` takes in a meta-evaluation: its own flags (and those
    it shares with another metric), and the shared beta and jobs where it has them."""
    from m2lsp.scoring.metric import declared

    chosen = declared(name)
    return ({f.dest for f in (*chosen.flags, *chosen.also)}
            | {s for s in SHARED_OPTIONS if s in chosen.shared})


def _complete(sentences: dict[str, Any], unrated: bool = False
              ) -> dict[str, Sequence[float]] | None:
    """The sentence scores, where every system has them: a sentence without a score (a
    CGEC sentence ChERRANT does not score) counts as 0, but for a metric that leaves some
    hypotheses unrated (`unrated`: the LLM judges), whose None the rankings skip."""
    if any(v is None for v in sentences.values()):
        return None
    if unrated:
        return {s: list(v) for s, v in sentences.items()}
    return {s: [0.0 if x is None else x for x in v] for s, v in sentences.items()}


def _count(stats: dict[str, Any]) -> int:
    return min((len(s.rows) for s in stats.values() if s is not None), default=0)


def _mixer(stats: dict[str, Any]) -> Callable[[Sequence[str]], float] | None:
    """The main number of an output made of the systems' sentences (sentence k from
    `chosen[k]`): their per-sentence statistics summed, where every system has them."""
    if not stats or any(s is None for s in stats.values()):
        return None
    first = next(iter(stats.values()))

    def mix(chosen: Sequence[str]) -> float:
        width = len(first.rows[0]) if first.rows else 0
        sums = [0.0] * width
        for k, system in enumerate(chosen):
            for j, value in enumerate(stats[system].rows[k]):
                sums[j] += value
        return float(first.aggregate(sums)[first.main])
    return mix


def _resampler(stats: dict[str, Any]) -> Callable[[Sequence[int]], dict[str, float]] | None:
    """Each system's main number on a resample of the sentences (their per-sentence
    statistics summed over it), where every system has per-sentence statistics."""
    if not stats or any(s is None for s in stats.values()):
        return None
    from m2lsp.scoring.bootstrap import Columns

    columns = {system: (Columns(s.rows), s.aggregate, s.main) for system, s in stats.items()}

    def resample(sample: Sequence[int]) -> dict[str, float]:
        return {system: aggregate(c.sums(sample))[main]
                for system, (c, aggregate, main) in columns.items()}
    return resample
