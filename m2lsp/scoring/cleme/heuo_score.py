"""`--metric cleme --cleme2`: CLEME2.0's four rows (`heuo`) as a score: the table THUKElab/CLEME
prints (its numbers to 4 decimals), JSON, a signature, and per-sentence statistics for the
bootstrap and paired tests (each sentence's counts against the reference the corpus-level
row chose for it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from m2lsp.errors import InputError
from m2lsp.scoring.cleme.heuo import ROWS, Heuo, Row, indicators
from m2lsp.scoring.metric import Request, ScoreBase, SentenceStats
from m2lsp.scoring.signature import Signature, signed

COLUMNS = ("COM", "HIT", "ERR", "UND", "OVE", "TP", "FP", "FN", "TN", "FP_NE", "FP_UN", "NE")


@dataclass(frozen=True)
class Cleme2Score(ScoreBase):
    result: Heuo
    scorer: str
    level: str
    gold_text: str
    model: tuple[tuple[str, str], ...] = ()  # the similarity weigher's model and layer

    @property
    def signature(self) -> str:
        base = Signature("CLEME2", (("chunks", self.scorer), ("level", self.level),
                                    ("weigher", self.result.weigher), *self.model,
                                    ("scorer", "cleme-e90abea")))
        return signed(base, self.gold_text)

    def text(self, request: Request) -> str:
        width = max(len(f"heuo_{name}") for name in ROWS)
        lines = [f"{'metric':<{width}}  " + "  ".join(f"{c:>9}" for c in COLUMNS)]
        for name in ROWS:
            values = _values(self.result.rows[name])
            lines.append(f"{'heuo_' + name:<{width}}  "
                         + "  ".join(f"{v:>9.4f}" for v in values))
        out = "\n".join(lines) + "\n"
        if request.shared.bootstrap:
            from m2lsp.scoring.metric import bootstrap_text

            out += "\n" + bootstrap_text(self.sentence_stats(), request) + self.signature + "\n"
        return out

    def json(self, request: Request) -> dict[str, Any]:
        rows = {name: dict(zip([c.lower() for c in COLUMNS], _values(row), strict=True))
                for name, row in self.result.rows.items()}
        main = self.result.rows["corpus_unweighted"]
        data: dict[str, Any] = {
            "metric": "cleme", "cleme2": True, "signature": self.signature,
            "system": str(request.system), "scorer": self.scorer, "level": self.level,
            "weigher": self.result.weigher, "sentences": len(self.result.chosen),
            "com": main.com, "hit": main.hit, "err": main.err, "und": main.und,
            "ove": main.ove, "rows": rows}
        if request.shared.bootstrap:
            from m2lsp.scoring.metric import bootstrap_data

            data["bootstrap"] = bootstrap_data(self.sentence_stats(), request)
        return data

    def headline(self, data: dict[str, Any]) -> dict[str, float]:
        return {k: float(data[k]) for k in ("com", "hit", "err", "und", "ove")}

    def main(self, data: dict[str, Any]) -> float | None:
        return float(data["com"])

    def sentence_stats(self) -> SentenceStats:
        factors = self.result.factors

        def aggregate(sums: tuple[float, ...]) -> tuple[float, ...]:
            hit, err, und, ove, com = indicators(factors, sums[0], sums[1], sums[2], sums[3])
            return hit, err, und, ove, com
        rows = [(c.tp, c.fn, c.fp_ne, c.fp_un) for c in self.result.chosen]
        return SentenceStats(rows, ("HIT", "ERR", "UND", "OVE", "COM"), aggregate, main=4)


def _values(row: Row) -> tuple[float, ...]:
    return (row.com, row.hit, row.err, row.und, row.ove, *row.counts.fields,
            row.counts.necessary)


def evaluate2(hypotheses: list[Any], references: list[Any], scorer: str, level: str,
              weigher: str, similarity: Any = None) -> Heuo:
    """CLEME2.0 of the hypothesis samples against the reference samples (`similarity`:
    the BERTScore function of the `similarity` weigher, see cleme.similarity)."""
    from m2lsp.scoring.cleme.heuo import scored

    if len(hypotheses) != len(references):
        raise InputError(f"the hypothesis has {len(hypotheses)} sentences but the reference "
                         f"{len(references)}")
    chunked = [chunked2(h, r, i) for i, (h, r) in
               enumerate(zip(hypotheses, references, strict=True))]

    def similar(kinds: list[list[Any]]) -> list[list[dict[int, float]]]:
        from m2lsp.scoring.cleme.similarity import pending, weights

        jobs = [[pending(h.source, r.targets[k], hyp, theirs, per)
                 for k, theirs, per in zip(kept(r), refs, kinds_of, strict=True)]
                for h, r, (hyp, refs), kinds_of in zip(hypotheses, references, chunked, kinds,
                                                       strict=True)]
        found = iter(weights([job for row in jobs for job in row], similarity))
        return [[next(found) for _ in row] for row in jobs]

    return scored(chunked, scorer, level, weigher, similar if weigher == "similarity" else None)


def kept(reference: Any) -> list[int]:
    """The references CLEME2.0 keeps: the non-empty ones, else the first."""
    return [k for k, target in enumerate(reference.targets) if target] or [0]


def chunked2(hypothesis: Any, reference: Any, index: int) -> tuple[list[Any], list[list[Any]]]:
    """One sentence's chunks as CLEME2.0 makes them: its empty references left out (the
    first kept when all are empty), the hypothesis kept as it is."""
    from m2lsp.scoring.cleme.chunks import check_pair, partition

    check_pair(hypothesis, reference, index)
    if not reference.targets:
        raise InputError(f"sentence {index + 1}: the reference has no annotator")
    indices = kept(reference)
    targets = [*hypothesis.targets, *(reference.targets[k] for k in indices)]
    edits = [*hypothesis.edits, *(reference.edits[k] for k in indices)]
    chunks = partition(hypothesis.source, targets, edits)
    return chunks[0], chunks[1:]
