"""Per-sentence GLEU statistics, and GLEU from summed statistics.

For a hypothesis H, its source S and one reference R, and each n = 1..order:

- matches: n-grams of H also in R (clipped: min of the counts), *minus* the n-grams of H found
  in S but in no position of R (the source words the reference corrected away: a hypothesis
  is penalised for keeping them); at least 0;
- candidates: the number of n-grams in H.

With the lengths of H and R this is the vector `gleu.py` of JFLEG collects,
`(len H, len R, matches_1, candidates_1, ..., matches_n, candidates_n)`.  Vectors add up over
sentences; GLEU is then exp(min(0, 1 - len R / len H) + mean of log(matches / candidates)), and
0 when any number of the vector is 0.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

ORDER = 4

Tokens = Sequence[str]
Stats = tuple[int, ...]


def ngrams(tokens: Tokens, n: int) -> Counter[tuple[str, ...]]:
    """The n-grams of a token list with their counts."""
    return Counter(zip(*(tokens[i:] for i in range(n)), strict=False))


class SentenceCounts:
    """A hypothesis and its source, counted once and compared with any reference."""

    def __init__(self, source: Tokens, hypothesis: Tokens, order: int = ORDER) -> None:
        self.order, self.length = order, len(hypothesis)
        self.source = [ngrams(source, n) for n in range(1, order + 1)]
        self.hypothesis = [ngrams(hypothesis, n) for n in range(1, order + 1)]

    def against(self, reference: Tokens) -> Stats:
        """The statistics vector of the hypothesis against one reference."""
        out = [self.length, len(reference)]
        for n in range(1, self.order + 1):
            out.append(self._matches(n, ngrams(reference, n)))
            out.append(max(self.length + 1 - n, 0))
        return tuple(out)

    def against_all(self, references: Sequence[Tokens]) -> tuple[Stats, ...]:
        """Against each reference; a reference equal to an earlier one is counted once."""
        seen: dict[tuple[str, ...], Stats] = {}
        for reference in references:
            key = tuple(reference)
            if key not in seen:
                seen[key] = self.against(reference)
        return tuple(seen[tuple(r)] for r in references)

    def _matches(self, n: int, reference: Counter) -> int:
        """Clipped matches minus the clipped source n-grams the reference does not have (set
        operations and `map`: the loops run in C)."""
        hypothesis, source = self.hypothesis[n - 1], self.source[n - 1]
        common = hypothesis.keys() & reference.keys()
        kept = (hypothesis.keys() - common) & source.keys()
        found = sum(map(min, map(hypothesis.__getitem__, common),
                        map(reference.__getitem__, common)))
        penalty = sum(map(min, map(hypothesis.__getitem__, kept),
                          map(source.__getitem__, kept)))
        return max(found - penalty, 0)


def gleu(stats: Stats, smooth: bool = False) -> float:
    """GLEU of (summed) statistics, as `gleu.py` computes it (smooth: every 0 counted as 1, for
    sentence-level scores)."""
    if smooth:
        stats = tuple(s if s != 0 else 1 for s in stats)
    if 0 in stats:
        return 0.0
    hypothesis, reference = stats[0], stats[1]
    logs = 0.0
    for matches, candidates in zip(stats[2::2], stats[3::2], strict=True):
        logs += math.log(float(matches) / candidates)
    # gleu.py divides by 4 whatever the order, and sums the logs left to right
    return math.exp(min(0.0, 1 - float(reference) / hypothesis) + logs / 4)


def gleu_package(stats: Stats) -> float:
    """GLEU of summed statistics as the `gleu` package (Koyama) computes it: a precision with
    no candidates counts as 1 and an empty hypothesis against empty references as a perfect
    length; otherwise as `gleu`."""
    hypothesis, reference = stats[0], stats[1]
    if hypothesis == 0 and reference != 0:
        return 0.0
    penalty = 0.0 if reference < hypothesis or hypothesis == 0 else 1.0 - reference / hypothesis
    logs = _log_precisions(stats)
    return 0.0 if logs is None else math.exp(penalty + logs)


def _log_precisions(stats: Stats) -> float | None:
    """Mean log precision (NumPy's order: sum from 0 then divide), None for a zero precision."""
    total, order = 0.0, (len(stats) - 2) // 2
    for matches, candidates in zip(stats[2::2], stats[3::2], strict=True):
        if candidates == 0:
            continue  # log 1
        if matches == 0:
            return None
        total += math.log(matches / candidates)
    return total / order
