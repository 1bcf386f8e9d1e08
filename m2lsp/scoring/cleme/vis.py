"""CLEME v1's `--vis`: each sentence's chunk partition as a table, the references' targets
then the hypothesis's (`CLEME.visualize`: the reference dataset merged with the
hypothesis's), one column a chunk, `*` on a chunk where some target differs from the
source; drawn as tabulate's `fancy_grid` draws it (headers="keys", numbers parsed, left
aligned, floats to 3 decimals)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from m2lsp.scoring.cleme.chunks import kept_targets, partition
from m2lsp.scoring.cleme.reading import Sample

INTEGER = re.compile(r"[+-]?\d+")
PADDING = 2  # tabulate's MIN_PADDING: a header's column is at least its width plus 2


def sentence_table(reference: Sample, hypothesis: Sample) -> str:
    """One sentence's table."""
    targets, edits = kept_targets(Sample(reference.source,
                                         reference.targets + hypothesis.targets,
                                         reference.edits + hypothesis.edits))
    chunks = partition(reference.source, targets, edits)
    columns = [["source", *(f"target-{k}" for k in range(len(chunks)))]]
    headers = ["sentence"]
    for index in range(len(chunks[0]) if chunks else 0):
        cells = [" ".join(chunks[0][index].source_tokens),
                 *(" ".join(c[index].target_tokens) for c in chunks)]
        headers.append(f"chunk-{index} *" if len(set(cells)) > 1 else f"chunk-{index}")
        columns.append(cells)
    return fancy_grid(headers, [_formatted(c) for c in columns])


def tables(references: Sequence[Sample], hypotheses: Sequence[Sample]) -> str:
    """Every sentence's table, each ending its line."""
    return "".join(sentence_table(r, h) + "\n"
                   for r, h in zip(references, hypotheses, strict=True))


def _formatted(cells: list[str]) -> list[str]:
    """A column's cells as tabulate shows them: where every cell but the empty ones is a
    number and one is not an integer, the numbers to 3 decimals; else as they are."""
    filled = [c for c in cells if c]
    if not filled or not all(_number(c) for c in filled) or all(
            INTEGER.fullmatch(c) for c in filled):
        return cells
    return [f"{float(c):.3f}" if c else c for c in cells]


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def fancy_grid(headers: Sequence[str], columns: Sequence[Sequence[str]]) -> str:
    """tabulate's `fancy_grid` of left-aligned columns under their headers."""
    widths = [max(len(h) + PADDING, *(len(c) for c in column))
              for h, column in zip(headers, columns, strict=True)]

    def rule(left: str, fill: str, cross: str, right: str) -> str:
        return left + cross.join(fill * (w + 2) for w in widths) + right

    def row(cells: Sequence[str]) -> str:
        return "│" + "│".join(f" {c.ljust(w)} " for c, w in zip(cells, widths,
                                                                   strict=True)) + "│"
    rows = list(zip(*columns, strict=True))
    lines = [rule("╒", "═", "╤", "╕"), row(headers), rule("╞", "═", "╪", "╡")]
    for k, cells in enumerate(rows):
        if k:
            lines.append(rule("├", "─", "┼", "┤"))
        lines.append(row(cells))
    lines.append(rule("╘", "═", "╧", "╛"))
    return "\n".join(lines)
