"""The sentence level of a judge that rates systems side by side (the LLM judges), as
gec-metrics 0.1.2 computes it (`MetaEvalBase.rearange_sent_data` and `corr_sentence`):

- each human ranking becomes one item to judge: its source, and every system's hypothesis
  of that sentence, where a system the ranking leaves out takes the hypothesis of the
  first system it ranks -- so the judge sees just the ranked systems' corrections (at most
  five).  As there, the replacement stays for the sentence's later rankings, and the
  first set of judgments (SEEDA: edit) decides which systems each item shows, for every
  set;
- the judge rates each item (the same prompts, so the same cache, as any run);
- every pair of systems a ranking orders (no tie) is counted: agreed when the judge's
  ratings order them the same way, a judge's tie counting as preferring the second, an
  unrated pair as disagreeing.  Accuracy = agreed / pairs; Kendall = (agreed - disagreed)
  / pairs."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Rate = Callable[[list[str], list[list[str]]], Sequence[Sequence[float | None]]]


@dataclass(frozen=True)
class Flat:
    sources: list[str]
    hypotheses: list[list[str]]  # [system][item]
    human: dict[str, list[list[float | None]]]  # judgments -> [item][system]


def by_sentence(judged: Sequence[Any], lines: Sequence[int]) -> list[tuple[int, list[Any]]]:
    """The judgments grouped by sentence (output line), lines ascending, file order within."""
    groups: dict[int, list[Any]] = {}
    for judgment, line in zip(judged, lines, strict=True):
        groups.setdefault(line, []).append(judgment)
    return sorted(groups.items())


def flattened(aspects: Mapping[str, Sequence[tuple[int, list[Any]]]], systems: Sequence[str],
              sources: Sequence[str], hypotheses: Sequence[Sequence[str]]) -> Flat:
    names = list(aspects)
    others = {n: dict(aspects[n]) for n in names[1:]}
    shown = [list(h) for h in hypotheses]  # changed in place, as gec-metrics changes them
    flat = Flat([], [[] for _ in systems], {n: [] for n in names})
    for line, judgments in aspects[names[0]]:
        for k, judgment in enumerate(judgments):
            scores = judgment.scores(systems)
            if all(s is None for s in scores):
                continue
            _show_ranked(shown, scores, line)
            flat.sources.append(sources[line])
            for column, system_shown in zip(flat.hypotheses, shown, strict=True):
                column.append(system_shown[line])
            flat.human[names[0]].append(scores)
            for name in names[1:]:
                same = others[name].get(line, [])
                flat.human[name].append(same[k].scores(systems) if k < len(same)
                                        else [None] * len(systems))
    return flat


def _show_ranked(shown: list[list[str]], scores: Sequence[float | None], line: int) -> None:
    ranked = [i for i, s in enumerate(scores) if s is not None]
    for i, score in enumerate(scores):
        if score is None:
            shown[i][line] = shown[ranked[0]][line]


def counted(human: Sequence[Sequence[float | None]], tables: Sequence[Any]
            ) -> tuple[int, int, int]:
    """(agreed, disagreed, pairs) over every ordered pair of ranked systems."""
    agreed = disagreed = 0
    for scores, table in zip(human, tables, strict=True):
        for i, j in itertools.combinations(range(len(scores)), 2):
            a, b = scores[i], scores[j]
            if a is None or b is None or a == b:
                continue
            judged = table[i][j]
            if (judged if judged != 0 else -1) == (1 if a > b else -1):
                agreed += 1
            else:
                disagreed += 1
    return agreed, disagreed, agreed + disagreed


def sentence_levels(dataset: Any, judgments: Mapping[str, Sequence[Any]],
                    sources: Sequence[str], hypotheses: Sequence[Sequence[str]],
                    rate: Rate) -> list[tuple[str, float, float, int]]:
    """(judgments, accuracy, Kendall, pairs) for each set of judgments."""
    from m2lsp.metaeval.rating import pairwise

    aspects = {name: by_sentence(judged, dataset.judged_lines(judged))
               for name, judged in judgments.items()}
    flat = flattened(aspects, dataset.systems, sources, hypotheses)
    tables = pairwise(rate(flat.sources, flat.hypotheses))
    found = []
    for name in judgments:
        agreed, disagreed, pairs = counted(flat.human[name], tables)
        found.append((name, agreed / pairs if pairs else float("nan"),
                      (agreed - disagreed) / pairs if pairs else float("nan"), pairs))
    return found
