"""Annotators' files merged into one gold and split back (`m2lsp merge`, `m2lsp split`).

Merging takes M2 files of the same sentences, in the same order, and writes one file whose
annotator k is the k-th file (its ids renumbered), or, with `keep_ids`, each line's id as
written (two files that use the same id are refused).  On one-annotator files written by
`m2lsp annotate`, the result is what `annotate --cor A B` writes.  Splitting writes one file
per annotator, their lines renumbered 0 (with `keep_ids`, as written): merging the pieces
gives the file back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from m2lsp.authoring.lines import renumbered
from m2lsp.errors import UsageError
from m2lsp.model import Block, M2Document


@dataclass(frozen=True)
class Named:
    """A parsed M2 file and the name messages give it."""

    name: str
    document: M2Document


def merge(files: Sequence[Named], keep_ids: bool = False) -> str:
    """One M2 text of the files' annotators (see the module's docstring)."""
    if not files:
        raise UsageError("merge needs one or more M2 files")
    rows = sentences_of(files)
    if keep_ids:
        _no_clash(files)
    out: list[str] = []
    for row in zip(*rows, strict=True):
        out.append(row[0].lines[0].rstrip("\r\n"))
        for index, block in enumerate(row):
            out.extend(_lines_of(block, None if keep_ids else str(index)))
        out.append("")
    return "\n".join(out) + "\n" if out else ""


def sentences_of(files: Sequence[Named]) -> list[list[Block]]:
    """Each file's blocks with a sentence; a UsageError naming the first sentence where
    the files part (its number and its line in both files)."""
    rows = [[b for b in f.document.blocks if b.sentence is not None] for f in files]
    first = files[0]
    starts = [_starts(f.document) for f in files]
    for k, (other, blocks) in enumerate(zip(files[1:], rows[1:], strict=True), 1):
        for number, (ours, theirs) in enumerate(zip(blocks, rows[0], strict=False), 1):
            if ours.lines[0].rstrip() != theirs.lines[0].rstrip():
                raise UsageError(
                    f"sentence {number} differs: {first.name}:{starts[0][number - 1] + 1} "
                    f"and {other.name}:{starts[k][number - 1] + 1}; the files must "
                    "annotate the same sentences, in the same order")
        if len(blocks) != len(rows[0]):
            raise UsageError(f"{other.name} has {len(blocks)} sentences but {first.name} has "
                             f"{len(rows[0])}: the files must annotate the same sentences")
    return rows


def _starts(document: M2Document) -> list[int]:
    return [s for s, b in zip(document.starts, document.blocks, strict=True)
            if b.sentence is not None]


def _lines_of(block: Block, annotator: str | None) -> list[str]:
    """The block's A and T lines in file order, given to `annotator` (None: as written)."""
    rows = sorted([(e.row, e.text) for e in block.edits] +
                  [(t.row, block.lines[t.row]) for t in block.targets])
    return [line.rstrip("\r\n") if annotator is None else renumbered(line, annotator)
            for _, line in rows]


def _no_clash(files: Sequence[Named]) -> None:
    seen: dict[str, str] = {}
    for f in files:
        ids = {e.annotator.strip() for b in f.document.blocks for e in b.edits}
        for found in sorted(ids):
            if found in seen:
                raise UsageError(f"annotator {found} is in {seen[found]} and in {f.name}: "
                                 "--keep-ids keeps ids as written, so they must differ "
                                 "(without it, annotator k is the k-th file)")
            seen[found] = f.name


def split(document: M2Document, keep_ids: bool = False) -> dict[str, str]:
    """One M2 text per annotator (by id as written, in order of first use): every
    sentence, with that annotator's lines only, renumbered 0 unless `keep_ids`."""
    order: dict[str, None] = {}
    for block in document.blocks:
        for edit in block.edits:
            order.setdefault(edit.annotator.strip(), None)
    out = {}
    for annotator in order:
        pieces = []
        for block in document.blocks:
            if block.sentence is None:
                continue
            own = [line for line in _lines_of(block, None) if _whose(line) == annotator]
            own = own if keep_ids else [renumbered(line, "0") for line in own]
            pieces.append("\n".join([block.lines[0].rstrip("\r\n"), *own]) + "\n\n")
        out[annotator] = "".join(pieces)
    return out


def _whose(line: str) -> str:
    """The annotator of an A line (its last field) or of a T line (`T1-A0`: 1)."""
    if line.startswith("T"):
        return line.partition(" ")[0][1:].split("-", 1)[0]
    return line.rsplit("|||", 1)[-1].strip()
