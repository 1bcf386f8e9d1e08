"""GREEN (Koyama et al. 2024): an n-gram F-score over source, reference and corrected
sentence, as its authors' `green` computes it, or as gec-metrics does."""

from __future__ import annotations

import m2lsp.arguments as arguments
from m2lsp.scoring import gleu
from m2lsp.scoring.metric import Declaration, Flag

DECLARATION = Declaration(
    "green", "green (Koyama et al.'s n-gram F over source, reference and hypothesis, as "
    "shotakoyama/green prints it: SYSTEM one sentence a line, references --ref with "
    "--source, or GOLD M2)",
    flags=(
        Flag(("--green-n",), "green: the largest n of the n-grams (default 4)",
             {"type": arguments.DIGITS, "default": 4, "metavar": "N", "dest": "green_n"}),
        Flag(("--green-beta",), "green: beta of the F-score (default: 1.0, the authors'; "
             "2.0 with --green-variant gec-metrics); several: a column each, as green -b "
             "0.5 1 2 prints them (the first is the score's)",
             {"type": arguments.BETA, "default": None, "metavar": "B", "nargs": "+",
              "dest": "green_beta"}),
        Flag(("--green-systems", "--cor"), "green: more systems scored in the same run, a "
             "line each after SYSTEM's (green -c SYSTEM B C)",
             {"nargs": "+", "default": None, "metavar": "SYSTEM", "dest": "green_systems"}),
        Flag(("--line-verbose",), "green: with -v, one line per system and beta: alpha, "
             "beta, P, R, F over 1..n (green -v -l)",
             {"action": "store_true", "dest": "green_line_verbose"}),
        Flag(("--green-mean",), "green: each system's score the mean of its sentences' "
             "GREEN, as the authors' mgreen prints it",
             {"action": "store_true", "dest": "green_mean"}),
        Flag(("--green-unit",), "green: n-grams of words (default) or of characters",
             {"choices": ["word", "char"], "default": "word", "dest": "green_unit"}),
        Flag(("--green-variant",), "green: authors (shotakoyama/green, the default) or "
             "gec-metrics (gec-metrics' GREEN: beta 2, tokens split on single spaces, "
             "precision and recall 1 where nothing is wrong or missed, the first best "
             "reference)", {"choices": ["authors", "gec-metrics"], "default": "authors",
                            "dest": "green_variant"}),
        Flag(("--green-digits",), "green: decimals of the printed score x 100 (default 2, "
             "as green -d)", {"type": arguments.DIGITS, "default": 2, "metavar": "N",
                              "dest": "green_digits"}),
    ),
    also=tuple(f for f in gleu.DECLARATION.flags if f.dest == "gleu_references"),
    shared=frozenset({"sentence_level", "source", "bootstrap", "jobs", "verbose"}),
    per_sentence=True)
