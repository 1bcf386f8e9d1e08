"""CLEME's counts and scores (`cleme/cleme.py`, `cleme/scorers/`): each hypothesis chunk is a
true positive, false positive, false negative or true negative, weighted by its length
(a clamped sigmoid around the mean length of the references' corrected chunks, with the
reference's hyper-parameters from its `constants.py`); the dependent scorer counts against
each reference and keeps the best, the independent scorer against all references at once
(a chunk is right if any reference has it).  The corpus scorer picks each sentence's
reference by the F0.5 of the running totals; the sentence scorer averages each sentence's
best.  Numbers are rounded where the reference rounds them (P, R, F and Acc to 4 places,
the counts to 2), also inside its choice of reference."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from m2lsp.scoring.cleme.chunks import Chunk
from m2lsp.summation import numpy_mean

# (alpha, min, max) for TP, FP, FN; FP's sigmoid is reversed
HYPER = {
    ("dependent", "corpus"): ((2.0, 0.75, 1.25),) * 3,
    ("independent", "corpus"): ((2.0, 0.75, 1.25),) * 3,
    ("dependent", "sentence"): ((10.0, 1.00, 10.0), (10.0, 0.25, 1.00), (10.0, 1.00, 1.00)),
    ("independent", "sentence"): ((10.0, 2.50, 10.0), (10.0, 0.25, 1.00),
                                  (10.0, 1.00, 1.00)),
}
BETA = 0.5


@dataclass(frozen=True)
class Weigher:
    alpha: float
    bias: float
    low: float
    high: float
    reverse: bool

    def __call__(self, length: int) -> float:
        x = length - self.bias if self.reverse else -length + self.bias
        weight = self.alpha * (1 / (1 + (self.alpha - 1) * math.exp(x)))
        return min(max(weight, self.low), self.high)


@dataclass(frozen=True)
class Weighers:
    tp: Weigher
    fp: Weigher
    fn: Weigher


def weighers(scorer: str, level: str, references: Sequence[Sequence[Sequence[Chunk]]]
             ) -> Weighers:
    """The three weighers, centred on the mean length of the references' corrected
    chunks."""
    lengths = [c.length for refs in references for chunks in refs for c in chunks
               if c.corrected]
    bias = sum(lengths) / len(lengths) if lengths else math.nan
    tp, fp, fn = HYPER[(scorer, level)]
    return Weighers(Weigher(*tp[:1], bias, *tp[1:], False), Weigher(*fp[:1], bias, *fp[1:], True),
                    Weigher(*fn[:1], bias, *fn[1:], False))


Counts = tuple[float, float, float, float]  # tp, fp, fn, tn


def dependent(hypothesis: Sequence[Chunk], references: Sequence[Sequence[Chunk]],
              weigh: Weighers) -> list[Counts]:
    """The hypothesis against each reference on its own."""
    out: list[Counts] = []
    for reference in references:
        tp: float = 0  # an int until a chunk is weighed, as the reference prints it
        fp: float = 0
        fn: float = 0
        tn: float = 0
        for chunk, theirs in zip(hypothesis, reference, strict=True):
            if chunk.corrected:
                if chunk.same(theirs):
                    tp += weigh.tp(chunk.length)
                else:
                    fp += weigh.fp(chunk.length)
            elif not chunk.same(theirs):
                fn += weigh.fn(chunk.length)
            else:
                tn += 1.0
        out.append((tp, fp, fn, tn))
    return out


def independent(hypothesis: Sequence[Chunk], references: Sequence[Sequence[Chunk]],
                weigh: Weighers) -> list[Counts]:
    """The hypothesis against all references at once: one count."""
    tp: float = 0
    fp: float = 0
    fn: float = 0
    tn: float = 0
    for k, chunk in enumerate(hypothesis):
        candidates = [r[k] for r in references]
        if chunk.corrected:
            if any(chunk.same(c) for c in candidates):
                tp += weigh.tp(chunk.length)
            else:
                fp += weigh.fp(chunk.length)
        elif all(c.corrected for c in candidates):
            fn += weigh.fn(chunk.length)
        else:
            tn += 1.0
    return [(tp, fp, fn, tn)]


def prf(tp: float, fp: float, fn: float) -> tuple[float, float, float]:
    """P, R, F0.5 as the reference rounds them (P is 1 without false positives, R 1
    without false negatives)."""
    p, r, f = prf_exact(tp, fp, fn)
    return round(p, 4), round(r, 4), round(f, 4)


def prf_exact(tp: float, fp: float, fn: float) -> tuple[float, float, float]:
    """P, R, F0.5 before the reference rounds them."""
    p = tp / (tp + fp) if fp else 1.0
    r = tp / (tp + fn) if fn else 1.0
    f = (1 + BETA ** 2) * p * r / (BETA ** 2 * p + r) if p + r else 0.0
    return p, r, f


def accuracy(tp: float, fp: float, fn: float, tn: float) -> float:
    total = tp + fp + fn + tn
    return round((tp + tn) / total if total else 0.0, 4)


@dataclass(frozen=True)
class CorpusScore:
    sentences: int
    f: float
    acc: float
    p: float
    r: float
    tp: float
    fp: float
    fn: float
    tn: float
    chosen: tuple[Counts, ...]  # each sentence's counts against its chosen reference
    references: tuple[int, ...] = ()  # and which reference that is (independent: 0, all)
    totals: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # TP FP FN TN unrounded


def corpus(results: Sequence[Sequence[Counts]]) -> CorpusScore:
    """Each sentence's reference chosen by the F0.5 of the totals so far (then more TP,
    fewer FP, fewer FN, more TN), summed."""
    total: list[float] = [0, 0, 0, 0]
    chosen: list[Counts] = []
    which: list[int] = []
    for per_reference in results:
        best: tuple[float, float, float, float, float] = (-1.0, 0, 0, 0, 0)
        index = 0
        for k, (tp, fp, fn, tn) in enumerate(per_reference):
            f = prf(total[0] + tp, total[1] + fp, total[2] + fn)[2]
            if (f, tp, -fp, -fn, tn) > (best[0], best[1], -best[2], -best[3], best[4]):
                best, index = (f, tp, fp, fn, tn), k
        counts = (best[1], best[2], best[3], best[4])
        chosen.append(counts)
        which.append(index)
        total = [t + b for t, b in zip(total, counts, strict=True)]
    p, r, f = prf(total[0], total[1], total[2])
    tp, fp, fn, tn = (round(t, 2) for t in total)
    return CorpusScore(len(results), f, accuracy(*total), p, r, tp, fp, fn, tn, tuple(chosen),
                       tuple(which), (total[0], total[1], total[2], total[3]))


@dataclass(frozen=True)
class SentenceScore:
    sentences: int
    f: float
    p: float
    r: float
    acc: float
    each: tuple[tuple[float, float, float, float], ...]  # each sentence's best (F, P, R, Acc)
    references: tuple[int, ...] = ()  # which reference gave it (independent: 0, all)
    means: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # F P R Acc unrounded


def sentence(results: Sequence[Sequence[Counts]]) -> SentenceScore:
    """Each sentence's best reference by F0.5 (then higher P, higher R, lower Acc), and the
    means of the sentences' numbers."""
    each, which = [], []
    for per_reference in results:
        best, index = (-1.0, -1.0, -1.0, -1.0), 0
        for k, (tp, fp, fn, tn) in enumerate(per_reference):
            p, r, f = prf(tp, fp, fn)
            acc = accuracy(tp, fp, fn, tn)
            if (f, p, r, -acc) > (best[0], best[1], best[2], -best[3]):
                best, index = (f, p, r, acc), k
        each.append(best)
        which.append(index)
    means = [numpy_mean([e[k] for e in each]) for k in range(4)]
    f, p, r, acc = (numpy_round(m, 4) for m in means)
    return SentenceScore(len(results), f, p, r, acc, tuple(each), tuple(which),
                         (means[0], means[1], means[2], means[3]))


def numpy_round(value: float, digits: int) -> float:
    """`round` of a NumPy float (the reference rounds np.average's result): times 10^digits,
    to the nearest integer (ties to even), divided back."""
    if math.isnan(value):
        return value
    scale = 10.0 ** digits
    return round(value * scale) / scale


def scored(chunked: Sequence[tuple[Sequence[Chunk], Sequence[Sequence[Chunk]]]], scorer: str,
           level: str) -> CorpusScore | SentenceScore:
    """Every sentence's hypothesis chunks against its references' (`chunked`), weighted,
    counted and scored at the corpus or the sentence level."""
    weigh = weighers(scorer, level, [refs for _, refs in chunked])
    count = dependent if scorer == "dependent" else independent
    results = [count(hyp, refs, weigh) for hyp, refs in chunked]
    return corpus(results) if level == "corpus" else sentence(results)
