"""`--metric some`: each hypothesis rated for grammaticality, fluency and meaning by SOME's
three models (learned.some); the corpus score is the mean."""

from __future__ import annotations

from typing import Any

from m2lsp.scoring.learned_metric import LearnedMetric
from m2lsp.scoring.some import DECLARATION

CLASSIFIER = "AutoModelForSequenceClassification"


class Some(LearnedMetric):
    declaration = DECLARATION
    label = "SOME"

    def models(self, options: dict[str, Any]) -> Any:
        from m2lsp.learned.loading import device, load
        from m2lsp.learned.some import Some as Models

        on = device(options["no_cuda"])
        return Models(load(CLASSIFIER, options["model_g"], on, "--some-model-g", outputs=1),
                      load(CLASSIFIER, options["model_f"], on, "--some-model-f", outputs=1),
                      load(CLASSIFIER, options["model_m"], on, "--some-model-m", outputs=1),
                      float(options["weight_g"]), float(options["weight_f"]),
                      float(options["weight_m"]), int(options["max_length"]),
                      int(options["batch_size"]))

    def scores(self, models: Any, sources: list[str], hypotheses: list[str],
               references: list[list[str]]) -> list[float]:
        from m2lsp.learned.some import sentence_scores

        return sentence_scores(models, sources, hypotheses)

    def signed(self, models: Any) -> tuple[tuple[str, str], ...]:
        return (("g", models.grammar.signed), ("f", models.fluency.signed),
                ("m", models.meaning.signed),
                ("weights", f"{models.weight_g:g},{models.weight_f:g},{models.weight_m:g}"),
                ("max-length", str(models.max_length)))

    def described(self, models: Any) -> dict[str, Any]:
        return {"model_g": models.grammar.name, "model_f": models.fluency.name,
                "model_m": models.meaning.name}


METRIC = Some()
