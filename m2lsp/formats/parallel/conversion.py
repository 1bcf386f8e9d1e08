"""M2 to parallel text: the source, then each annotator's correction, tab separated.
(Parallel text to M2 is annotation: `m2lsp.annotation.parallel`.)"""

from __future__ import annotations

import re

from m2lsp.formats.m2.annotators import annotators
from m2lsp.formats.m2.sentences import sentence_blocks, sentence_tokens
from m2lsp.formats.unconverted import Problems, Unconverted
from m2lsp.model import M2Document, corrected_sentence


def to_parallel(document: M2Document, spaces: bool = True, problems: Problems = None,
                header: bool = False) -> str:
    """One line per sentence: the source, then one column per annotator of the file (in
    `annotators` order), tab separated: every line has the same columns.  An annotator with
    no line in a sentence did not change it (as M2 means), so its column holds the source;
    so does an annotator whose edits cannot be applied (overlapping, outside the sentence),
    which is reported to `problems`.  `header`: a first line naming the columns."""
    everyone = annotators(document)
    lines = ["\t".join(["source", *(f"annotator {a}" for a in everyone)])] if header else []
    for number, (block, start) in enumerate(sentence_blocks(document), 1):
        source = " ".join(sentence_tokens(block))
        fields = [source]
        for annotator in everyone:
            corrected = corrected_sentence(block, annotator)
            if corrected is None and problems is not None:
                problems.append(Unconverted(
                    str(number), f"annotator {annotator}'s edits overlap or lie outside the "
                    "sentence (with --skip-unconvertible the source stands in for its "
                    "correction)", start))
            fields.append(source if corrected is None else corrected)
        if not spaces:
            fields = ["".join(f.split()) for f in fields]
        lines.append("\t".join(_tabless(f) for f in fields))
    return "\n".join(lines) + "\n" if lines else ""


def _tabless(text: str) -> str:
    return re.sub(r"[\t\n]", " ", text)

