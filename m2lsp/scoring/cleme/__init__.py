"""CLEME (Ye et al., EMNLP 2023): chunk-level evaluation, dependent and independent, at the
corpus and the sentence level, as THUKElab/CLEME v1 computes it."""

from __future__ import annotations

from m2lsp.scoring import errant
from m2lsp.scoring.metric import Declaration, Flag

DECLARATION = Declaration(
    "cleme", "cleme (chunk-level F0.5, as CLEME v1's scripts/evaluate.py prints it: SYSTEM "
    "hypothesis M2, or plain text annotated as errant_parallel would, GOLD M2; the "
    "CLEME2.0 weightings that need BERTScore are not offered)",
    flags=(
        Flag(("--cleme-scorer",), "cleme: dependent (each reference on its own, the default) "
             "or independent (a chunk is right if any reference has it)",
             {"choices": ["dependent", "independent"], "default": "dependent",
              "dest": "cleme_scorer"}),
        Flag(("--level",), "cleme: corpus (F0.5 over the totals, the default) or sentence "
             "(the mean of each sentence's best)",
             {"choices": ["corpus", "sentence"], "default": "corpus", "dest": "cleme_level"}),
    ),
    also=errant.PARALLEL_FLAGS,  # a plain-text hypothesis is annotated as errant's is
    shared=frozenset({"source", "jobs", "bootstrap"}), per_sentence=True)
