"""How far each annotator has got: the sentences in which they wrote a line (an edit or a
noop) out of all sentences.  A sentence where an annotator wrote nothing is not yet
annotated by them (M502, opt-in, flags it); the annotators are the file's, and annotator 0
in a file no one has annotated yet."""

from __future__ import annotations

from dataclasses import dataclass

from m2lsp.authoring.disagreements import annotators_of
from m2lsp.model import M2Document


@dataclass(frozen=True)
class Progress:
    annotator: str
    done: int
    sentences: int

    def __str__(self) -> str:
        return f"annotator {self.annotator}: {self.done} of {self.sentences} sentences"


def progress(document: M2Document) -> list[Progress]:
    """Each annotator's count, in order of first use."""
    blocks = [b for b in document.blocks if b.sentence is not None]
    annotators = annotators_of(document) or ["0"]
    return [Progress(a, sum(1 for b in blocks if a in b.by_annotator), len(blocks))
            for a in annotators]
