"""`--metric cleme`: a hypothesis M2 (or a plain-text hypothesis, annotated first as
errant_parallel would annotate it) against a reference M2, chunk by chunk.  The text output
is what CLEME v1's `scripts/evaluate.py` prints: a Python dict of the numbers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from m2lsp.errors import InputError, UsageError
from m2lsp.parsing.source import Input
from m2lsp.scoring.cleme import DECLARATION
from m2lsp.scoring.cleme.live import ClemeLive
from m2lsp.scoring.metric import (
    MetricBase,
    Numbers,
    Request,
    Score,
    ScoreBase,
    SentenceStats,
    Shared,
    given,
)
from m2lsp.scoring.signature import Signature, signed


@dataclass(frozen=True)
class ClemeOptions:
    scorer: str
    level: str
    source: Input | None
    jobs: int | None
    annotation: Any  # EnglishSettings, for a plain-text hypothesis
    version2: bool = False  # --cleme2: CLEME2.0's breakdown
    weigher: str = "length"
    vis: bool = False  # --vis: the chunk tables
    bertscore: Mapping[str, Any] | None = None  # the similarity weigher's BERTScore options


@dataclass(frozen=True)
class ClemeScore(ScoreBase):
    result: Any  # counting.CorpusScore or counting.SentenceScore
    scorer: str
    level: str
    gold_text: str
    tables: str = ""  # --vis: every sentence's chunk table

    @property
    def signature(self) -> str:
        base = Signature("CLEME", (("chunks", self.scorer), ("level", self.level),
                                   ("scorer", "cleme-v1")))
        return signed(base, self.gold_text)

    def numbers(self) -> dict[str, Any]:
        """The numbers in the order the reference prints them."""
        r = self.result
        if self.level == "corpus":
            return {"num_sample": r.sentences, "F": r.f, "Acc": r.acc, "P": r.p, "R": r.r,
                    "tp": r.tp, "fp": r.fp, "fn": r.fn, "tn": r.tn}
        return {"num_sample": r.sentences, "F": r.f, "P": r.p, "R": r.r, "Acc": r.acc}

    def text(self, request: Request) -> str:
        out = repr(self.numbers()) + "\n" + self.tables
        if request.shared.bootstrap:
            from m2lsp.scoring.metric import bootstrap_text

            out += "\n" + bootstrap_text(self.sentence_stats(), request) + self.signature + "\n"
        return out

    def json(self, request: Request) -> dict[str, Any]:
        numbers = self.numbers()
        data: dict[str, Any] = {"metric": "cleme", "signature": self.signature,
                                "system": str(request.system), "scorer": self.scorer,
                                "level": self.level, "sentences": numbers.pop("num_sample")}
        data.update({k.lower(): v for k, v in numbers.items()})
        data["f"], data["precision"], data["recall"] = data.pop("f"), data.pop("p"), data.pop("r")
        if request.shared.bootstrap:
            from m2lsp.scoring.metric import bootstrap_data

            data["bootstrap"] = bootstrap_data(self.sentence_stats(), request)
        return data

    def headline(self, data: dict[str, Any]) -> dict[str, float]:
        return {k: float(data[k]) for k in ("precision", "recall", "f")}

    def unrounded(self, data: dict[str, Any]) -> Numbers:
        """Corpus level: P, R, F of the unrounded totals, and those totals (TP, FP, FN
        and TN: chunk counts, weighted, so not whole); sentence level: the means before
        they are rounded (no counts: each sentence is its own)."""
        from m2lsp.scoring.cleme.counting import prf_exact

        r = self.result
        if self.level == "corpus":
            tp, fp, fn, tn = r.totals
            p, rec, f = prf_exact(tp, fp, fn)
            return Numbers(p, rec, f, {"tp": tp, "fp": fp, "fn": fn, "tn": tn})
        f, p, rec, _ = r.means
        return Numbers(p, rec, f)

    def main(self, data: dict[str, Any]) -> float | None:
        return float(data["f"])

    def sentence_stats(self) -> SentenceStats:
        """Corpus level: each sentence's counts against the reference the corpus scorer
        chose for it (chosen once, as M2's bootstrap keeps its annotators); sentence level:
        each sentence's best F, P, R and Acc, averaged."""
        from m2lsp.scoring.cleme.counting import accuracy, prf

        if self.level == "corpus":
            def corpus(sums: tuple) -> tuple[float, ...]:
                p, r, f = prf(sums[0], sums[1], sums[2])
                return p, r, f, accuracy(*sums)
            return SentenceStats(list(self.result.chosen), ("Precision", "Recall", "F_0.5",
                                                           "Acc"), corpus, main=2)

        def means(sums: tuple) -> tuple[float, ...]:
            count = sums[4] or 1
            return sums[2] / count, sums[3] / count, sums[0] / count, sums[1] / count
        rows = [(f, acc, p, r, 1) for f, p, r, acc in self.result.each]
        return SentenceStats(rows, ("Precision", "Recall", "F_0.5", "Acc"), means, main=2)

    def sentence_scores(self) -> list[float | None] | None:
        if self.level != "sentence":
            return None
        return [e[0] for e in self.result.each]


class Cleme(MetricBase):
    declaration = DECLARATION
    editor = "steps"

    def options(self, values: Mapping[str, Any], shared: Shared, config: Any) -> ClemeOptions:
        from m2lsp.scoring.errant.options import errant_options

        annotation = errant_options(values, shared, config).annotation
        version2 = bool(given(values, "cleme2", False))
        weigher = given(values, "cleme_weigher", "length")
        if values.get("cleme_weigher") not in (None, "length") and not version2:
            raise UsageError("--cleme-weigher weighs CLEME2.0's rows: use it with --cleme2")
        if values.get("cleme_vis") and version2:
            raise UsageError("--vis draws CLEME v1's chunk tables: not with --cleme2")
        return ClemeOptions(given(values, "cleme_scorer", "dependent"),
                            given(values, "cleme_level", "corpus"), shared.source, shared.jobs,
                            annotation, version2, weigher, bool(values.get("cleme_vis")),
                            _similarity_options(values, weigher))

    def run(self, request: Request) -> Score:
        from m2lsp.parsing.source import read_source
        from m2lsp.scoring.cleme.reading import read_m2
        from m2lsp.scoring.system_text import check_order

        if request.gold is None:
            raise UsageError("--metric cleme needs GOLD (the reference M2 file)")
        check_order(request.system, request.gold, request.usage)
        options: ClemeOptions = request.options
        gold = read_source(request.gold, "gold", request.encoding).text
        hypothesis = _hypothesis_m2(request, options, gold)
        references = read_m2(gold, str(request.gold))
        hypotheses = read_m2(hypothesis, str(request.system))
        if options.version2:
            from m2lsp.scoring.cleme.heuo_score import Cleme2Score, evaluate2

            similarity, model = (None, ()) if options.bertscore is None \
                else _bertscore(options.bertscore)
            return Cleme2Score(evaluate2(hypotheses, references, options.scorer, options.level,
                                         options.weigher, similarity), options.scorer,
                               options.level, gold, model)
        found = evaluate(hypotheses, references, options.scorer, options.level)
        drawn = ""
        if options.vis:
            from m2lsp.scoring.cleme.vis import tables

            drawn = tables(references, hypotheses)
        return ClemeScore(found, options.scorer, options.level, gold, drawn)

    def live(self, config: Any) -> Any:  # config.ScoreSettings -> live.ClemeLive
        """A score of the open reference that follows its edits and the system's."""
        return ClemeLive(config)


def _similarity_options(values: Mapping[str, Any], weigher: str) -> dict[str, Any] | None:
    """The similarity weigher's BERTScore options (the reference's BERTScorer: raw F1, no
    IDF, no baseline), or None for the other weighers, which take none of them; the
    extra it needs is asked for here, before any file is read."""
    from m2lsp.scoring.cleme import SIMILARITY_FLAGS

    flags = [f for f in DECLARATION.also if f.dest in SIMILARITY_FLAGS]
    if weigher != "similarity":
        given_flags = [f.names[0] for f in flags if values.get(f.dest, f.default) != f.default]
        if given_flags:
            raise UsageError(f"{', '.join(given_flags)}: the BERTScore of --cleme2 "
                             "--cleme-weigher similarity, not of --cleme-weigher "
                             f"{weigher}")
        return None
    _neural()
    found = {f.dest.removeprefix("bertscore_"): given(values, f.dest, f.default)
             for f in flags}
    return {**found, "nthreads": 4, "idf": False, "lang": "en",
            "rescale_with_baseline": False, "baseline_path": None,
            "use_fast_tokenizer": False, "score_type": "f"}


def _neural() -> None:
    """A UsageError naming the extra unless torch, transformers and bert-score import."""
    try:
        import bert_score  # noqa: F401
        import torch  # noqa: F401
        import transformers  # noqa: F401
    except ImportError as missing:
        cause = f"{missing.name} is not installed" if missing.name else str(missing)
        raise UsageError(f"--cleme-weigher similarity weighs chunks by BERTScore, which "
                         f"needs m2lsp[neural] ({cause}): pip install 'm2lsp[neural]'"
                         ) from None


def _bertscore(options: Mapping[str, Any]) -> tuple[Any, tuple[tuple[str, str], ...]]:
    """The similarity weigher's scoring function and what names its model in the
    signature."""
    from m2lsp.learned.bertscore import load, sentence_scores
    from m2lsp.learned.loading import model_errors

    with model_errors("CLEME2.0's similarity weigher"):
        bert = load(dict(options), "--bertscore-model-type")

    def similarity(candidates: list[str], references: list[str]) -> list[float]:
        with model_errors("CLEME2.0's similarity weigher"):
            return sentence_scores(bert, candidates, [(r,) for r in references])
    return similarity, (("model", bert.signed), ("layer", str(bert.num_layers)))


def evaluate(hypotheses: list[Any], references: list[Any], scorer: str, level: str) -> Any:
    """CLEME of the hypothesis samples against the reference samples (CLEME.evaluate)."""
    from m2lsp.scoring.cleme.chunks import chunked
    from m2lsp.scoring.cleme.counting import scored

    if len(hypotheses) != len(references):
        raise InputError(f"the hypothesis has {len(hypotheses)} sentences but the reference "
                         f"{len(references)}")
    return scored([chunked(h, r, i) for i, (h, r) in
                   enumerate(zip(hypotheses, references, strict=True))], scorer, level)


def _hypothesis_m2(request: Request, options: ClemeOptions, gold: str) -> str:
    """The hypothesis as M2: as it is, or annotated from plain text (its sources: --source,
    else the gold's S lines)."""
    from m2lsp.parsing.source import read_source
    from m2lsp.scoring.system_text import looks_like_m2

    text = read_source(request.system, "system", request.encoding).text
    if looks_like_m2(text):
        return text
    from m2lsp.scoring.errant.inputs import read_blocks
    from m2lsp.scoring.errant.plain import annotate_hypothesis, reference_sources
    from m2lsp.scripts import chinese_for_english

    problem = chinese_for_english(
        {"hypothesis": text, "reference": gold}, "--metric cleme (a plain-text hypothesis)",
        "annotate it first with `m2lsp annotate --lang zh --orig SOURCE --cor SYSTEM -o "
        "SYSTEM.m2` and score SYSTEM.m2, or use --metric cherrant")
    if problem is not None:
        raise UsageError(problem)
    hypotheses = text.splitlines()
    if options.source is not None:
        sources = read_source(options.source, "source", request.encoding).text.splitlines()
        name = str(options.source)
    else:
        sources = reference_sources(read_blocks(gold, str(request.gold)))
        name = str(request.gold)
    return annotate_hypothesis(request.system, hypotheses, sources, name, options.annotation,
                               options.jobs, request.warn).m2


METRIC = Cleme()
