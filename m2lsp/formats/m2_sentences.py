"""What the writers of other formats read of an M2 document: its sentences numbered from 1,
each with its block, the line it starts on and its tokens' character spans in the S line's
text; lines with no S line above them are reported, not written."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class M2Sentence:
    number: int  # 1-based, over the sentences written
    start: int  # the block's first line (0-based)
    block: Any  # parsing.m2's block, its sentence present
    columns: list[tuple[int, int]]  # each token's [start, end) in the sentence's text


def m2_sentences(document: Any, problems: list[Any]) -> Iterator[M2Sentence]:
    from m2lsp.conversion import Unconverted

    number = 0
    for start, block in zip(document.starts, document.blocks, strict=True):
        if block.sentence is None:
            problems.append(Unconverted("-", "lines without an S line above them", start))
            continue
        number += 1
        columns = [(a - 2, b - 2) for a, b in block.sentence.token_columns()]  # "S " off
        yield M2Sentence(number, start, block, columns)
