"""The score of a metric of weighted edit counts (GoToScorer, PT-ERRANT): each sentence's
counts as the corpus score chose them (summed in order: gec-metrics' float sums), each
sentence's own F (its best reference by ERRANT's order, which may differ from the corpus
choice), P, R and F-beta of the sums.  Bootstrap and `compare` resample the sentences'
counts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from m2lsp.scoring.metric import Numbers, Request, ScoreBase, SentenceStats
from m2lsp.scoring.signature import Signature, signed
from m2lsp.scoring.weighted_counts import Counts


@dataclass(frozen=True)
class CountedScore(ScoreBase):
    metric: str
    base: Signature
    chosen: tuple[Counts, ...]
    sentence_f: tuple[float, ...]
    beta: float
    hashed: tuple[str, ...]

    @property
    def total(self) -> Counts:
        total = Counts(beta=self.beta)
        for counts in self.chosen:
            total = total.plus(counts)
        return total

    @property
    def signature(self) -> str:
        return signed(self.base, *self.hashed)

    def text(self, request: Request) -> str:
        t = self.total
        lines = [f"{'Precision':<12}: {t.precision:.4f}", f"{'Recall':<12}: {t.recall:.4f}",
                 f"{f'F_{self.beta:g}':<12}: {t.f:.4f}",
                 f"TP {t.tp:g}  FP {t.fp:g}  FN {t.fn:g}  TN {t.tn:g}"]
        if request.shared.sentence_level:
            lines += [f"{i + 1}\t{f:.4f}" for i, f in enumerate(self.sentence_f)]
        out = "\n".join(lines) + "\n"
        if request.shared.bootstrap:
            from m2lsp.scoring.metric import bootstrap_text

            out += "\n" + bootstrap_text(self.sentence_stats(), request)
        return out + f"\n{self.signature}\n"

    def json(self, request: Request) -> dict[str, Any]:
        t = self.total
        data: dict[str, Any] = {
            "metric": self.metric, "signature": self.signature, "system": str(request.system),
            "precision": t.precision, "recall": t.recall, "f": t.f, "beta": self.beta,
            "counts": {"tp": t.tp, "fp": t.fp, "fn": t.fn, "tn": t.tn},
            "sentence_scores": list(self.sentence_f)}
        if request.shared.bootstrap:
            from m2lsp.scoring.metric import bootstrap_data

            data["bootstrap"] = bootstrap_data(self.sentence_stats(), request)
        return data

    def headline(self, data: dict[str, Any]) -> dict[str, float]:
        return {k: data[k] for k in ("precision", "recall", "f")}

    def unrounded(self, data: dict[str, Any]) -> Numbers:
        t = self.total
        return Numbers(t.precision, t.recall, t.f, {"tp": t.tp, "fp": t.fp, "fn": t.fn,
                                                    "tn": t.tn})

    def sentence_scores(self) -> list[float | None]:
        return list(self.sentence_f)

    def sentence_stats(self) -> SentenceStats:
        rows = [(c.tp, c.fp, c.fn, c.tn) for c in self.chosen]
        beta = self.beta

        def aggregate(sums: tuple[float, ...]) -> tuple[float, ...]:
            c = Counts(sums[0], sums[1], sums[2], sums[3], beta)
            return c.precision, c.recall, c.f

        return SentenceStats(rows, ("Precision", "Recall", f"F_{beta:g}"), aggregate, main=2)
