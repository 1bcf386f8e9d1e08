"""`--metric scribendi`: +1, 0 or -1 per hypothesis (learned.scribendi); the corpus score is
the sum, as gec-metrics' `Scribendi.score_corpus`."""

from __future__ import annotations

from typing import Any

from m2lsp.scoring.learned_metric import LearnedMetric
from m2lsp.scoring.scribendi import DECLARATION


class Scribendi(LearnedMetric):
    declaration = DECLARATION
    label = "Scribendi"
    total = "sum"

    def models(self, options: dict[str, Any]) -> Any:
        from m2lsp.learned.loading import device, load
        from m2lsp.learned.scribendi import Scribendi as Models

        on = device(options["no_cuda"])
        return Models(load("AutoModelForCausalLM", options["model"], on, "--scribendi-model"),
                      float(options["threshold"]), int(options["batch_size"]))

    def scores(self, models: Any, sources: list[str], hypotheses: list[str],
               references: list[list[str]]) -> list[float]:
        from m2lsp.learned.scribendi import sentence_scores

        return sentence_scores(models, sources, hypotheses)

    def signed(self, models: Any) -> tuple[tuple[str, str], ...]:
        return (("model", models.model.signed), ("threshold", f"{models.threshold:g}"))

    def described(self, models: Any) -> dict[str, Any]:
        return {"model": models.model.name}


METRIC = Scribendi()
