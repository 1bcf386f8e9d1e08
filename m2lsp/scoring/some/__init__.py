"""SOME (Yoshimura et al. 2020): a reference-free learned metric, as gec-metrics 0.1.1
computes it, on the CPU too (its Config's fields are the flags, each prefixed `--some-`)."""

from __future__ import annotations

import m2lsp.arguments as arguments
from m2lsp.scoring.learned_metric import cpu_flag, model_flag, number_flag
from m2lsp.scoring.metric import Declaration

DECLARATION = Declaration(
    "some", "some (Yoshimura et al. 2020, reference-free: SYSTEM --source SRC, or the S "
    "lines of an M2 GOLD; needs m2lsp[neural])",
    flags=(
        model_flag("some", "model_g", "gfm-models/grammer", "the grammaticality model"),
        model_flag("some", "model_f", "gfm-models/fluency", "the fluency model (its "
                   "tokenizer is used for all three)"),
        model_flag("some", "model_m", "gfm-models/meaning", "the meaning model"),
        number_flag("some", "weight_g", arguments.WEIGHT, 0.55, "grammaticality's weight"),
        number_flag("some", "weight_f", arguments.WEIGHT, 0.43, "fluency's weight"),
        number_flag("some", "weight_m", arguments.WEIGHT, 0.02, "meaning's weight"),
        number_flag("some", "batch_size", arguments.BATCH, 32, "sentences per batch"),
        number_flag("some", "max_length", arguments.TOKENS, 128, "tokens read of a sentence"),
        cpu_flag("some"),
    ),
    shared=frozenset({"sentence_level", "source", "bootstrap"}), per_sentence=True,
    reference_free=True)
