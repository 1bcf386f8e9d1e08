"""`--metric cgec`: Lin et al.'s metrics.  SYSTEM is one sentence a line, GOLD an M2 file
whose annotators are the references."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from m2lsp.errors import InputError, UsageError
from m2lsp.scoring.cgec import DECLARATION
from m2lsp.scoring.metric import MetricBase, Request, ScoreBase, SentenceStats
from m2lsp.scoring.signature import signed


@dataclass(frozen=True)
class CgecScore(ScoreBase):
    score: Any  # metrics.CgecScore
    signature: str

    @property
    def rows(self) -> tuple[tuple[float, ...], ...]:
        return self.score.rows

    def text(self, request: Request) -> str:
        score, b = self.score, self.score.bleu
        precisions = "/".join(f"{p:.4f}" for p in b.precisions)
        return (
            f"Acc_sen : {score.accuracy:.4f} ({score.exact}/{score.sentences})\n"
            f"BLEU_c  : {b.score:.4f} (precisions {precisions}, BP {b.brevity_penalty:.4f}, "
            f"length {b.hypothesis_length}/{b.reference_length})\n"
            f"MP      : {score.mp:.4f}\n"
            f"MP_avg  : {score.mp_average:.4f} (references against their sources)\n"
            f"MP'     : {score.mp_revised:.4f}\n" + self._extras(request) + f"{self.signature}\n")

    def _extras(self, request: Request) -> str:
        from m2lsp.scoring.metric import bootstrap_text

        parts = []
        if request.shared.sentence_level:
            lines = [f"{'sentence':>8} {'exact':>5} {'MP':>7}"]
            lines += [f"{i + 1:>8} {int(row[1]):>5} {row[2]:>7.4f}"
                      for i, row in enumerate(self.rows)]
            parts.append("\n" + "\n".join(lines) + "\n")
        if request.shared.bootstrap:
            parts.append("\n" + bootstrap_text(self.sentence_stats(), request))
        return "".join(parts) + ("\n" if parts else "")

    def json(self, request: Request) -> dict[str, Any]:
        score, b = self.score, self.score.bleu
        return {
            "metric": "cgec", "signature": self.signature, "system": str(request.system),
            "gold": str(request.gold), "sentences": score.sentences,
            "acc_sen": score.accuracy, "exact": score.exact, "bleu": b.score,
            "bleu_precisions": list(b.precisions), "brevity_penalty": b.brevity_penalty,
            "hypothesis_length": b.hypothesis_length, "reference_length": b.reference_length,
            "mp": score.mp, "mp_average": score.mp_average, "mp_revised": score.mp_revised,
            **self._json_extras(request)}

    def _json_extras(self, request: Request) -> dict[str, Any]:
        from m2lsp.scoring.metric import bootstrap_data

        extra: dict[str, Any] = {}
        if request.shared.sentence_level:
            extra["sentence_scores"] = [{"exact": bool(row[1]), "mp": row[2]}
                                        for row in self.rows]
        if request.shared.bootstrap:
            extra["bootstrap"] = bootstrap_data(self.sentence_stats(), request)
        return extra

    def sentence_stats(self) -> SentenceStats:
        from m2lsp.scoring.cgec.metrics import aggregate

        return SentenceStats(self.rows, ("Acc_sen", "BLEU_c", "MP"), aggregate, main=1)


class Cgec(MetricBase):
    declaration = DECLARATION

    def run(self, request: Request) -> CgecScore:
        from m2lsp.model import corrected_sentence
        from m2lsp.parsing.m2 import parse_m2
        from m2lsp.parsing.source import read_source
        from m2lsp.scoring.cgec.metrics import SIGNATURE, evaluate
        from m2lsp.scoring.m2.inputs import read_system
        from m2lsp.scoring.system_text import argument_problem, empty_problem, system_notes

        if request.gold is None:
            raise UsageError("--metric cgec needs GOLD (an M2 file)")
        gold_source = read_source(request.gold, "gold", request.encoding)
        system = read_source(request.system, "system", request.encoding)
        if (wrong := argument_problem(request.system, system.text, request.gold,
                                      gold_source.text, "cgec", request.usage)):
            raise InputError(wrong)
        _check_language(system.text, gold_source.text, request.warn)
        gold, gold_text = parse_m2(gold_source), gold_source.text
        hypotheses = read_system(system)
        blocks = [b for b in gold.blocks if b.sentence is not None]
        if (empty := empty_problem(request.system, len(hypotheses), request.gold,
                                   len(blocks))):
            raise InputError(empty)
        if len(blocks) != len(hypotheses):
            raise InputError(f"system file {request.system} has {len(hypotheses)} sentences "
                             f"but gold file {request.gold} has {len(blocks)}")
        sources = [b.sentence.text if b.sentence is not None else "" for b in blocks]
        if request.warn is not None:
            for note in system_notes(request.system, hypotheses, sources):
                request.warn(f"warning: {note}")
        references = [[r for a in dict.fromkeys(e.annotator.strip() for e in b.edits)
                       if (r := corrected_sentence(b, a)) is not None] for b in blocks]
        return CgecScore(evaluate(sources, hypotheses, references),
                         signed(SIGNATURE, gold_text))



def _check_language(system: str, gold: str, warn: Any) -> None:
    """Lin et al.'s metrics count Chinese characters (BLEU over characters, MaxMatch over
    char-level edits): on English their numbers are not the ones papers report."""
    from m2lsp.scripts import script

    if warn is not None and {script(system), script(gold)} - {None, "Chinese"}:
        warn("warning: the system or the gold is not Chinese, but --metric cgec's metrics "
             "are Chinese char level (BLEU over characters): for English use --metric m2, "
             "errant or gleu")


METRIC = Cgec()
