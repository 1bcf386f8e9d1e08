"""GoToScorer (Gotou et al. 2020): chunk-level counts weighted by how hard each chunk is for
a set of systems, as gec-metrics 0.1.1 computes it (its Config's fields are the flags, each
prefixed `--gotoscorer-`); no model, ERRANT's edits of plain text."""

from __future__ import annotations

import m2lsp.arguments as arguments
from m2lsp.scoring import errant, gleu
from m2lsp.scoring.metric import Declaration, Flag

DECLARATION = Declaration(
    "gotoscorer", "gotoscorer (Gotou et al. 2020, as gec-metrics: SYSTEM with --ref R... "
    "--source SRC, or an M2 GOLD; ERRANT's edits; weights from `m2lsp gotoscorer-weight`)",
    flags=(
        Flag(("--gotoscorer-weight-file",), "gotoscorer: each reference chunk's weight (the "
             "JSON of `m2lsp gotoscorer-weight` or gecmetrics-gen-gotoscorer-weight); "
             "without it every chunk weighs 1 (gec-metrics' no_weight)",
             {"default": None, "metavar": "JSON", "dest": "gotoscorer_weight_file"}),
        Flag(("--gotoscorer-ref-id",), "gotoscorer: the one reference it reads (default 0)",
             {"type": arguments.COUNT, "default": 0, "metavar": "N",
              "dest": "gotoscorer_ref_id"}),
    ),
    also=(*(f for f in gleu.DECLARATION.flags if f.dest == "gleu_references"),
          *(f for f in errant.DECLARATION.flags if f.dest == "spacy_model")),
    shared=frozenset({"sentence_level", "source", "bootstrap", "beta", "jobs"}),
    per_sentence=True)
