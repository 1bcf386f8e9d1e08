"""ERRANT-style span-based scores, identical to errant_compare 3.0.2."""

from __future__ import annotations

import m2lsp.defaults as defaults
from m2lsp.scoring import gleu
from m2lsp.scoring.metric import Declaration, Flag

COMPARE_FLAGS = (
    Flag(("--dt",), "errant: detection, by tokens (errant_compare -dt)",
         {"action": "store_true", "dest": "errant_dt"}),
    Flag(("--ds",), "errant: detection, by spans (errant_compare -ds)",
         {"action": "store_true", "dest": "errant_ds"}),
    Flag(("--cs",), "errant: correction, by spans (errant_compare -cs; the default)",
         {"action": "store_true", "dest": "errant_cs"}),
    Flag(("--cse",), "errant: correction, by spans and error types (errant_compare -cse)",
         {"action": "store_true", "dest": "errant_cse"}),
    Flag(("--single",), "errant: only single-token edits (errant_compare -single)",
         {"action": "store_true", "dest": "errant_single"}),
    Flag(("--multi",), "errant: only multi-token edits (errant_compare -multi)",
         {"action": "store_true", "dest": "errant_multi"}),
    Flag(("--filt",), "errant: error types not to evaluate (errant_compare -filt)",
         {"nargs": "+", "default": None, "metavar": "TYPE", "dest": "errant_filt"}),
    Flag(("--cat",), "errant: per-category scores, 1 operation, 2 main type, 3 whole type "
         "(errant_compare -cat; --per-type is 3)",
         {"type": int, "choices": [1, 2, 3], "default": None, "dest": "errant_cat"}),
)
PARALLEL_FLAGS = (
    Flag(("--tok",), "errant: a plain-text hypothesis and its source are tokenised by spaCy "
         "(errant_parallel -tok)", {"action": "store_true", "dest": "errant_tok"}),
    Flag(("--lev",), "errant: align a plain-text hypothesis by standard Levenshtein "
         "(errant_parallel -lev)", {"action": "store_true", "dest": "errant_lev"}),
    Flag(("--merge",), "errant: merging of a plain-text hypothesis's edits (errant_parallel "
         "-merge; default rules)",
         {"choices": defaults.MERGES, "default": None, "dest": "errant_merge"}),
    Flag(("--spacy-model",), "errant: the spaCy pipeline that annotates a plain-text "
         f"hypothesis (default: [tool.m2lsp] spacy-model, else {defaults.SPACY_MODEL}; "
         "another --lang: spacy-models, else its one pipeline installed)",
         {"default": None, "metavar": "NAME", "dest": "spacy_model"}),
    Flag(("--lang",), "errant: the language of a plain-text hypothesis (default en; any other "
         "code is annotated as MultiGEC-2025 did, ERRANT's English merger and classifier "
         "over a UD parse)", {"default": None, "metavar": "CODE", "dest": "errant_lang"}),
)
VARIANT_FLAGS = (
    Flag(("--errant-variant",), "errant: errant (errant_compare's choice of each sentence's "
         "reference on F rounded to 4 decimals, the default) or gec-metrics (gec-metrics' "
         "ERRANT: the choice on F at full precision, and the full-precision F as the number "
         "meta-eval correlates)", {"choices": ["errant", "gec-metrics"], "default": None,
                                   "dest": "errant_variant"}),
)
FLAGS = COMPARE_FLAGS + VARIANT_FLAGS + PARALLEL_FLAGS

DECLARATION = Declaration(
    "errant", "errant (span-based, as errant_compare 3.0.2; SYSTEM hypothesis M2, or plain "
    "text annotated as errant_parallel would, GOLD M2)",
    flags=FLAGS,
    # --ref with --source: plain-text references (or MultiGEC-2025's essay files),
    # annotated into the gold as errant_parallel annotates them
    also=tuple(f for f in gleu.DECLARATION.flags if f.dest == "gleu_references"),
    shared=frozenset({"verbose", "per_type", "sentence_level", "bootstrap", "beta", "jobs",
                      "source", "sentence_average"}),
    per_sentence=True, agrees=True, annotates="en")
