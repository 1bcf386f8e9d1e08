"""`--metric llm-s` (scoring.llm.judged)."""

from m2lsp.scoring.llm.judged import LlmMetric
from m2lsp.scoring.llm_s import DECLARATION

METRIC = LlmMetric(DECLARATION, "LLM-S")
