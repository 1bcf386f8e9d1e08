"""GLEU as gec-metrics 0.1.2 computes it (its `GLEU` class, GREEN's reformulation of GLEU).

Per n-gram g of the hypothesis H, with its counts in the source S, H and the reference R:

- TI = max(min(R, H) - S, 0) and TK = min(S, H, R) are true positives,
- OI = max(H - max(S, R), 0) is a false positive,
- UD = max(min(S, H) - R, 0) takes one true positive away and adds two false positives;

n-gram precision is TP / (TP + FP) (1 with no false positive), and GLEU the brevity penalty
times the geometric mean of the n precisions (0 when one is not positive).  Unlike JFLEG's
`gleu.py`, the source n-grams a hypothesis keeps against the reference are counted each
time they occur, a negative TP is not raised to 0, the mean divides by n (not 4), the
sentence level is not smoothed, and the iterations are averaged by a plain sum.  Tokens are
split on single spaces (or are characters, unit `char`); an empty sentence has no n-gram but
one token of length.  The draws of references are JFLEG's (`random.seed(j * 101)` and
`randint` under Python 3).

A statistics vector is (len H, len R, then for each n: TP + FP, FP), every entry a count at
least 0, so vectors add up over sentences (and pack, `corpus.iteration_sums`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from m2lsp.scoring.gleu.corpus import iteration_sums
from m2lsp.scoring.gleu.sampling import jfleg_choices

Stats = tuple[int, ...]


def units(sentence: str, unit: str) -> Sequence[str]:
    """The tokens gec-metrics counts: words split on single spaces, or characters."""
    if unit == "char":
        return sentence
    return sentence.split(" ") if sentence else []


def length(sentence: str, unit: str) -> int:
    """gec-metrics' length of a sentence: `len(s.split(' '))` (1 for an empty one), or its
    characters."""
    return len(sentence) if unit == "char" else len(sentence.split(" "))


def all_ngrams(sentence: str, order: int, unit: str) -> Counter[tuple[str, ...]]:
    """Every n-gram for n = 1 .. order, with its count."""
    tokens = units(sentence, unit)
    return Counter(tuple(tokens[i:i + n]) for n in range(1, order + 1)
                   for i in range(len(tokens) - n + 1))


def sentence_stats(source: str, hypothesis: str, references: Sequence[str], order: int,
                   unit: str) -> tuple[Stats, ...]:
    """The hypothesis's statistics against each reference."""
    s, h = all_ngrams(source, order, unit), all_ngrams(hypothesis, order, unit)
    hyp_length = length(hypothesis, unit)
    out = []
    for reference in references:
        r = all_ngrams(reference, order, unit)
        counts = [0] * (2 * order)
        for gram, mh in h.items():
            ms, mr = s.get(gram, 0), r.get(gram, 0)
            ti, tk = max(min(mr, mh) - ms, 0), min(ms, mh, mr)
            oi, ud = max(mh - max(ms, mr), 0), max(min(ms, mh) - mr, 0)
            k = 2 * (len(gram) - 1)
            counts[k] += ti + tk + oi + ud  # TP + FP
            counts[k + 1] += oi + 2 * ud  # FP
        out.append((hyp_length, length(reference, unit), *counts))
    return tuple(out)


def score(stats: Stats, order: int) -> float:
    """GLEU of (summed) statistics, as gec-metrics' `aggregate_score`."""
    hyp_length, ref_length = stats[0], stats[1]
    precisions = []
    for total, fp in zip(stats[2::2], stats[3::2], strict=True):
        precisions.append(1.0 if fp == 0 else (total - fp) / total)
    if any(p <= 0 for p in precisions):
        return 0.0
    log_bp = min(0, 1 - ref_length / hyp_length)
    return math.exp(log_bp + sum(math.log(p) for p in precisions) / order)


def table(sources: Sequence[str], references: Sequence[Sequence[str]],
          hypotheses: Sequence[str], order: int, unit: str) -> tuple[tuple[Stats, ...], ...]:
    """Each sentence's statistics against each of its references (lines stripped, as
    gec-metrics reads files)."""
    return tuple(sentence_stats(s.strip(), h.strip(), [r.strip() for r in refs], order, unit)
                 for s, refs, h in zip(sources, references, hypotheses, strict=True))


def corpus_iterations(stats: Sequence[Sequence[Stats]], iterations: int, order: int
                      ) -> tuple[float, ...]:
    """The corpus GLEU of each iteration, one reference a sentence drawn as gec-metrics
    draws it."""
    count = len(stats[0]) if stats else 0
    choices = jfleg_choices(iterations, len(stats), count)
    return tuple(score(s, order) for s in iteration_sums(stats, choices, 2 + 2 * order))


def mean(values: Sequence[float]) -> float:
    """gec-metrics' mean: `sum(values) / len(values)`, left to right."""
    return sum(values) / len(values)


def sentence_scores(stats: Sequence[Sequence[Stats]], order: int) -> list[float]:
    """Each sentence's GLEU: the mean over its references, unsmoothed."""
    return [mean([score(s, order) for s in row]) for row in stats]
