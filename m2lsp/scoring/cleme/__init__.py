"""CLEME (Ye et al., EMNLP 2023): chunk-level evaluation, dependent and independent, at the
corpus and the sentence level, as THUKElab/CLEME v1 computes it."""

from __future__ import annotations

from m2lsp.scoring import bertscore, errant
from m2lsp.scoring.metric import Declaration, Flag

# the BERTScore options the similarity weigher takes (raw F1: no rescaling, no IDF)
SIMILARITY_FLAGS = ("bertscore_model_type", "bertscore_num_layers", "bertscore_batch_size",
                    "bertscore_no_cuda")

DECLARATION = Declaration(
    "cleme", "cleme (chunk-level F0.5, as CLEME v1's scripts/evaluate.py prints it: SYSTEM "
    "hypothesis M2, or plain text annotated as errant_parallel would, GOLD M2; --cleme2: "
    "CLEME2.0's hit/wrong/under/over breakdown, weighted by chunk length, or by BERTScore "
    "with --cleme-weigher similarity and m2lsp[neural])",
    flags=(
        Flag(("--cleme-scorer",), "cleme: dependent (each reference on its own, the default) "
             "or independent (a chunk is right if any reference has it)",
             {"choices": ["dependent", "independent"], "default": "dependent",
              "dest": "cleme_scorer"}),
        Flag(("--level",), "cleme: corpus (F0.5 over the totals, the default) or sentence "
             "(the mean of each sentence's best)",
             {"choices": ["corpus", "sentence"], "default": "corpus", "dest": "cleme_level"}),
        Flag(("--vis",), "cleme: also print each sentence's chunks as tables, the "
             "references' targets then the hypothesis's (CLEME v1's evaluate.py --vis)",
             {"action": "store_true", "dest": "cleme_vis"}),
        Flag(("--cleme2",), "cleme: CLEME2.0's breakdown as THUKElab/CLEME (e90abea) prints "
             "it: HIT, ERR (wrong), UND (under-), OVE (over-correction) and their weighted sum "
             "COM, at the corpus and the sentence level, unweighted and weighted, with the "
             "factors of --level",
             {"action": "store_true", "dest": "cleme2"}),
        Flag(("--cleme-weigher",), "cleme --cleme2: the weights of the weighted rows: length "
             "(CLEME's chunk-length weights, the default), none (every chunk 1) or "
             "similarity (BERTScore: how far the chunk alone moves the source towards the "
             "reference, CLEME2.0's main.py default; the --bertscore-model-type, "
             "--bertscore-num-layers, --bertscore-batch-size and --bertscore-no-cuda flags; "
             "needs m2lsp[neural])",
             {"choices": ["length", "none", "similarity"], "default": "length",
              "dest": "cleme_weigher"}),
    ),
    # a plain-text hypothesis is annotated as errant's is; the similarity weigher's model
    also=(*errant.PARALLEL_FLAGS, *(f for f in bertscore.DECLARATION.flags
                                    if f.dest in SIMILARITY_FLAGS)),
    shared=frozenset({"source", "jobs", "bootstrap"}), per_sentence=True, annotates="en")
