"""GoToScorer (Gotou et al. 2020) as gec-metrics 0.1.1 computes it, to the last digit.

The source is cut into chunks: each reference edit is one chunk, every other token one, and
an empty chunk (a place for an insertion) stands before each chunk that is not itself an
insertion, and at the end.  Each reference chunk, weighted (1, or its weight from a weight
file), counts for its error type as
- a true positive when the hypothesis edited it and got it right,
- a false positive when it edited it wrongly (and a false negative too if the reference
  edits it),
- a true negative when neither touched it, a false negative when only the reference did.
A hypothesis chunk with the reference chunk's span decides; failing one, an insertion place
counts as right, and any overlapping edited hypothesis chunk as an attempt.  The counts add
up per sentence (type by type, in order of appearance) and over the corpus, F-beta as
ERRANT's.

Weights (`gecmetrics-gen-gotoscorer-weight`): a chunk's weight is 1 minus the share of the
systems that got it right.  As that script does, a chunk counts as right for a system when
any of the system's chunks has the chunk's text: the script compares the reference chunk's
span with itself, so the position never matters.  m2lsp reproduces this; `weights` says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from m2lsp.annotation.edit_lists import Edit
from m2lsp.scoring.weighted_counts import Counts

DUMMY = "DUMMY:DUMMY"


@dataclass(frozen=True)
class Chunk:
    o_start: int
    o_end: int
    c_str: str
    type: str = DUMMY
    edited: bool = False


def chunks(edits: Sequence[Edit], tokens: Sequence[str]) -> list[Chunk]:
    """The chunk sequence of `tokens` (the source split on single spaces) and its edits."""
    found: list[Chunk] = []
    at, word = 0, 0
    while word < len(tokens):
        if at < len(edits) and edits[at].o_start == word:
            e = edits[at]
            found.append(Chunk(e.o_start, e.o_end, e.c_str, e.type, True))
            at += 1
            word = e.o_end - 1
        else:
            found.append(Chunk(word, word + 1, tokens[word]))
        word += 1
    if edits and edits[-1].o_start == len(tokens):
        e = edits[-1]
        found.append(Chunk(e.o_start, e.o_end, e.c_str, e.type, True))
    return _with_places(found)


def _with_places(found: list[Chunk]) -> list[Chunk]:
    out: list[Chunk] = []
    after_insertion = False
    for chunk in found:
        if chunk.o_start == chunk.o_end:
            after_insertion = True
            out.append(chunk)
            continue
        if not after_insertion:
            out.append(Chunk(chunk.o_start, chunk.o_start, ""))
        out.append(chunk)
        after_insertion = False
    if not after_insertion:
        out.append(Chunk(found[-1].o_end, found[-1].o_end, ""))
    return out


def judged(reference: Chunk, hypothesis: Sequence[Chunk]) -> tuple[bool, bool]:
    """(right, attempted) for one reference chunk against the hypothesis's chunks."""
    right = attempted = False
    for h in hypothesis:
        if (reference.o_start, reference.o_end) == (h.o_start, h.o_end):
            right = reference.c_str == h.c_str
            attempted = h.edited
            break
        if reference.o_start == reference.o_end:
            right = True
        elif (reference.o_start <= h.o_start < reference.o_end
              or h.o_start <= reference.o_start < h.o_end):
            attempted |= h.edited
    return right, attempted


@dataclass
class Sentence:
    """One sentence's counts per error type (in order of appearance)."""

    types: dict[str, Counts] = field(default_factory=dict)

    def overall(self, beta: float) -> Counts:
        total = Counts(beta=beta)
        for counts in self.types.values():
            total = total.plus(counts)
        return total


def sentence(reference: Sequence[Chunk], hypothesis: Sequence[Chunk],
             weights: Sequence[float] | None, beta: float) -> Sentence:
    out = Sentence()
    for i, chunk in enumerate(reference):
        weight = 1.0 if weights is None else weights[i]
        right, attempted = judged(chunk, hypothesis)
        counts = out.types.setdefault(chunk.type, Counts(beta=beta))
        if attempted:
            if right:
                counts.tp += weight
            else:
                counts.fp += weight
                if chunk.edited:
                    counts.fn += weight
        elif right:
            counts.tn += weight
        else:
            counts.fn += weight
    return out


def corpus(sentences: Sequence[Sentence], beta: float) -> Counts:
    total = Counts(beta=beta)
    for s in sentences:
        total = total.plus(s.overall(beta))
    return total


def weights(reference: Sequence[Chunk], systems: Sequence[Sequence[Chunk]]
            ) -> tuple[list[list[int]], list[float]]:
    """Each reference chunk's evaluations (1: the system got it, by the script's test: one
    of its chunks has the chunk's text) and weight, as gecmetrics-gen-gotoscorer-weight."""
    evaluations = [[int(any(h.c_str == chunk.c_str for h in system)) for system in systems]
                   for chunk in reference]
    return evaluations, [1 - sum(e) / len(e) for e in evaluations]
