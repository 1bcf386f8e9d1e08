"""GREEN (Koyama et al. 2024): an n-gram F-score over source S, reference R and corrected
sentence C.  Each n-gram's counts in S, R and C fall into the regions of a Venn diagram:
kept, deleted and inserted as the reference does (true positives), deleted or inserted
where it does not (false positives), and what the reference changes that C does not
(false negatives).  Precision and recall per n are combined by the geometric mean over
n = 1..N, and those into F-beta.

Two variants, each identical to its reference implementation:

- `authors` (shotakoyama/green, `green` 0.1.0): tokens by `str.split()`; precision 1 and
  recall 0 when there is nothing to count; per sentence the reference whose F over 1..N
  is highest (ties: over 1..N-1, and so on; then the first); beta 1 by default;
- `gec-metrics` (gotutiyan/gec-metrics' GREEN): tokens by splitting the stripped sentence
  on single spaces; precision 1 when nothing is wrongly changed, recall 1 when nothing is
  missed; per sentence the first reference with the highest F; beta 2 by default.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

VARIANTS = ("authors", "gec-metrics")
Counts = tuple[int, int, int]  # (TP, FP, FN) of one n


@dataclass(frozen=True)
class GreenSettings:
    n: int = 4
    beta: float = 1.0
    unit: str = "word"  # or "char"
    variant: str = "authors"

    @property
    def alpha(self) -> float:
        """The weight of precision in the authors' F = 1 / (alpha / P + (1 - alpha) / R)."""
        return 1 / (self.beta ** 2 + 1)


@lru_cache(maxsize=65536)
def ngram_counts(sentence: str, n: int, unit: str, variant: str) -> Counter[tuple[str, ...]]:
    """The sentence's n-grams of one size, counted."""
    if variant == "gec-metrics":
        sentence = sentence.strip()
        if not sentence:
            return Counter()
        tokens: Sequence[str] = sentence.split(" ") if unit == "word" else sentence
    else:
        tokens = sentence.split() if unit == "word" else sentence
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def counts(source: str, reference: str, corrected: str, settings: GreenSettings
           ) -> tuple[Counts, ...]:
    """(TP, FP, FN) for each n = 1..N of one corrected sentence against one reference."""
    out = []
    for n in range(1, settings.n + 1):
        s, r, c = (ngram_counts(x, n, settings.unit, settings.variant)
                   for x in (source, reference, corrected))
        tp = fp = fn = 0
        for gram in s.keys() | r.keys() | c.keys():
            ms, mr, mc = s.get(gram, 0), r.get(gram, 0), c.get(gram, 0)
            tp += max(ms - max(mr, mc), 0) + max(min(mr, mc) - ms, 0) + min(ms, mr, mc)
            fp += max(min(ms, mr) - mc, 0) + max(mc - max(ms, mr), 0)
            fn += max(min(ms, mc) - mr, 0) + max(mr - max(ms, mc), 0)
        out.append((tp, fp, fn))
    return tuple(out)


def precision_recall(tp: int, fp: int, fn: int, variant: str) -> tuple[float, float]:
    if variant == "gec-metrics":
        return (1.0 if fp == 0 else tp / (tp + fp)), (1.0 if fn == 0 else tp / (tp + fn))
    return (tp / (tp + fp) if tp + fp > 0 else 1.0), (tp / (tp + fn) if tp + fn > 0 else 0.0)


def cumulative_f(per_n: Sequence[Counts], settings: GreenSettings) -> list[float]:
    """F over n = 1..k for each k (the geometric means of P and R so far)."""
    out = []
    log_p = log_r = 0.0
    for k, (tp, fp, fn) in enumerate(per_n, 1):
        p, r = precision_recall(tp, fp, fn, settings.variant)
        log_p += math.log(p) if p > 0 else -math.inf
        log_r += math.log(r) if r > 0 else -math.inf
        out.append(f_score(math.exp(log_p / k), math.exp(log_r / k), settings))
    return out


def f_score(p: float, r: float, settings: GreenSettings) -> float:
    if settings.variant == "gec-metrics":
        beta = settings.beta
        return (1 + beta ** 2) * p * r / (beta ** 2 * p + r) if p + r else 0.0
    if p == 0 or r == 0:
        return 0.0
    return 1 / (settings.alpha / p + (1 - settings.alpha) / r)


def score(per_n: Sequence[Counts], settings: GreenSettings) -> float:
    """F over n = 1..N."""
    if settings.variant == "gec-metrics":
        return _gec_metrics_f(per_n, settings)
    return cumulative_f(per_n, settings)[-1]


def _gec_metrics_f(per_n: Sequence[Counts], settings: GreenSettings) -> float:
    pairs = [precision_recall(tp, fp, fn, settings.variant) for tp, fp, fn in per_n]
    ps, rs = [p for p, _ in pairs], [r for _, r in pairs]
    p = 0.0 if 0 in ps else math.exp(sum(math.log(x) for x in ps) / len(ps))
    r = 0.0 if 0 in rs else math.exp(sum(math.log(x) for x in rs) / len(rs))
    return f_score(p, r, settings)


def best_reference(candidates: Sequence[tuple[Counts, ...]], settings: GreenSettings) -> int:
    """The index of the reference a sentence is scored against."""
    if settings.variant == "gec-metrics":
        best = 0
        for index in range(1, len(candidates)):
            if score(candidates[best], settings) < score(candidates[index], settings):
                best = index
        return best
    keys = [cumulative_f(c, settings)[::-1] for c in candidates]
    return max(range(len(keys)), key=keys.__getitem__)


@dataclass(frozen=True)
class GreenResult:
    settings: GreenSettings
    chosen: tuple[tuple[Counts, ...], ...]  # each sentence's counts against its reference

    def totals(self) -> tuple[Counts, ...]:
        return tuple((sum(s[n][0] for s in self.chosen), sum(s[n][1] for s in self.chosen),
                      sum(s[n][2] for s in self.chosen)) for n in range(self.settings.n))

    @property
    def f(self) -> float:
        return score(self.totals(), self.settings) if self.chosen else 0.0

    def sentence_f(self, index: int) -> float:
        return score(self.chosen[index], self.settings)


def evaluate(sources: Sequence[str], references: Sequence[Sequence[str]],
             corrected: Sequence[str], settings: GreenSettings) -> GreenResult:
    """Every sentence against its best reference (`references[i]`: sentence i's)."""
    chosen = []
    for source, refs, hypothesis in zip(sources, references, corrected, strict=True):
        candidates = [counts(source, r, hypothesis, settings) for r in refs]
        chosen.append(candidates[best_reference(candidates, settings)])
    return GreenResult(settings, tuple(chosen))
