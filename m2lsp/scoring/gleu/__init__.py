"""GLEU (Napoles et al. 2015, 2016): the JFLEG `eval/gleu.py`, exactly, and fast."""

from __future__ import annotations

import m2lsp.arguments as arguments
from m2lsp.scoring.metric import Declaration, Flag

DECLARATION = Declaration(
    "gleu", "gleu (JFLEG's gleu.py: SYSTEM one sentence a line, references --ref with "
    "--source, or GOLD M2)",
    flags=(
        Flag(("--ref",), "gleu: reference files, one sentence a line each",
             {"nargs": "+", "metavar": "FILE", "dest": "gleu_references"}),
        Flag(("--iter",), "gleu: iterations, each with one reference per sentence drawn at "
             "random (default 500)", {"type": arguments.SAMPLES, "default": 500, "metavar": "N",
                                      "dest": "gleu_iterations"}),
        Flag(("--gleu-n", "-n"), "gleu: the n-gram order (gleu.py -n; default 4). gleu.py "
             "divides by 4 whatever n is, and its corpus score counts at most 4-grams: so "
             "does this", {"type": arguments.DIGITS, "default": 4, "metavar": "N",
                           "dest": "gleu_order"}),
        Flag(("--fix-seed",), "gleu: as the gleu package's `gleu -f` (MultiGEC-2025): "
             "Python 2's draws, prints SYSTEM<TAB>GLEU x 100",
             {"action": "store_true", "dest": "gleu_fixed_seed"}),
        Flag(("--gleu-variant",), "gleu: jfleg (JFLEG's gleu.py, the default) or gec-metrics "
             "(gec-metrics' GLEU class: GREEN's reformulation, each kept source n-gram "
             "counted, no smoothing of sentence scores, prints as gecmetrics-eval)",
             {"choices": ["jfleg", "gec-metrics"], "default": None, "dest": "gleu_variant"}),
        Flag(("--digits",), "gleu: with --fix-seed, decimals printed (default 2)",
             {"type": arguments.DIGITS, "default": 2, "metavar": "N",
              "dest": "gleu_digits"}),
    ),
    shared=frozenset({"sentence_level", "source"}), plain_text_document=True)
