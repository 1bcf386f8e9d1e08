"""LLM-E (Kobayashi et al., BEA 2024): LLM-S with each hypothesis shown to the model as its
ERRANT edits (`orig→cor`), as gec-metrics 0.1.2's LLMKobayashi24HFEdit and OpenAIEdit ask
it; the `--llm-*` flags (scoring.llm) and ERRANT's `--spacy-model`."""

from __future__ import annotations

from m2lsp.scoring import errant
from m2lsp.scoring.llm import FLAGS
from m2lsp.scoring.metric import Declaration

DECLARATION = Declaration(
    "llm-e", "llm-e (Kobayashi et al. 2024, reference-free, as llm-s with each hypothesis "
    "shown as its ERRANT edits; needs m2lsp[neural] or an endpoint, and ERRANT)",
    also=(*FLAGS, *(f for f in errant.DECLARATION.flags if f.dest == "spacy_model")),
    shared=frozenset({"sentence_level", "source", "bootstrap", "jobs"}),
    per_sentence=True, reference_free=True)
