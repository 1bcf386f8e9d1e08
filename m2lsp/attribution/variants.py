"""Sentence scores of many edited sentences with any metric that scores sentences: each
sentence ("unit") is scored against its own sentence's gold, so the gold is made again,
one copy a unit (an M2 gold's block, the source line, each reference's line), beside a
system of the units, and the metric runs once over them as over any corpus: as texts in
memory for a metric that takes them, else as files in a temporary folder.  The
numbers are those `m2lsp score --metric M` gives each sentence."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from m2lsp.errors import InputError, UsageError
from m2lsp.parsing.source import Input
from m2lsp.scoring.metric import REFERENCES, Metric, Request, Shared

Unit = tuple[int, str]  # (the sentence's index, an edited sentence)


@dataclass(frozen=True)
class Scoring:
    """A metric with its option values (by dest), the configuration and the shared options
    the command settled; the gold (M2) if any, and the encoding of the given files."""

    metric: Metric
    values: Mapping[str, Any]
    config: Any  # config.ScoreSettings
    shared: Shared
    gold: Input | None
    encoding: str | None = None


@dataclass(frozen=True)
class Scored:
    scores: list[float]  # each unit's, in order
    signature: str  # the metric's, without its hash of the inputs (they were the units)


def score_units(scoring: Scoring, units: Sequence[Unit]) -> Scored:
    """Each unit's sentence score, in order."""
    if not units:
        return Scored([], "")
    if scoring.metric.name == "m2" and scoring.gold is not None:
        fast = _m2_in_memory(scoring, units)
        if fast is not None:
            return fast
    score = scoring.metric.run(_text_request(scoring, units))
    found = score.sentence_scores()
    if found is None:
        raise UsageError(f"--metric {scoring.metric.name} does not score sentences one by "
                         "one: it cannot be explained")
    missing = next((k for k, s in enumerate(found) if s is None), None)
    if missing is not None or len(found) != len(units):
        raise InputError(f"--metric {scoring.metric.name} gave no score to an edited "
                         f"sentence of sentence {units[missing or 0][0] + 1}")
    kept = [f for f in score.signature.split("|") if not f.startswith(("refs-hash:", "m2lsp:"))]
    return Scored([float(s) for s in found], "|".join(kept))  # type: ignore[arg-type]


def _m2_in_memory(scoring: Scoring, units: Sequence[Unit]) -> Scored | None:
    """M2's sentence scores of the units without writing them out: each unit scored against
    its sentence of the gold (read once), as `--metric m2` scores a system line (stripped
    as the scorer strips it), its best annotator's F (the metric's sentence score).  None
    where the gold's sentences are not the explained ones one for one."""
    from m2lsp.scoring.m2 import py2
    from m2lsp.scoring.m2.maxmatch import score_sentence
    from m2lsp.scoring.m2.metric import M2Score
    from m2lsp.scoring.sentence_average import best_per_sentence

    request = _plain_request(scoring)
    job = scoring.metric.scoring(request)  # type: ignore[attr-defined]
    gold = job.gold(scoring.gold)
    if max(i for i, _ in units) >= len(gold):
        return None
    settings = job.settings
    results = [score_sentence(i, gold[i], py2.strip(text), settings) for i, text in units]
    counts = [[(c, p - c, g - c) for c, p, g in (a.counts for a in r.attempts)]
              for r in results]
    scores = best_per_sentence(counts, settings.beta)
    if any(s is None for s in scores):
        return None
    signature = M2Score(tuple(results), settings, ()).signature
    kept = [f for f in signature.split("|") if not f.startswith(("refs-hash:", "m2lsp:"))]
    return Scored([float(s) for s in scores], "|".join(kept))  # type: ignore[arg-type]


def _plain_request(scoring: Scoring) -> Request:
    from m2lsp.config import config_for

    options = scoring.metric.options(scoring.values, scoring.shared,
                                     scoring.config or config_for([]).score)
    return Request(scoring.gold or Path(), scoring.gold, scoring.shared, options,
                   scoring.encoding)


def _text_request(scoring: Scoring, units: Sequence[Unit]) -> Request:
    """The units, and their sentences of the gold, the sources and the references, as
    texts in memory."""
    from m2lsp.config import config_for
    from m2lsp.parsing.source import Text

    chosen = [i for i, _ in units]
    values = dict(scoring.values)
    system = Text.of_lines("the edited sentences", [text for _, text in units])
    gold = None
    if scoring.gold is not None:
        blocks = _blocks(scoring.gold, scoring.encoding)
        gold = Text.of(f"{scoring.gold} (the sentences explained)",
                       "".join(blocks[i] for i in chosen))
    if values.get("source") is not None:
        values["source"] = _cut(values["source"], chosen, scoring.encoding)
    if values.get(REFERENCES):
        values[REFERENCES] = [_cut(r, chosen, scoring.encoding) for r in values[REFERENCES]]
    shared = replace(scoring.shared, source=values.get("source"), sentence_level=False,
                     per_type=False, verbose=False, bootstrap=0, sentence_average=False)
    options = scoring.metric.options(scoring.values, shared, scoring.config or
                                     config_for([]).score)
    return Request(system, gold, shared, options, "utf-8")


def _cut(given: Any, chosen: Sequence[int], encoding: str | None) -> Any:
    """A file option's lines `chosen` (a path, or a text in memory), as a text."""
    from m2lsp.parsing.source import Text
    from m2lsp.scoring.sentence_inputs import read

    lines, _ = read(given, "lines", encoding)
    return Text.of_lines(f"{given} (the sentences explained)", [lines[i] for i in chosen])


def _blocks(gold: Input, encoding: str | None) -> list[str]:
    from m2lsp.parsing.m2 import block_texts
    from m2lsp.parsing.source import read_source

    return block_texts(read_source(gold, "gold", encoding).text)
