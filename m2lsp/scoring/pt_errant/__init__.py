"""PT-ERRANT (Gong et al. 2022): ERRANT's counts with each edit weighted by BERTScore, as
gec-metrics 0.1.1 computes it (its weight model's options are BERTScore's `--bertscore-*`
flags; needs m2lsp[neural])."""

from __future__ import annotations

from m2lsp.scoring import bertscore, errant, gleu
from m2lsp.scoring.metric import Declaration, Flag

DECLARATION = Declaration(
    "pt-errant", "pt-errant (Gong et al. 2022, as gec-metrics: SYSTEM with --ref R... "
    "--source SRC, or an M2 GOLD; ERRANT's edits weighted by BERTScore; needs "
    "m2lsp[neural])",
    flags=(
        Flag(("--pt-errant-weight-model-name",), "pt-errant: the model of the edit weights "
             "(bertscore, the one gec-metrics has; its options are the --bertscore-* flags)",
             {"choices": ["bertscore"], "default": "bertscore",
              "dest": "pt_errant_weight_model_name"}),
    ),
    also=(*(f for f in gleu.DECLARATION.flags if f.dest == "gleu_references"),
          *(f for f in errant.DECLARATION.flags if f.dest == "spacy_model"),
          *(f for f in bertscore.DECLARATION.flags)),
    shared=frozenset({"sentence_level", "source", "bootstrap", "beta", "jobs"}),
    per_sentence=True)
