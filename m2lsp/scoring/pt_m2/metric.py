"""`--metric pt-m2`: MaxMatch's readings of each sentence (one per annotator, scoring.m2),
their edits weighted by BERTScore (learned.pt_m2), the sentences' F averaged (sentm2) or
the corpus's weighted counts (m2)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from m2lsp.parsing.source import Input
from m2lsp.scoring.metric import (
    MetricBase,
    Numbers,
    Request,
    ScoreBase,
    SentenceStats,
    Shared,
    given,
)
from m2lsp.scoring.pt_m2 import DECLARATION
from m2lsp.scoring.signature import Signature, signed


@dataclass(frozen=True)
class PtM2Options:
    beta: float
    base: str  # sentm2 or m2
    scorer: str  # bertscore or self
    bertscore: dict[str, Any]  # BERTScore's options, by gec-metrics' field names
    jobs: int
    spacy_model: str | None = None  # the errant bases: what annotates a plain-text system


@dataclass(frozen=True)
class PtM2Score(ScoreBase):
    result: Any  # learned.pt_m2.PtM2Result
    beta: float
    base: Signature
    gold_text: str

    @property
    def signature(self) -> str:
        return signed(self.base, self.gold_text)

    def _numbers(self) -> tuple[float, float, float]:
        from m2lsp.learned.pt_m2 import Totals

        total = Totals()
        for counts in self.result.chosen:
            total = total.plus(counts)
        return total.scores(self.beta)

    def text(self, request: Request) -> str:
        from m2lsp.scoring.metric import bootstrap_text

        if self.result.base == "sentm2":
            lines = [f"{'PT-M2':<12}: {self.result.score:.4f}"]
        else:
            p, r, f = self._numbers()
            lines = [f"{'Precision':<12}: {p:.4f}", f"{'Recall':<12}: {r:.4f}",
                     f"{f'F_{self.beta:g}':<12}: {f:.4f}"]
        if request.shared.sentence_level:
            lines += [f"{i + 1}\t{f:.4f}" for i, f in enumerate(self.result.sentence_f)]
        out = "\n".join(lines) + "\n"
        if request.shared.bootstrap:
            out += "\n" + bootstrap_text(self.sentence_stats(), request)
        return out + f"\n{self.signature}\n"

    def json(self, request: Request) -> dict[str, Any]:
        from m2lsp.scoring.metric import bootstrap_data

        p, r, f = self._numbers()
        data: dict[str, Any] = {
            "metric": "pt-m2", "signature": self.signature, "system": str(request.system),
            "base": dict(self.base.fields).get("base", self.result.base),
            "pt-m2": self.result.score, "precision": p,
            "recall": r, "f": f, "beta": self.beta,
            "sentence_scores": list(self.result.sentence_f)}
        if request.shared.bootstrap:
            data["bootstrap"] = bootstrap_data(self.sentence_stats(), request)
        return data

    def headline(self, data: dict[str, Any]) -> dict[str, float]:
        if self.result.base == "sentm2":
            return {"pt-m2": float(data["pt-m2"])}
        return {k: float(data[k]) for k in ("precision", "recall", "f")}

    def unrounded(self, data: dict[str, Any]) -> Numbers:
        if self.result.base == "sentm2":
            return Numbers(None, None, self.result.score)
        return Numbers(*self._numbers())

    def sentence_scores(self) -> list[float | None]:
        return list(self.result.sentence_f)

    def sentence_stats(self) -> SentenceStats:
        from m2lsp.learned.pt_m2 import Totals

        if self.result.base == "sentm2":
            return SentenceStats([(f, 1.0) for f in self.result.sentence_f], ("PT-M2",),
                                 lambda sums: (sums[0] / sums[1] if sums[1] else 0.0,),
                                 main=0)
        beta = self.beta
        return SentenceStats([(c.correct, c.proposed, c.gold) for c in self.result.chosen],
                             ("Precision", "Recall", f"F_{beta:g}"),
                             lambda sums: Totals(*sums).scores(beta), main=2)


class PtM2(MetricBase):
    declaration = DECLARATION

    def options(self, values: Mapping[str, Any], shared: Shared, config: Any) -> PtM2Options:
        from m2lsp.errors import UsageError

        weights = {f.dest.removeprefix("bertscore_"): given(values, f.dest, f.default)
                   for f in self.also if f.dest.startswith("bertscore_")}
        if shared.beta <= 0:
            raise UsageError("--beta must be > 0")
        return PtM2Options(shared.beta, str(given(values, "pt_m2_base", "sentm2")),
                           str(given(values, "pt_m2_scorer", "bertscore")), weights,
                           shared.jobs or 1, values.get("spacy_model"))

    def run(self, request: Request) -> Any:
        return self.run_many(request, [request.system])[0]

    def run_many(self, request: Request, systems: Sequence[Input]) -> list[Any]:
        from m2lsp.errors import UsageError
        from m2lsp.learned.bertscore import load, sentence_scores
        from m2lsp.learned.loading import model_errors
        from m2lsp.learned.pt_m2 import evaluate
        from m2lsp.scoring.m2.maxmatch import M2Settings
        from m2lsp.scoring.m2.metric import Scoring

        if request.gold is None:
            raise UsageError("--metric pt-m2 needs GOLD (an M2 file)")
        options: PtM2Options = request.options
        # the inputs first: arguments in the wrong order are said before a model loads
        sums = {"errant": "m2", "senterrant": "sentm2"}.get(options.base, options.base)
        if options.base in ("errant", "senterrant"):
            inputs, text = _errant_inputs(request, systems)
        else:
            job = Scoring(M2Settings(beta=options.beta), request.encoding, options.jobs, 5.0,
                          request.warn, request.progress, request.usage, metric="pt-m2")
            found = [job.results(s, request.gold) for s in systems]
            text = job.texts[request.gold]
            lines = text.split("\n")
            inputs = [([r.source for r in results],
                       [readings(r, lines, request.gold) for r in results])
                      for results in found]
        score = None
        weights: tuple[tuple[str, str], ...] = (("weights", "self"),)
        if options.scorer == "bertscore":
            with model_errors("PT-M2"):
                bert = load(options.bertscore, "--bertscore-model-type")
            weights = (("weights", f"bertscore:{bert.signed}"),
                       ("layer", str(bert.num_layers)),
                       ("rescaled", bert.rescaled))

            def score(candidates: list[str], references: list[str]) -> list[float]:
                with model_errors("PT-M2"):
                    return sentence_scores(bert, candidates, [(r,) for r in references])

        base = Signature("PT-M2", (("base", options.base), ("beta", f"{options.beta:g}"),
                                   *weights, ("scorer", "pygongnlp-pt-m2")))
        return [PtM2Score(evaluate(sources, found_readings, score, sums, options.beta),
                          options.beta, base, text)
                for sources, found_readings in inputs]


def _errant_inputs(request: Request, systems: Sequence[Input]
                   ) -> tuple[list[tuple[list[str], list[Any]]], str]:
    """Each system's sources and readings for the errant bases: the gold read as
    errant_compare reads it, a plain-text system annotated as `--metric errant` annotates
    it (the gold's S lines its source), an M2 system read as it is."""
    from dataclasses import replace

    from m2lsp.config import ScoreSettings
    from m2lsp.parsing.source import SourceText, read_source
    from m2lsp.scoring.errant.files import as_errant_reads
    from m2lsp.scoring.errant.inputs import read_blocks
    from m2lsp.scoring.errant.metric import _annotated
    from m2lsp.scoring.errant.options import errant_options
    from m2lsp.scoring.pt_m2.errant_base import readings as errant_readings
    from m2lsp.scoring.system_text import looks_like_m2

    assert request.gold is not None
    gold = read_source(request.gold, "reference", request.encoding)
    refs = read_blocks(as_errant_reads(gold), str(request.gold))
    wanted = {"spacy_model": request.options.spacy_model}
    annotating = replace(request, options=errant_options(wanted, Shared(), ScoreSettings()),
                         shared=Shared(jobs=request.shared.jobs))
    out = []
    for system in systems:
        hyp = read_source(system, "hypothesis", request.encoding)
        if not looks_like_m2(hyp.text):
            hyp = SourceText(_annotated(replace(annotating, system=system), refs, hyp).m2)
        blocks = read_blocks(as_errant_reads(hyp), str(system))
        if len(blocks) != len(refs):
            from m2lsp.errors import InputError

            raise InputError(f"{system} has {len(blocks)} sentences but {request.gold} has "
                             f"{len(refs)}")
        sources = [r.sentence[2:] for r in refs]
        out.append((sources, [errant_readings(s, h.edits, r.edits)
                              for s, h, r in zip(sources, blocks, refs, strict=True)]))
    return out, gold.text


def readings(result: Any, lines: Sequence[str], path: Input) -> list[Any]:
    """A sentence's MaxMatch attempts as PT-M2 readings, in the order the authors' scorer
    tries the annotators (as met in the block); an InputError where an annotator's edits
    overlap (the sentence they make, PT-M2's reference, is then unknown)."""
    from m2lsp.errors import InputError
    from m2lsp.learned.pt_m2 import Reading, overlapping, rebuilt

    by_id = {a.annotator: a for a in result.attempts}
    out = []
    for annotator in met(lines, result.line, list(by_id)):
        a = by_id[annotator]
        gold = tuple((g.start, g.end, g.original, g.corrections[0]) for g in a.gold)
        if overlapping(gold):
            raise InputError(f"{path}:{result.line + 1}: annotator {annotator}'s edits "
                             "overlap, so the sentence they make (PT-M2's reference) is "
                             f"unknown; `m2lsp check {path}` names the edits")
        out.append(Reading(tuple(tuple(e) for e in a.system),
                           tuple(tuple(e) for e in a.correct), gold,
                           rebuilt(result.source, gold)))
    return out


def met(lines: Sequence[str], s_line: int, annotators: list[int]) -> list[int]:
    """The annotators in the order their first A line comes after the S line (any the
    block does not name, as MaxMatch reads them, last)."""
    from m2lsp.scoring.m2 import py2

    seen: list[int] = []
    for line in lines[s_line + 1:]:
        if line.strip() == "" or line.startswith("S "):
            break
        fields = line[2:].split("|||") if line.startswith("A ") else []
        ident = py2.parse_int(fields[5]) if len(fields) > 5 else None
        if ident in annotators and ident not in seen:
            seen.append(ident)
    return seen + [a for a in annotators if a not in seen]


METRIC = PtM2()
