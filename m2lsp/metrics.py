"""The metrics, from Python: `m2lsp.metrics()` lists them, and each is a class in the
shape of sacreBLEU's (`BLEU().corpus_score(hyps, [refs])`):

    >>> from m2lsp.metrics import M2
    >>> m2 = M2(beta=0.5)
    >>> found = m2.corpus_score(["The cat sat on the mat ."], [["The cat sat on the mat ."]],
    ...                         sources=["The cat sat on mat ."])   # doctest: +SKIP
    >>> found.score, found.signature                                 # doctest: +SKIP

`corpus_score(hypotheses, references=None, *, sources=None, gold=None)` scores a corpus:
against `references` (a list of reference streams, each one sentence per hypothesis, as
sacreBLEU takes them) of `sources`, or against an M2 `gold`; `sentence_score(hypothesis,
references=None, *, source=None, gold=None)` scores one sentence.  Both return an
`m2lsp.Score`, with `.score` (the number that ranks systems) and `.signature`.

This module is callable, so `m2lsp.metrics()` still lists the metrics.
"""

from __future__ import annotations

import sys
import types
from typing import Any, ClassVar

from m2lsp.api.listing import MetricInfo, metrics

# registry name -> class name, as sacreBLEU names its metrics (BLEU, CHRF, TER)
CLASSES = {"m2": "M2", "errant": "ERRANT", "cherrant": "CHERRANT", "cged": "CGED",
           "cgec": "CGEC", "gleu": "GLEU", "green": "GREEN", "cleme": "CLEME",
           "impara": "IMPARA", "some": "SOME", "scribendi": "Scribendi",
           "bertscore": "BERTScore", "gotoscorer": "GoToScorer", "pt-errant": "PTERRANT",
           "pt-m2": "PTM2", "llm-s": "LLMS", "llm-e": "LLME"}
class Metric:
    """A metric with its options, scoring as sacreBLEU's metrics do (see the module)."""

    name: ClassVar[str] = ""

    def __init__(self, **options: Any) -> None:
        from m2lsp.api.scoring import _options

        _options(self.name, options)  # checked now: a wrong option fails here
        self.options = dict(options)

    def corpus_score(self, hypotheses: Any, references: Any = None, *, sources: Any = None,
                     gold: Any = None) -> Any:
        """The corpus score of `hypotheses` (an `m2lsp.Score`)."""
        from m2lsp.api.scoring import Scorer

        if references is not None and gold is not None:
            from m2lsp.errors import UsageError

            raise UsageError("give references or gold=, not both")
        with Scorer(self.name, gold=gold, sources=sources, references=references,
                    **self.options) as scorer:
            return scorer.score(hypotheses)

    def sentence_score(self, hypothesis: str, references: Any = None, *,
                       source: str | None = None, gold: Any = None) -> Any:
        """The score of one sentence: `hypothesis` against its `references` (a list of
        sentences, one per reference) of `source`, or against a one-sentence `gold`."""
        import m2lsp.api.inputs as inputs

        if not isinstance(hypothesis, str):
            raise inputs.refuse("hypothesis", hypothesis, "a sentence (a str)")
        if source is not None and not isinstance(source, str):
            raise inputs.refuse("source", source, "a sentence (a str)")
        streams = None
        if references is not None:
            if isinstance(references, str):
                references = [references]
            streams = [[r] for r in inputs.sentences(references, "references")]
        return self.corpus_score([hypothesis], streams,
                                 sources=None if source is None else [source], gold=gold)

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({shown})"


def _metric_class(name: str) -> type[Metric]:
    return type(CLASSES[name], (Metric,), {"name": name, "__module__": __name__,
                                           "__doc__": f"The {name} metric (see the module)."})


M2 = _metric_class("m2")
ERRANT = _metric_class("errant")
CHERRANT = _metric_class("cherrant")
CGED = _metric_class("cged")
CGEC = _metric_class("cgec")
GLEU = _metric_class("gleu")
GREEN = _metric_class("green")
CLEME = _metric_class("cleme")
IMPARA = _metric_class("impara")
SOME = _metric_class("some")
Scribendi = _metric_class("scribendi")
BERTScore = _metric_class("bertscore")
GoToScorer = _metric_class("gotoscorer")
PTERRANT = _metric_class("pt-errant")
PTM2 = _metric_class("pt-m2")
LLMS = _metric_class("llm-s")
LLME = _metric_class("llm-e")


class _Callable(types.ModuleType):
    """This module, callable: `m2lsp.metrics()` lists the metrics."""

    def __call__(self) -> list[MetricInfo]:
        return metrics()


sys.modules[__name__].__class__ = _Callable
