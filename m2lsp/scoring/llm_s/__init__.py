"""LLM-S (Kobayashi et al., BEA 2024): a language model rates up to five hypotheses of a
source side by side, from 1 to 5, as gec-metrics 0.1.2's LLMKobayashi24HFSent and
OpenAISent ask it (learned.llm_judge); its flags are the `--llm-*` ones (scoring.llm)."""

from __future__ import annotations

from m2lsp.scoring.llm import FLAGS
from m2lsp.scoring.metric import Declaration

DECLARATION = Declaration(
    "llm-s", "llm-s (Kobayashi et al. 2024, reference-free: SYSTEM --source SRC, or the S "
    "lines of an M2 GOLD; a language model rates each hypothesis 1 to 5, the systems of a "
    "compare or report side by side; the mean rating; needs m2lsp[neural] or an endpoint)",
    flags=FLAGS, shared=frozenset({"sentence_level", "source", "bootstrap"}),
    per_sentence=True, reference_free=True)
