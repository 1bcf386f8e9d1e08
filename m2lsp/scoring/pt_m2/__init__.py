"""PT-M2 (Gong et al. 2022), as the authors' scorer (pygongnlp/PT-M2) computes it:
MaxMatch's edits against an M2 gold, each weighted by BERTScore (its options are the
`--bertscore-*` flags; needs m2lsp[neural])."""

from __future__ import annotations

from m2lsp.scoring import bertscore, errant
from m2lsp.scoring.metric import Declaration, Flag

DECLARATION = Declaration(
    "pt-m2", "pt-m2 (Gong et al. 2022, as the authors' scorer: SYSTEM and an M2 GOLD; "
    "MaxMatch's edits weighted by BERTScore; needs m2lsp[neural])",
    flags=(
        Flag(("--pt-m2-base", "--base"), "pt-m2: sentm2 (default, the authors' recommended "
             "setting: the mean of each sentence's F) or m2 (F of the corpus's weighted "
             "counts); errant and senterrant the same over the system's ERRANT edits (a "
             "plain-text SYSTEM is annotated as errant_parallel would; GOLD: ERRANT's M2)",
             {"choices": ["sentm2", "m2", "errant", "senterrant"], "default": "sentm2",
              "dest": "pt_m2_base"}),
        Flag(("--pt-m2-scorer",), "pt-m2: what weighs an edit: bertscore (default) or self "
             "(every edit 1: MaxMatch's counts with PT-M2's arithmetic, no model)",
             {"choices": ["bertscore", "self"], "default": "bertscore",
              "dest": "pt_m2_scorer"}),
    ),
    also=(*(f for f in bertscore.DECLARATION.flags if f.dest != "gleu_references"),
          *(f for f in errant.PARALLEL_FLAGS if f.dest == "spacy_model")),
    shared=frozenset({"sentence_level", "bootstrap", "beta", "jobs"}),
    per_sentence=True)
