"""BERTScore (Zhang et al. 2020) of hypotheses against references, as gec-metrics 0.1.1's
BertScore computes it with the bert-score package (its Config's fields are the flags, each
prefixed `--bertscore-`)."""

from __future__ import annotations

import m2lsp.arguments as arguments
from m2lsp.scoring import gleu
from m2lsp.scoring.learned_metric import cpu_flag, model_flag, number_flag
from m2lsp.scoring.metric import Declaration, Flag

DECLARATION = Declaration(
    "bertscore", "bertscore (Zhang et al. 2020, as gec-metrics' BertScore: SYSTEM with "
    "--ref R... --source SRC, or an M2 GOLD; needs m2lsp[neural])",
    flags=(
        model_flag("bertscore", "model_type", "bert-base-uncased", "the embedding model"),
        Flag(("--bertscore-num-layers",), "bertscore: the layer to read (default: "
             "bert-score's for the model; needed for a local folder)",
             {"type": arguments.TOKENS, "default": None, "metavar": "N",
              "dest": "bertscore_num_layers"}),
        number_flag("bertscore", "batch_size", arguments.BATCH, 64, "sentences per batch"),
        number_flag("bertscore", "nthreads", arguments.JOBS, 4, "tokenizer threads"),
        Flag(("--bertscore-idf",), "bertscore: weigh tokens by IDF",
             {"action": "store_true", "dest": "bertscore_idf"}),
        Flag(("--bertscore-lang",), "bertscore: the language (default en)",
             {"default": "en", "metavar": "LANG", "dest": "bertscore_lang"}),
        Flag(("--bertscore-no-rescale-with-baseline",), "bertscore: keep the raw cosine "
             "scores (default: rescaled with bert-score's baseline, as gec-metrics)",
             {"action": "store_false", "default": True,
              "dest": "bertscore_rescale_with_baseline"}),
        Flag(("--bertscore-baseline-path",), "bertscore: a baseline .tsv of your own",
             {"default": None, "metavar": "TSV", "dest": "bertscore_baseline_path"}),
        Flag(("--bertscore-use-fast-tokenizer",), "bertscore: the fast tokenizer",
             {"action": "store_true", "dest": "bertscore_use_fast_tokenizer"}),
        Flag(("--bertscore-score-type",), "bertscore: p, r or f (default f)",
             {"choices": ["p", "r", "f"], "default": "f", "dest": "bertscore_score_type"}),
        cpu_flag("bertscore"),
    ),
    also=tuple(f for f in gleu.DECLARATION.flags if f.dest == "gleu_references"),
    shared=frozenset({"sentence_level", "source", "bootstrap"}), per_sentence=True)
