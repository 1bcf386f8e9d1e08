"""The scorers' defaults, written once: the NUS M2 scorer's and errant_compare's (which agree).
Settings classes, command-line flags and the configuration tree all read them from here."""

BETA = 0.5
"""Weight of recall in the F-score (F_0.5: precision counts twice as much)."""
MAX_UNCHANGED_WORDS = 2
"""Longest run of unchanged tokens inside one system edit (MaxMatch)."""
ALTERNATIVES = ("two-sided", "greater", "less")
"""The alternative hypotheses `m2lsp compare` tests: A and B differ (the default), A is better
(`greater`: M(A) - M(B) > 0), A is worse (`less`)."""
METRIC = "m2"
"""The metric of `m2lsp score` when none is named."""
MAX_LATTICE_MEMORY_MIB = 768
"""The bound on one sentence's edit lattice, in MiB (0: the memory available); it never
changes a result."""
SPACY_MODEL = "en_core_web_sm"
"""The spaCy pipeline ERRANT annotates English with (errant_parallel's own)."""
MERGES = ("rules", "all-split", "all-merge", "all-equal")
"""ERRANT's merging strategies (errant_parallel's -merge); the first is its default."""


def jobs() -> int:
    """The processes a command uses when not told: the cores this process may run on."""
    import os

    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else os.cpu_count() or 1)
