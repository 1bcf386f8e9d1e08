"""Edit counts that may be weighted (floats), with P, R and F-beta as gec-metrics' Score
computes them (P is 1 without false positives, R 1 without false negatives, F 0 when both
are 0), and ERRANT's order of two sentence scores: F, then TP, then fewer FP, then fewer
FN.  GoToScorer and PT-ERRANT add them up sentence by sentence, in the reference tool's
order (float sums)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Counts:
    tp: float = 0.0
    fp: float = 0.0
    fn: float = 0.0
    tn: float = 0.0
    beta: float = 0.5

    def plus(self, other: Counts) -> Counts:
        return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn,
                      self.tn + other.tn, self.beta)

    @property
    def precision(self) -> float:
        return 1.0 if self.fp == 0 else self.tp / (self.tp + self.fp)

    @property
    def recall(self) -> float:
        return 1.0 if self.fn == 0 else self.tp / (self.tp + self.fn)

    @property
    def f(self) -> float:
        p, r, beta = self.precision, self.recall, self.beta
        return float((1 + beta ** 2) * p * r) / ((beta ** 2) * p + r) if p + r else 0.0

    def before(self, other: Counts) -> bool:
        """gec-metrics' `self < other`: [f, tp, -fp, -fn] in order."""
        return [self.f, self.tp, -self.fp, -self.fn] < [other.f, other.tp, -other.fp,
                                                        -other.fn]
