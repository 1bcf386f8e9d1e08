"""The Scribendi score (Islam and Magnani 2021): reference-free, a language model's
perplexity and two similarity ratios, as gec-metrics 0.1.1 computes it (its Config's fields
are the flags, each prefixed `--scribendi-`)."""

from __future__ import annotations

import m2lsp.arguments as arguments
from m2lsp.scoring.learned_metric import cpu_flag, model_flag, number_flag
from m2lsp.scoring.metric import Declaration

DECLARATION = Declaration(
    "scribendi", "scribendi (Islam and Magnani 2021, reference-free: SYSTEM --source SRC, or "
    "the S lines of an M2 GOLD; the sum of +1/0/-1 per sentence; needs m2lsp[neural])",
    flags=(
        model_flag("scribendi", "model", "gpt2", "the language model"),
        number_flag("scribendi", "threshold", arguments.WEIGHT, 0.8,
                    "the least token-sort or Levenshtein ratio of a +1"),
        number_flag("scribendi", "batch_size", arguments.BATCH, 32, "sentences per batch"),
        cpu_flag("scribendi"),
    ),
    shared=frozenset({"sentence_level", "source", "bootstrap"}), per_sentence=True,
    reference_free=True)
