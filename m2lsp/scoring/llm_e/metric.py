"""`--metric llm-e` (scoring.llm.judged)."""

from m2lsp.scoring.llm.judged import LlmMetric
from m2lsp.scoring.llm_e import DECLARATION

METRIC = LlmMetric(DECLARATION, "LLM-E")
