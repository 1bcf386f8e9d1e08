"""CLEME2.0's similarity weights (THUKElab/CLEME at e90abea, `SimilarityWeigher`, the
weigher its `main.py` gives `--metric cleme2`): a chunk weighs how far it alone moves the
source's similarity to the reference sentence,

    weight = |F(source, reference) - F(source with the chunk made, reference)|

with F a BERTScore F1 (raw, not rescaled).  Per sentence and reference: a hit or a false
positive is the hypothesis's chunk made on the source, a false negative the reference's
chunk, and a true negative weighs 1.  The sentence with the chunk made is its source
tokens with the chunk's target tokens in its place, joined by spaces (the source itself
where that leaves nothing).

Pure: the BERTScore is a function given in (`Similarity`: candidates and references to
F1 scores, one call for the whole corpus), so the arithmetic is tested without a model."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from m2lsp.scoring.cleme.chunks import Chunk

Similarity = Callable[[list[str], list[str]], list[float]]  # (candidates, references) -> F1
Weights = dict[int, float]  # a chunk's index -> its weight, for one sentence and reference
CHANGED = ("tp", "fp", "fp_ne", "fp_un")  # the kinds weighed by the hypothesis's chunk


@dataclass(frozen=True)
class Pending:
    """What one (sentence, reference) needs scored: the source, the reference sentence, and
    the chunks to weigh with the sentence each makes."""

    source: str
    reference: str
    made: tuple[tuple[int, str], ...]  # (chunk index, the source with that chunk made)


def made(source: str, chunks: Sequence[Chunk], index: int) -> str:
    """The source with chunk `index` of `chunks` made (the reference's
    `src_chunks_to_text`), or the source where that is empty (as its batch replaces an
    empty sentence)."""
    tokens = [t for k, chunk in enumerate(chunks)
              for t in (chunk.target_tokens if k == index else chunk.source_tokens) if t]
    return " ".join(tokens) or source


def pending(source: str, reference: str, hypothesis: Sequence[Chunk],
            theirs: Sequence[Chunk], kinds: Mapping[str, Sequence[Chunk]]) -> Pending:
    """The chunks one reference's kinds weigh: the hypothesis's changed chunks, then the
    reference's chunks the hypothesis missed."""
    wanted: dict[int, str] = {}
    for kind in CHANGED:
        for chunk in kinds[kind]:
            wanted.setdefault(chunk.index, made(source, hypothesis, chunk.index))
    for chunk in kinds["fn"]:
        wanted.setdefault(chunk.index, made(source, theirs, chunk.index))
    return Pending(source, reference, tuple(wanted.items()))


def weights(jobs: Sequence[Pending], similarity: Similarity) -> list[Weights]:
    """Each job's weights, every sentence scored in one call: the source first (the
    anchor), then each chunk's sentence, all against the job's reference."""
    candidates: list[str] = []
    references: list[str] = []
    for job in jobs:
        if job.made:
            candidates += [job.source, *(text for _, text in job.made)]
            references += [job.reference] * (1 + len(job.made))
    found = iter(similarity(candidates, references)) if candidates else iter(())
    out: list[Weights] = []
    for job in jobs:
        if not job.made:
            out.append({})
            continue
        anchor = next(found)
        out.append({index: abs(anchor - next(found)) for index, _ in job.made})
    return out
