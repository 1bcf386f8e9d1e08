"""`--metric bertscore`: each hypothesis against its references (learned.bertscore); the
corpus score is the mean."""

from __future__ import annotations

from typing import Any

from m2lsp.scoring.bertscore import DECLARATION
from m2lsp.scoring.learned_metric import LearnedMetric


class BertScore(LearnedMetric):
    declaration = DECLARATION
    label = "BERTScore"

    def models(self, options: dict[str, Any]) -> Any:
        from m2lsp.learned.bertscore import load

        return load(options, "--bertscore-model-type")

    def scores(self, models: Any, sources: list[str], hypotheses: list[str],
               references: list[list[str]]) -> list[float]:
        from m2lsp.learned.bertscore import sentence_scores

        return sentence_scores(models, hypotheses, references)

    def signed(self, models: Any) -> tuple[tuple[str, str], ...]:
        return (("model", models.signed), ("layer", str(models.num_layers)),
                ("lang", models.lang), ("rescaled", models.rescaled),
                ("idf", "yes" if models.idf else "no"), ("score", models.score_type))

    def described(self, models: Any) -> dict[str, Any]:
        return {"model": models.name}


METRIC = BertScore()
