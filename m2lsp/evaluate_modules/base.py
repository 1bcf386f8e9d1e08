"""What m2lsp's `evaluate` modules share: the inputs (sources, predictions, references
grouped per prediction) and the score, through `m2lsp.score`."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any, ClassVar

import datasets
import evaluate

from m2lsp.errors import UsageError

CITATION = "m2lsp (https://github.com/m2lsp/m2lsp)"


class GecMetric(evaluate.Metric):
    """A registry metric as an `evaluate.Metric` (`metric`: its name)."""

    metric: ClassVar[str] = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        own = set(inspect.signature(evaluate.EvaluationModule.__init__).parameters)
        self.options = {k: kwargs.pop(k) for k in list(kwargs) if k not in own}
        super().__init__(*args, **kwargs)

    def _info(self) -> evaluate.MetricInfo:
        return evaluate.MetricInfo(
            description=f"m2lsp's {self.metric} (exact to its reference tool): "
                        "`m2lsp score --metric " + self.metric + "` from Python",
            citation=CITATION, inputs_description=__doc__ or "",
            features=datasets.Features({
                "predictions": datasets.Value("string"),
                "references": datasets.Sequence(datasets.Value("string")),
                "sources": datasets.Value("string")}))

    def _compute(self, predictions: Sequence[str], references: Sequence[Sequence[str]],
                 sources: Sequence[str], **options: Any) -> dict[str, Any]:
        import m2lsp

        found = m2lsp.score(list(predictions), sources=list(sources),
                            references=streams(references), metric=self.metric,
                            **{**self.options, **options})
        return found.flat()


def streams(references: Sequence[Sequence[str]]) -> list[list[str]]:
    """References grouped per prediction, as reference streams (one per annotator)."""
    counts = {len(r) for r in references}
    if len(counts) > 1 or counts == {0}:
        raise UsageError("every prediction needs the same number of references (given: "
                         f"{', '.join(map(str, sorted(counts)))})")
    return [list(column) for column in zip(*references, strict=True)]

