"""Runs errant 3.0.2's own commands beside m2lsp, with the spaCy pipeline these tests use.

`python -m tests.annotation.reference MODEL RUNS.json`: each run is a list of arguments for
errant_parallel (`parallel_to_m2.main`) or, starting with "compare", for errant_compare
(`compare_m2.main`).  errant_parallel loads `en_core_web_sm`; here `spacy.load` gives it MODEL
instead (the same pipeline under another name).  Several errant_parallel runs in one process
share their parses: spaCy's parse of a text does not change between runs, and the first run
of each tokenisation parses everything as errant_parallel does.  Nothing of errant is changed.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys


def main() -> None:
    model = sys.argv[1]
    with open(sys.argv[2], encoding="utf-8") as plan:
        runs = json.load(plan)
    import spacy
    from errant.annotator import Annotator

    load = spacy.load
    spacy.load = lambda name, *a, **k: load(model if name == "en_core_web_sm" else name,
                                            *a, **k)
    parse, seen = Annotator.parse, {}

    def remembered(self, text, tokenise=False):
        key = (text, tokenise)
        if key not in seen:
            seen[key] = parse(self, text, tokenise)
        return seen[key]
    Annotator.parse = remembered
    from errant.commands import compare_m2, parallel_to_m2

    for run in runs:
        stdout = run.pop(0) if run and run[0].startswith("stdout=") else None
        command = compare_m2 if run[0] == "compare" else parallel_to_m2
        sys.argv = ["errant", *run[1:]]
        target = stdout[7:] if stdout else os.devnull
        with open(target, "w", encoding="utf-8") as out, contextlib.redirect_stdout(out):
            command.main()


if __name__ == "__main__":
    main()
