"""The score of a metric that rates each sentence on its own (the learned metrics): the
sentence scores, and the corpus score as their mean (IMPARA, SOME, BERTScore) or their sum
(Scribendi), as gec-metrics' `score_corpus` makes it.  Bootstrap intervals and `compare`
resample the sentences; meta-evaluation reads the sentence scores."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from m2lsp.scoring.metric import Request, ScoreBase, SentenceStats
from m2lsp.scoring.signature import Signature, signed


@dataclass(frozen=True)
class SentenceScored(ScoreBase):
    metric: str  # the registry's name (`impara`), also the JSON's key of the corpus score
    label: str  # as people write it (`IMPARA`)
    scores: tuple[float, ...]
    base: Signature
    hashed: tuple[str, ...]  # what the signature's hash covers (references, else sources)
    total: str = "mean"  # or "sum"
    extra: Mapping[str, Any] = field(default_factory=dict)  # more JSON fields

    @property
    def corpus(self) -> float:
        added = sum(self.scores)
        if self.total == "sum":
            return added
        return added / len(self.scores) if self.scores else 0.0

    @property
    def signature(self) -> str:
        return signed(self.base, *self.hashed)

    def text(self, request: Request) -> str:
        from m2lsp.scoring.metric import bootstrap_text

        lines = [f"{self.label:<12}: {self.corpus:.4f}"]
        if request.shared.sentence_level:
            lines += [f"{i + 1}\t{s:.4f}" for i, s in enumerate(self.scores)]
        out = "\n".join(lines) + "\n"
        if request.shared.bootstrap:
            out += "\n" + bootstrap_text(self.sentence_stats(), request)
        return out + f"\n{self.signature}\n"

    def json(self, request: Request) -> dict[str, Any]:
        from m2lsp.scoring.metric import bootstrap_data

        data: dict[str, Any] = {"metric": self.metric, "signature": self.signature,
                                "system": str(request.system), self.metric: self.corpus,
                                "aggregate": self.total, "sentences": len(self.scores),
                                **self.extra, "sentence_scores": list(self.scores)}
        if request.shared.bootstrap:
            data["bootstrap"] = bootstrap_data(self.sentence_stats(), request)
        return data

    def headline(self, data: dict[str, Any]) -> dict[str, float]:
        return {self.metric: float(data[self.metric])}

    def sentence_stats(self) -> SentenceStats:
        rows = [(s, 1.0) for s in self.scores]
        if self.total == "sum":
            return SentenceStats(rows, (self.label,), lambda sums: (sums[0],), main=0)
        return SentenceStats(rows, (self.label,),
                             lambda sums: (sums[0] / sums[1] if sums[1] else 0.0,), main=0)

    def sentence_scores(self) -> list[float | None]:
        return list(self.scores)
