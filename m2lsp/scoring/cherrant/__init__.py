"""ChERRANT's scorer (MuCGEC's compare_m2_for_evaluation.py), and char-level annotation
of a plain-text hypothesis."""

from __future__ import annotations

from pathlib import Path

import m2lsp.arguments as arguments
from m2lsp.scoring import errant
from m2lsp.scoring.metric import Declaration, Flag

FLAGS = (
    Flag(("--max-answer-num",), "cherrant: read only annotators 0 .. N-1 of both files "
         "(compare_m2_for_evaluation --max_answer_num)",
         {"type": int, "choices": [1, 2, 3], "default": None, "dest": "cherrant_max_answers"}),
    Flag(("--reference-num",), "cherrant: score only the sentences with exactly N reference "
         "annotators (compare_m2_for_evaluation --reference_num)",
         {"type": arguments.REFERENCES, "default": None, "metavar": "N",
          "dest": "cherrant_references"}),
    Flag(("--start",), "cherrant: with --end, score only sentences START .. END-1 of both "
         "files, counted from 0 (compare_m2_for_evaluation --start; a Python slice)",
         {"type": int, "default": None, "metavar": "START", "dest": "cherrant_start"}),
    Flag(("--end",), "cherrant: with --start, the end of the slice (compare_m2_for_evaluation "
         "--end)", {"type": int, "default": None, "metavar": "END", "dest": "cherrant_end"}),
    Flag(("--multi-hyp-avg",), "cherrant: compare_m2_for_evaluation -multi_hyp_avg, which "
         "it accepts and ignores: several hypothesis annotators of a sentence are scored "
         "as without it (the best hypothesis and reference pair)",
         {"action": "store_true", "dest": "cherrant_multi_hyp_avg"}),
    Flag(("--multi-hyp-max",), "cherrant: compare_m2_for_evaluation -multi_hyp_max, which "
         "it accepts and ignores (the best pair is what it scores anyway)",
         {"action": "store_true", "dest": "cherrant_multi_hyp_max"}),
    Flag(("--cherrant-data",), "cherrant: a plain-text hypothesis is annotated with the "
         "tables in this data/ folder of a ChERRANT checkout (default: the setting "
         "cherrant-data, else $M2LSP_CHERRANT_DATA)",
         {"type": Path, "default": None, "metavar": "DIR", "dest": "cherrant_data"}),
    Flag(("--no-simplified",), "cherrant: keep Traditional characters in a plain-text "
         "hypothesis (parallel_to_m2 --no_simplified)",
         {"action": "store_true", "dest": "cherrant_traditional"}),
    Flag(("--strategy",), "cherrant: annotate a plain-text hypothesis with every distinct "
         "cheapest alignment (all, the default) or the first (parallel_to_m2 -s)",
         {"choices": ["all", "first"], "default": None, "dest": "cherrant_strategy"}),
)

DECLARATION = Declaration(
    "cherrant", "cherrant (span-based, as ChERRANT's compare_m2_for_evaluation.py; SYSTEM "
    "hypothesis M2, plain text or ChERRANT's parallel file, annotated at char level as "
    "parallel_to_m2.py would, GOLD M2)",
    flags=FLAGS, also=errant.COMPARE_FLAGS, shared=errant.DECLARATION.shared,
    per_sentence=True, annotates="zh",
    agrees=False)  # `m2lsp agree --metric errant` reads ChERRANT's files the same way
