"""Sentence-averaged scores (SentM2, SentERRANT), as the meta-evaluation literature compares
them beside the corpus scores (SEEDA, Kobayashi et al. 2024): the mean over sentences of each
sentence's F-beta, each sentence against its own best annotator -- the best among the
annotators the scorer tries for that sentence (those who wrote lines for it), which is not
the corpus-level choice (that one keeps the running corpus F highest).

How a sentence counts, as both scorers count it: precision is 1 when the system proposes no
edit, recall is 1 when the annotator has none, so a sentence where neither the annotator nor
the system edits scores 1, and one where only one of them edits scores 0.  The uncorrected
input therefore scores the share of sentences some annotator leaves as they are.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SentenceAverage:
    f: float  # the mean of the sentences' best F-beta
    sentences: int
    beta: float

    def text(self, name: str) -> str:
        return (f"Sentence-averaged F_{self.beta:g} ({name}): {self.f:.4f} over "
                f"{self.sentences} sentences, each against its best annotator\n")

    def data(self) -> dict[str, float | int]:
        return {"f": self.f, "sentences": self.sentences, "beta": self.beta}


def f_beta(tp: float, fp: float, fn: float, beta: float) -> float:
    """A sentence's F-beta with precision 1 for no proposed edit and recall 1 for no gold
    edit (so no edits on either side is 1)."""
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    square = beta * beta
    return (1 + square) * precision * recall / (square * precision + recall) if (
        precision + recall) else 0.0


def best_per_sentence(per_sentence: Iterable[Sequence[tuple[float, float, float]]],
                      beta: float) -> list[float | None]:
    """Each sentence's best F-beta among its (tp, fp, fn) per annotator (None for a
    sentence with no annotator)."""
    return [max(f_beta(tp, fp, fn, beta) for tp, fp, fn in counts) if counts else None
            for counts in per_sentence]


def averaged(per_sentence: Iterable[Sequence[tuple[float, float, float]]],
             beta: float) -> SentenceAverage:
    """The mean over sentences of the best F-beta among each one's (tp, fp, fn) per
    annotator."""
    best = [f for f in best_per_sentence(per_sentence, beta) if f is not None]
    return SentenceAverage(sum(best) / len(best) if best else 0.0, len(best), beta)
