"""`--metric impara`: each hypothesis rated against its source by IMPARA's two models
(learned.impara); the corpus score is the mean, as gec-metrics' `score_corpus`."""

from __future__ import annotations

from typing import Any

from m2lsp.scoring.impara import DECLARATION
from m2lsp.scoring.learned_metric import LearnedMetric


class Impara(LearnedMetric):
    declaration = DECLARATION
    label = "IMPARA"

    def models(self, options: dict[str, Any]) -> Any:
        from m2lsp.learned.impara import Impara as Models
        from m2lsp.learned.loading import device, load

        on = device(options["no_cuda"])
        return Models(load("AutoModelForSequenceClassification", options["model_qe"], on,
                           "--impara-model-qe", outputs=1),
                      load("AutoModel", options["model_se"], on, "--impara-model-se"),
                      int(options["max_length"]), float(options["threshold"]),
                      int(options["batch_size"]))

    def scores(self, models: Any, sources: list[str], hypotheses: list[str],
               references: list[list[str]]) -> list[float]:
        from m2lsp.learned.impara import sentence_scores

        return sentence_scores(models, sources, hypotheses)

    def signed(self, models: Any) -> tuple[tuple[str, str], ...]:
        return (("qe", models.qe.signed), ("se", models.se.signed),
                ("max-length", str(models.max_length)), ("threshold", f"{models.threshold:g}"))

    def described(self, models: Any) -> dict[str, Any]:
        return {"model_qe": models.qe.name, "model_se": models.se.name}


METRIC = Impara()
