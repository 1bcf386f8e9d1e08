"""CLEME's chunk partition (Ye et al. 2023, §3.1): the edits of the hypothesis and of every
reference of a sentence, merged wherever they overlap or touch, cut the source into the
same chunks for all of them -- unchanged chunks, corrected chunks and empty ("dummy")
chunks where something is inserted -- so that each chunk of the hypothesis can be
compared with the same chunk of each reference.  As `cleme/chunk.py` does it, including
its token mapping from source to target positions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from m2lsp.errors import InputError
from m2lsp.scoring.cleme.reading import Edit, Sample


@dataclass(frozen=True)
class Chunk:
    """One chunk of one target: its source span and tokens, the target's tokens for it,
    and whether the target corrects it (a corrected or dummy chunk)."""

    index: int
    start: int
    end: int
    source_tokens: tuple[str, ...]
    target_tokens: tuple[str, ...]
    corrected: bool
    target_start: int = 0  # where its tokens stand in the target

    @property
    def length(self) -> int:
        return max(len(self.source_tokens), len(self.target_tokens))

    def same(self, other: Chunk) -> bool:
        """CLEME's chunk equality: the same chunk with the same target tokens."""
        return self.index == other.index and self.target_tokens == other.target_tokens


def kept_targets(sample: Sample) -> tuple[list[str], list[tuple[Edit, ...]]]:
    """The targets CLEME keeps: an empty one is dropped while more than two remain, as its
    loop drops them (which, deleting while it walks the list, looks past the next one)."""
    targets, edits = list(sample.targets), list(sample.edits)
    index = 0
    while index < len(targets):
        if not targets[index] and len(targets) > 2:
            del targets[index]
            del edits[index]
        index += 1
    return targets, edits


def partition(source: str, targets: Sequence[str], edits: Sequence[Sequence[Edit]]
              ) -> list[list[Chunk]]:
    """Each target's chunks, the same cut for all (CLEME's chunk_partition)."""
    source_tokens = source.split()
    target_tokens = [t.split() for t in targets]
    ordered = [sorted(e, key=lambda x: x.start) for e in edits]
    mappings = [_mapping(len(source_tokens), e) for e in ordered]
    shared = _shared([e for es in ordered for e in es])
    placed = [_placed(es, shared, m) for es, m in zip(ordered, mappings, strict=True)]
    intervals = _intervals(len(source_tokens), shared)
    return [_chunks(source_tokens, tokens, spans, mapping, intervals)
            for tokens, spans, mapping in zip(target_tokens, placed, mappings, strict=True)]


def _mapping(length: int, edits: Sequence[Edit]) -> dict[int, int]:
    """Source position -> target position of one target (CLEME's map_parallel)."""
    mapping: dict[int, int] = {}
    source = target = 0
    for edit in edits:
        mapping[edit.start] = edit.target_start
        mapping[edit.end] = edit.target_end
        while source < edit.start:
            mapping[source] = target
            source += 1
            target += 1
        source, target = edit.end, edit.target_end
    while source <= length:
        mapping[source] = target
        source += 1
        target += 1
    return mapping


def _shared(edits: Sequence[Edit]) -> list[list[int]]:
    """The source intervals of all targets' edits, merged where they overlap or touch."""
    shared: list[list[int]] = []
    for edit in sorted(edits, key=lambda x: x.start):
        if shared and edit.start <= shared[-1][1]:
            shared[-1][1] = max(edit.end, shared[-1][1])
        else:
            shared.append([edit.start, edit.end])
    return shared


def _placed(edits: Sequence[Edit], shared: list[list[int]], mapping: dict[int, int]
            ) -> dict[tuple[int, int], tuple[int, int]]:
    """Each shared interval this target edits -> its span in the target."""
    out: dict[tuple[int, int], tuple[int, int]] = {}
    for edit in edits:
        start, end = next(i for i in shared if edit.start >= i[0] and edit.end <= i[1])
        begin = 0 if start == 0 else mapping[start - 1] + 1
        out.setdefault((start, end), (begin, mapping[end]))
    return out


def _intervals(length: int, shared: list[list[int]]) -> list[tuple[int, int]]:
    """The chunks' source intervals: unchanged stretches between the shared intervals."""
    out: list[tuple[int, int]] = []
    position, k = 0, 0
    while position <= length and len(out) <= 2 * length + 2 * len(shared) + 2:
        if k == len(shared):
            if position != length:
                out.append((position, length))
            break
        start, end = shared[k]
        if position == start == end:  # an insertion: a dummy chunk
            out.append((start, end))
            k += 1
        elif start <= position < end:  # a corrected chunk
            out.append((start, end))
            position = end
            k += 1
        else:  # the unchanged stretch before it
            out.append((position, start))
            position = start
    return out


def _chunks(source: list[str], target: list[str],
            spans: dict[tuple[int, int], tuple[int, int]], mapping: dict[int, int],
            intervals: list[tuple[int, int]]) -> list[Chunk]:
    out = []
    for index, (start, end) in enumerate(intervals):
        if (start, end) in spans:
            begin, finish = spans[(start, end)]
            corrected = True
        else:
            begin = mapping[start]
            finish = 0 if end == 0 else mapping[end - 1] + 1
            corrected = False
        out.append(Chunk(index, start, end, tuple(source[start:end]),
                         tuple(target[begin:finish]), corrected, begin))
    return out


def check_pair(hypothesis: Sample, reference: Sample, index: int) -> None:
    """An InputError unless the hypothesis has one target and the reference's source."""
    if len(hypothesis.targets) != 1:
        raise InputError(f"hypothesis sentence {index + 1} has {len(hypothesis.targets)} "
                         "annotators; a system is one")
    if hypothesis.source != reference.source:
        raise InputError(f"sentence {index + 1} (counted from 1): the hypothesis and the "
                         f"reference have different sources, "
                         f"{_first_difference(hypothesis.source, reference.source)}")


def _first_difference(ours: str, theirs: str) -> str:
    """Where two token sequences first differ: "token 9: '：' against ':'"."""
    a, b = ours.split(), theirs.split()
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
              min(len(a), len(b)))
    def shown(tokens: list[str]) -> str:
        return repr(tokens[at]) if at < len(tokens) else "the end of the sentence"
    return f"from token {at + 1}: {shown(a)} in the hypothesis, {shown(b)} in the reference"


def chunked(hypothesis: Sample, reference: Sample, index: int
            ) -> tuple[list[Chunk], list[list[Chunk]]]:
    """One sentence's hypothesis chunks and each reference's (its hypothesis and reference
    samples, as CLEME reads them, merged and partitioned)."""
    check_pair(hypothesis, reference, index)
    targets, edits = kept_targets(Sample(hypothesis.source,
                                         hypothesis.targets + reference.targets,
                                         hypothesis.edits + reference.edits))
    chunks = partition(hypothesis.source, targets, edits)
    if len(chunks) < 2:
        raise InputError(f"sentence {index + 1}: no reference left to compare with")
    return chunks[0], chunks[1:]
