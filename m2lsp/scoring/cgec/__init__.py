"""CGEC metrics of Lin et al.: sentence accuracy, char BLEU, meaning preservation."""

from __future__ import annotations

from m2lsp.scoring.metric import Declaration

DECLARATION = Declaration(
    "cgec", "cgec (Lin et al.: sentence accuracy, char BLEU, meaning preservation; SYSTEM one "
    "sentence a line, GOLD M2, each annotator one reference)",
    shared=frozenset({"sentence_level", "bootstrap"}), per_sentence=True, annotates="zh")
