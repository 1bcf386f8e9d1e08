"""MaxMatch (M2): the NUS M2 scorer 3.2, exactly, and fast (`maxmatch`, `lattice`)."""

from __future__ import annotations

import m2lsp.arguments as arguments
import m2lsp.defaults as defaults
from m2lsp.scoring.metric import Declaration, Flag

DECLARATION = Declaration(
    "m2", "m2 (MaxMatch, default; SYSTEM one tokenized sentence a line, GOLD M2)",
    flags=(
        Flag(("--very-verbose",), "m2: also print each sentence's lattice and weights",
             {"action": "store_true"}),
        Flag(("--python2",), "m2: with -v, print what NUS scorer 3.2 prints under Python 2.7 "
             "(u'' strings, 12-digit floats) byte for byte, for a diff against its logs "
             "(default: what it prints under Python 3)", {"action": "store_true"}),
        Flag(("--max-unchanged-words",), "m2: longest run of unchanged tokens inside one edit "
             f"(default: [tool.m2lsp], else {defaults.MAX_UNCHANGED_WORDS})",
             {"type": arguments.UNCHANGED_WORDS, "default": None, "metavar": "N"}),
        Flag(("--ignore-whitespace-casing",), "m2: drop system edits that only change "
             "whitespace or case", {"action": "store_true", "default": None}),
        Flag(("--time-limit",), "m2: name sentences slower than this on stderr (default 5)",
             {"type": arguments.SECONDS, "default": 5.0, "metavar": "SECONDS"}),
        Flag(("--max-lattice-memory",), "m2: stop with an error naming a sentence whose edit "
             "lattice would need more than MIB MiB (default %(default)s; 0: the memory "
             "available)",
             {"type": arguments.MEBIBYTES, "default": defaults.MAX_LATTICE_MEMORY_MIB,
              "metavar": "MIB"}),
        Flag(("--split-chars",), "m2: cut each system line into characters first (its "
             "whitespace removed, every character a token, as ChERRANT's char level), for "
             "a char-level Chinese gold such as MuCGEC's .char files",
             {"action": "store_true"}),
    ),
    shared=frozenset({"verbose", "per_type", "sentence_level", "bootstrap", "beta", "jobs",
                      "sentence_average"}),
    per_sentence=True, agrees=True, annotates="en")
