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
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress, repeat
from operator import add, eq, mul

try:  # built from _green.c when a C compiler was there at install time
    from m2lsp.scoring.green import _green as compiled  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - exercised where no compiler is installed
    compiled = None

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


Occurrences = tuple[frozenset[object], int]  # one n: the set of occurrences, their number


@lru_cache(maxsize=32768)
def occurrences(sentence: str, largest: int, unit: str, variant: str
                ) -> tuple[Occurrences, ...]:
    """For n = 1..largest, the sentence's n-grams as a set of occurrences (an n-gram that
    occurs m times is there as the n-gram itself, then (n-gram, 2) ... (n-gram, m)), and
    their number: the sets' intersections are the multisets' (their sizes are sums of
    minimum counts)."""
    return tuple(_occurring(grams) for grams in ngrams(sentence, largest, unit, variant))


def _occurring(grams: list[int]) -> Occurrences:
    found: set[object] = set(grams)
    if len(found) < len(grams):
        # sorted, an n-gram's second, third ... occurrences follow its first: each round
        # keeps those equal to their neighbour (all in C), the next occurrence of each
        rest, k = sorted(grams), 2
        while True:
            rest = list(compress(rest[1:], map(eq, rest[1:], rest[:-1])))
            if not rest:
                break
            found.update(zip(rest, repeat(k)))
            k += 1
    return frozenset(found), len(grams)


_IDS: dict[str, int] = {}  # every word seen, numbered (an n-gram's key is built from them)
WIDTH = 1 << 32  # more than any number of words or of Unicode code points


def ngrams(sentence: str, largest: int, unit: str, variant: str) -> list[list[int]]:
    """The sentence's n-grams for n = 1..largest, each as an integer that stands for it one
    to one: its tokens' numbers (`token_ids`) as the digits of a number in base WIDTH.
    Ints hash in no time, where tuples of strings compute their hash again at every set
    operation, and the keys are built by arithmetic over whole lists (in C)."""
    keys = list(token_ids(sentence, unit, variant))
    out = [keys]
    for n in range(2, largest + 1):
        keys = list(map(add, map(mul, keys[:-1], repeat(WIDTH)), out[0][n - 1:]))
        out.append(keys)
    return out


@lru_cache(maxsize=32768)
def token_ids(sentence: str, unit: str, variant: str) -> tuple[int, ...]:
    """The sentence's tokens as numbers (a word's number in `_IDS`, a character's code
    point): `str.split()` (authors) or the stripped sentence split on single spaces
    (gec-metrics; an empty one has no tokens)."""
    if variant == "gec-metrics":
        sentence = sentence.strip()
        if not sentence:
            return ()
        tokens: Sequence[str] = sentence.split(" ") if unit == "word" else sentence
    else:
        tokens = sentence.split() if unit == "word" else sentence
    if unit != "word":
        return tuple(map(ord, tokens))
    ids = _IDS
    return tuple([ids[t] if t in ids else ids.setdefault(t, len(ids)) for t in tokens])


def counts(source: str, reference: str, corrected: str, settings: GreenSettings
           ) -> tuple[Counts, ...]:
    """(TP, FP, FN) for each n = 1..N of one corrected sentence against one reference.

    Per n-gram with counts s, r, c in source, reference and corrected sentence, GREEN
    counts TP = min(r, c) + max(s - max(r, c), 0), FP = max(min(s, r) - c, 0) +
    max(c - max(s, r), 0) and FN = max(min(s, c) - r, 0) + max(r - max(s, c), 0).  Summed
    over n-grams these are sums of minimums: with A = |S & R|, B = |S & C|, X = |R & C|
    and T = |S & R & C| (multiset intersections), TP = X + |S| - A - B + T,
    FP = A + |C| - B - X and FN = B + |R| - A - X; the intersections are set operations
    in C (`occurrences`), or the compiled `_green.counts` sorts each size's n-grams and
    adds the minimums.  tests/scoring/test_green_counts.py checks them against the
    per-n-gram sums."""
    largest, unit, variant = settings.n, settings.unit, settings.variant
    if compiled is not None:
        return compiled.counts(token_ids(source, unit, variant),
                               token_ids(reference, unit, variant),
                               token_ids(corrected, unit, variant), largest)
    return python_counts(source, reference, corrected, settings)


def python_counts(source: str, reference: str, corrected: str, settings: GreenSettings
                  ) -> tuple[Counts, ...]:
    """`counts` by sets of occurrences: the oracle of the compiled counts, and what runs
    where no C compiler built them."""
    out = []
    largest, unit, variant = settings.n, settings.unit, settings.variant
    for (s, size_s), (r, size_r), (c, size_c) in zip(
            occurrences(source, largest, unit, variant),
            occurrences(reference, largest, unit, variant),
            occurrences(corrected, largest, unit, variant), strict=True):
        sr = s & r
        a, b, x, t = len(sr), len(s & c), len(r & c), len(sr & c)
        out.append((x + size_s - a - b + t, a + size_c - b - x, b + size_r - a - x))
    return tuple(out)


def precision_recall(tp: int, fp: int, fn: int, variant: str) -> tuple[float, float]:
    if variant == "gec-metrics":
        return (1.0 if fp == 0 else tp / (tp + fp)), (1.0 if fn == 0 else tp / (tp + fn))
    return (tp / (tp + fp) if tp + fp > 0 else 1.0), (tp / (tp + fn) if tp + fn > 0 else 0.0)


def cumulative_f(per_n: Sequence[Counts], settings: GreenSettings) -> list[float]:
    """F over n = 1..k for each k (the geometric means of P and R so far)."""
    if settings.variant != "authors":
        return _cumulative_f(per_n, settings)
    # the authors' variant, written out (the same operations as precision_recall and
    # f_score in the same order: the same floats), as choosing a reference calls it for
    # every sentence and reference
    out = []
    log_p = log_r = 0.0
    alpha = settings.alpha
    rest = 1 - alpha
    log, exp, inf = math.log, math.exp, math.inf
    for k, (tp, fp, fn) in enumerate(per_n, 1):
        p = tp / (tp + fp) if tp + fp > 0 else 1.0
        r = tp / (tp + fn) if tp + fn > 0 else 0.0
        log_p += log(p) if p > 0 else -inf
        log_r += log(r) if r > 0 else -inf
        p, r = exp(log_p / k), exp(log_r / k)
        out.append(0.0 if p == 0 or r == 0 else 1 / (alpha / p + rest / r))
    return out


def _cumulative_f(per_n: Sequence[Counts], settings: GreenSettings) -> list[float]:
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
