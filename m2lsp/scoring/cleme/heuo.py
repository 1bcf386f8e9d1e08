"""CLEME2.0's breakdown (THUKElab/CLEME at e90abea, `HEUOEditScorer`): each hypothesis chunk
is a hit (true positive), a wrong correction (a false positive where the reference corrects:
"necessary"), an over-correction (a false positive where it does not: "unnecessary"), an
under-correction (a false negative) or a true negative; HIT, ERR, UND and OVE are their
shares, and COM their weighted sum with the scorer's factors (corpus 0.45/0.35/0.15/0.05,
sentence 0.35/0.25/0.20/0.20, as its `main.py` sets them).

Four rows, as the reference prints them: at the corpus level (each sentence's reference
chosen by the COM of the running totals, then more TP, fewer FP, fewer FN, more TN) and at
the sentence level (each sentence's best by COM, then HIT, lower ERR, UND, OVE; the
indicators averaged as NumPy averages), each unweighted (chunks counted) and weighted
(chunks weighed).  The weights that need no neural model: `none` (every chunk 1) and
`length` -- the reference's LengthWeigher, whose constructor drops its arguments, so its
defaults are what it uses (alpha 2, TP/FP/FN clamped to [0.75, 1.25], TN 1), centred on the
mean length of the references' corrected chunks.  `similarity`, the reference's default for
CLEME2.0, weighs each chunk by BERTScore (`similarity`; the model is the caller's).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from m2lsp.scoring.cleme.chunks import Chunk
from m2lsp.summation import numpy_mean

FACTORS = {"corpus": (0.45, 0.35, 0.15, 0.05), "sentence": (0.35, 0.25, 0.20, 0.20)}
LENGTH = (2.0, 0.75, 1.25)  # the LengthWeigher's defaults (alpha, min, max) for TP, FP, FN
WEIGHERS = ("none", "length", "similarity")
ROWS = ("corpus_unweighted", "corpus_weighted", "sentence_unweighted", "sentence_weighted")


@dataclass(frozen=True)
class Counts:
    """One sentence against one reference (or a sum of them): chunks counted, or weighed."""

    tp: float
    fp: float
    fn: float
    tn: float
    fp_ne: float
    fp_un: float

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn,
                      self.tn + other.tn, self.fp_ne + other.fp_ne, self.fp_un + other.fp_un)

    @property
    def fields(self) -> tuple[float, ...]:
        return self.tp, self.fp, self.fn, self.tn, self.fp_ne, self.fp_un

    @property
    def necessary(self) -> float:
        return self.tp + self.fp_ne + self.fn


NONE = Counts(0, 0, 0, 0, 0, 0)


@dataclass(frozen=True)
class Row:
    """One line of the reference's table: the indicators, and the counts they come from."""

    com: float
    hit: float
    err: float
    und: float
    ove: float
    counts: Counts


@dataclass(frozen=True)
class Heuo:
    """The four rows, and each sentence's chosen reference at the corpus level."""

    rows: dict[str, Row]
    chosen: tuple[Counts, ...]  # unweighted, each sentence against its corpus-level choice
    factors: tuple[float, float, float, float]
    weigher: str


def indicators(factors: Sequence[float], tp: float, fn: float, fp_ne: float, fp_un: float
               ) -> tuple[float, float, float, float, float]:
    """HIT, ERR, UND, OVE and COM (`compute_comprehensive_indicator`)."""
    ne = tp + fp_ne + fn
    fp = fp_ne + fp_un
    hit = float(tp) / ne if ne else 0.0
    err = float(fp_ne) / ne if ne else 0.0
    und = float(fn) / ne if ne else 0.0
    ove = float(fp_un) / (tp + fp) if (tp + fp) else 0.0
    com = (factors[0] * hit + factors[1] * (1 - err) + factors[2] * (1 - und)
           + factors[3] * (1 - ove))
    return hit, err, und, ove, com


def _weight(length: int, bias: float, reverse: bool) -> float:
    """The LengthWeigher's weight of a chunk, as its NumPy computes it, without NumPy (not
    a core dependency): `math.exp` gives `numpy.exp`'s doubles (tested on every chunk length
    of the CoNLL-2014 runs and a sweep), an overflow is NumPy's inf, and the clip keeps a
    NaN as `numpy.clip` does."""
    alpha, low, high = LENGTH
    x = length - bias if reverse else -length + bias
    try:
        grown = math.exp(x)
    except OverflowError:
        grown = math.inf
    weight = alpha * (1 / (1 + (alpha - 1) * grown))
    return weight if math.isnan(weight) else min(max(weight, low), high)


Kinds = dict[str, list[Chunk]]


def _dependent(hypothesis: Sequence[Chunk], references: Sequence[Sequence[Chunk]]
               ) -> list[Kinds]:
    out = []
    for reference in references:
        kinds: Kinds = {k: [] for k in ("tp", "fp", "fn", "tn", "fp_ne", "fp_un")}
        for chunk, theirs in zip(hypothesis, reference, strict=True):
            if chunk.corrected:
                if chunk.same(theirs):
                    kinds["tp"].append(chunk)
                else:
                    kinds["fp"].append(chunk)
                    kinds["fp_ne" if theirs.corrected else "fp_un"].append(chunk)
            else:
                kinds["tn" if chunk.same(theirs) else "fn"].append(chunk)
        out.append(kinds)
    return out


def _independent(hypothesis: Sequence[Chunk], references: Sequence[Sequence[Chunk]]
                 ) -> list[Kinds]:
    kinds: Kinds = {k: [] for k in ("tp", "fp", "fn", "tn", "fp_ne", "fp_un")}
    for k, chunk in enumerate(hypothesis):
        candidates = [r[k] for r in references]
        if chunk.corrected:
            if any(chunk.same(c) for c in candidates):
                kinds["tp"].append(chunk)
            else:
                kinds["fp"].append(chunk)
                kinds["fp_ne" if any(c.corrected for c in candidates) else "fp_un"].append(chunk)
        else:
            kinds["fn" if all(c.corrected for c in candidates) else "tn"].append(chunk)
    return [kinds] * len(references)


def _counted(kinds: Kinds) -> Counts:
    return Counts(*(len(kinds[k]) for k in ("tp", "fp", "fn", "tn", "fp_ne", "fp_un")))


Weigh = Callable[[str, Chunk], float]  # (kind, chunk) -> its weight


def _weighed(kinds: Kinds, weigh: Weigh) -> Counts:
    """Each kind's sum of weights, in chunk order (as the reference sums them)."""
    def total(kind: str) -> float:
        return sum([weigh(kind, c) for c in kinds[kind]])
    return Counts(total("tp"), total("fp"), total("fn"), total("tn"), total("fp_ne"),
                  total("fp_un"))


def _by_length(bias: float) -> Weigh:
    """The LengthWeigher: TP and FN grow as a chunk is shorter than the bias, FP as it is
    longer; TN weighs 1."""
    def weigh(kind: str, chunk: Chunk) -> float:
        if kind == "tn":
            return 1.0
        return _weight(chunk.length, bias, kind in ("fp", "fp_ne", "fp_un"))
    return weigh


def _by_index(weights: dict[int, float]) -> Weigh:
    """Weights found for one sentence and reference (`similarity`); TN weighs 1."""
    def weigh(kind: str, chunk: Chunk) -> float:
        return 1.0 if kind == "tn" else weights[chunk.index]
    return weigh


def _unit(kind: str, chunk: Chunk) -> float:
    return 1.0


def corpus(results: Sequence[Sequence[Counts]], factors: Sequence[float]
           ) -> tuple[Row, tuple[Counts, ...]]:
    """`score_corpus`: each sentence's reference by the COM of the running totals."""
    total = NONE
    chosen = []
    for per_reference in results:
        best_key: tuple[float, ...] = (-1.0, 0, 0, 0, 0)
        best = NONE
        for c in per_reference:
            com = indicators(factors, total.tp + c.tp, total.fn + c.fn,
                             total.fp_ne + c.fp_ne, total.fp_un + c.fp_un)[4]
            key = (com, c.tp, -c.fp, -c.fn, c.tn)
            if key > best_key:
                best_key, best = key, c
        chosen.append(best)
        total = total + best
    hit, err, und, ove, com = indicators(factors, total.tp, total.fn, total.fp_ne, total.fp_un)
    return Row(com, hit, err, und, ove, total), tuple(chosen)


def sentence(results: Sequence[Sequence[Counts]], factors: Sequence[float]) -> Row:
    """`score_sentence`: each sentence's best reference by its own COM (then HIT, lower
    ERR, UND, OVE); the indicators averaged, the counts summed."""
    total = NONE
    each: list[tuple[float, float, float, float, float]] = []
    for per_reference in results:
        best_key: tuple[float, ...] = (-1.0, -1.0, 1.0, 1.0, 1.0)
        best, values = NONE, (-1.0, -1.0, -1.0, -1.0, -1.0)
        for c in per_reference:
            hit, err, und, ove, com = indicators(factors, c.tp, c.fn, c.fp_ne, c.fp_un)
            key = (com, hit, -err, -und, -ove)
            if key > best_key:
                best_key, best, values = key, c, (com, hit, err, und, ove)
        each.append(values)
        total = total + best
    com, hit, err, und, ove = (numpy_mean([e[k] for e in each]) for k in range(5))
    return Row(com, hit, err, und, ove, total)


def bias_of(references: Sequence[Sequence[Sequence[Chunk]]]) -> float:
    """The mean length of the references' corrected chunks (the LengthWeigher's bias)."""
    lengths = [c.length for refs in references for chunks in refs for c in chunks
               if c.corrected]
    return sum(lengths) / len(lengths) if lengths else float("nan")


def scored(chunked: Sequence[tuple[Sequence[Chunk], Sequence[Sequence[Chunk]]]], scorer: str,
           level: str, weigher: str, similar: Callable[[list[list[Kinds]]], list[list[dict[
               int, float]]]] | None = None) -> Heuo:
    """The four rows for every sentence's hypothesis chunks against its references'
    (`similar`: the `similarity` weigher's weights of each sentence's kinds per reference)."""
    factors = FACTORS[level]
    classify = _dependent if scorer == "dependent" else _independent
    kinds = [classify(hyp, refs) for hyp, refs in chunked]
    counted = [[_counted(k) for k in per] for per in kinds]
    if weigher == "similarity":
        assert similar is not None, "the similarity weigher needs its weights"
        found = similar(kinds)
        weighed = [[_weighed(k, _by_index(w)) for k, w in zip(per, ws, strict=True)]
                   for per, ws in zip(kinds, found, strict=True)]
    else:
        weigh = _by_length(bias_of([refs for _, refs in chunked])) if weigher == "length" \
            else _unit
        weighed = [[_weighed(k, weigh) for k in per] for per in kinds]
    corpus_unweighted, chosen = corpus(counted, factors)
    rows = {"corpus_unweighted": corpus_unweighted,
            "corpus_weighted": corpus(weighed, factors)[0],
            "sentence_unweighted": sentence(counted, factors),
            "sentence_weighted": sentence(weighed, factors)}
    return Heuo(rows, chosen, factors, weigher)
