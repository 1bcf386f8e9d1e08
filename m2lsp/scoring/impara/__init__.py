"""IMPARA (Maeda et al. 2022): a reference-free learned metric, as gec-metrics 0.1.1 computes
it (its Config's fields are the flags, each prefixed `--impara-`)."""

from __future__ import annotations

import m2lsp.arguments as arguments
from m2lsp.scoring.learned_metric import cpu_flag, model_flag, number_flag
from m2lsp.scoring.metric import Declaration

DECLARATION = Declaration(
    "impara", "impara (Maeda et al. 2022, reference-free: SYSTEM --source SRC, or the S "
    "lines of an M2 GOLD; needs m2lsp[neural])",
    flags=(
        model_flag("impara", "model_qe", "gotutiyan/IMPARA-QE", "the quality model"),
        model_flag("impara", "model_se", "bert-base-cased", "the similarity model"),
        number_flag("impara", "max_length", arguments.TOKENS, 128,
                    "tokens read of a sentence"),
        number_flag("impara", "threshold", arguments.WEIGHT, 0.9,
                    "the least source-hypothesis similarity that keeps a score"),
        number_flag("impara", "batch_size", arguments.BATCH, 32, "sentences per batch"),
        cpu_flag("impara"),
    ),
    shared=frozenset({"sentence_level", "source", "bootstrap"}), per_sentence=True,
    reference_free=True)
