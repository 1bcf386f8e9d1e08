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

    def compute(self, *, predictions: Any = None, references: Any = None,
                sources: Any = None, **kwargs: Any) -> dict[str, Any] | None:
        """`evaluate`'s compute, the inputs first checked as `m2lsp.score` checks them (the
        same UsageError or InputError, never `evaluate`'s or `datasets`' own errors)."""
        if predictions is None and references is None and sources is None:
            return super().compute(**kwargs)  # what add_batch collected
        return super().compute(**dict(zip(NAMES, checked(predictions, references, sources),
                                          strict=True)), **kwargs)

    def add_batch(self, *, predictions: Any = None, references: Any = None,
                  sources: Any = None, **kwargs: Any) -> None:
        """`evaluate`'s add_batch, the inputs checked as `compute` checks them."""
        super().add_batch(**dict(zip(NAMES, checked(predictions, references, sources),
                                     strict=True)), **kwargs)

    def add(self, *, prediction: Any = None, reference: Any = None, source: Any = None,
            **kwargs: Any) -> None:
        """`evaluate`'s add, the inputs checked as `compute` checks them."""
        (one,), (its,), (of,) = checked([prediction], [reference], [source])
        super().add(prediction=one, reference=its, source=of, **kwargs)

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


NAMES = ("predictions", "references", "sources")
SENTENCES = "a list of sentences (str), one per prediction"


def checked(predictions: Any, references: Any, sources: Any
            ) -> tuple[list[str], list[list[str]], list[str]]:
    """The three inputs as lists, one item per sentence: predictions and sources lists of
    str, references per prediction a list of str (a str alone is one reference; a flat
    list of str, one reference each); else a UsageError saying what was given and what is
    taken, as `m2lsp.score` says it."""
    from m2lsp.errors import InputError

    if sources is None:
        raise UsageError("sources= is needed: the sentences the predictions correct, "
                         f"{SENTENCES}")
    found = _sentences(predictions, "predictions"), _references(references), _sentences(
        sources, "sources")
    counts = [len(f) for f in found]
    if len(set(counts)) > 1:
        raise InputError(f"{counts[0]} predictions, {counts[1]} references and {counts[2]} "
                         "sources: give one of each per sentence")
    return found


def _sentences(value: Any, role: str) -> list[str]:
    from m2lsp.api import inputs

    if not isinstance(value, list | tuple):
        raise inputs.refuse(role, value, SENTENCES)
    return inputs.sentences(value, role)


def _references(value: Any) -> list[list[str]]:
    from m2lsp.api import inputs

    if not isinstance(value, list | tuple):
        raise inputs.refuse("references", value, "a list with each prediction's references "
                            "(a list of str, or one str)")
    out = []
    for k, item in enumerate(value):
        item = [item] if isinstance(item, str) else item
        if not isinstance(item, list | tuple) or not item:
            given = inputs.kind_of(item) if item else "an empty list"
            raise UsageError(f"references[{k}]: {given}; give the prediction's references "
                             "(a list of str, or one str)")
        out.append(inputs.sentences(item, f"references[{k}]"))
    return out


def streams(references: Sequence[Sequence[str]]) -> list[list[str]]:
    """References grouped per prediction, as reference streams (one per annotator)."""
    counts = {len(r) for r in references}
    if len(counts) > 1 or counts == {0}:
        raise UsageError("every prediction needs the same number of references (given: "
                         f"{', '.join(map(str, sorted(counts)))})")
    return [list(column) for column in zip(*references, strict=True)]

