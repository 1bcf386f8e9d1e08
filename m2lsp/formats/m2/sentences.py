"""What the writers of other formats read of an M2 document: its sentences numbered from 1,
each with its block, the line it starts on and its tokens' character spans in the S line's
text; lines with no S line above them are reported, not written.  (The M2 model itself is
`m2lsp.model`, its parser `m2lsp.parsing.m2`: see this folder's `__init__`.)"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from m2lsp.formats.unconverted import Unconverted
from m2lsp.model import Block, M2Document


@dataclass(frozen=True)
class M2Sentence:
    number: int  # 1-based, over the sentences written
    start: int  # the block's first line (0-based)
    block: Any  # parsing.m2's block, its sentence present
    columns: list[tuple[int, int]]  # each token's [start, end) in the sentence's text


def m2_sentences(document: Any, problems: list[Any]) -> Iterator[M2Sentence]:
    number = 0
    for start, block in zip(document.starts, document.blocks, strict=True):
        if block.sentence is None:
            problems.append(Unconverted("-", "lines without an S line above them", start))
            continue
        number += 1
        columns = [(a - 2, b - 2) for a, b in block.sentence.token_columns()]  # "S " off
        yield M2Sentence(number, start, block, columns)


def sentence_blocks(document: M2Document) -> Iterable[tuple[Block, int]]:
    """The blocks that have a sentence, with their first line (0-based)."""
    return ((b, start) for b, start in zip(document.blocks, document.starts, strict=True)
            if b.sentence is not None)


def sentence_tokens(block: Block) -> tuple[str, ...]:
    """The tokens of a block known to have a sentence (see `sentence_blocks`)."""
    assert block.sentence is not None
    return tuple(block.sentence.tokens)
