"""Annotators' files merged into one gold and split back (`m2lsp merge`, `m2lsp split`).

Merging takes M2 files of the same sentences, in the same order, and writes one file whose
annotators are numbered file by file, each file's annotators in the order they first
appear (one-annotator files: annotator k is the k-th file), or, with `keep_ids`, each line's
id as written (two files that use the same id are refused).  On one-annotator files written
by `m2lsp annotate`, the result is what `annotate --cor A B` writes.  Splitting writes one
file per annotator, or per group of annotators, their lines renumbered from 0 in the
group's order (with `keep_ids`, as written): splitting by the groups merging reports gives
the files merged back, and merging the pieces gives the gold back.

Both refuse a file with a line they cannot read (a malformed A line, an A line before any
sentence, a comment), naming the lines: carried over silently, it would be lost."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from m2lsp.authoring.lines import renumbered
from m2lsp.errors import UsageError
from m2lsp.model import Block, M2Document


@dataclass(frozen=True)
class Named:
    """A parsed M2 file and the name messages give it."""

    name: str
    document: M2Document


@dataclass(frozen=True)
class Merged:
    """A merged gold and, per file, its annotators' ids: as written -> in the gold."""

    text: str
    ids: tuple[dict[str, str], ...] = field(default=())

    @property
    def groups(self) -> list[list[str]]:
        """Each file's annotators as numbered in the gold (what `split --group` takes)."""
        return [list(ids.values()) for ids in self.ids]


def merge(files: Sequence[Named], keep_ids: bool = False) -> Merged:
    """One M2 text of the files' annotators (see the module's docstring)."""
    if not files:
        raise UsageError("merge needs one or more M2 files")
    for f in files:
        refuse_unread(f)
    rows = sentences_of(files)
    if keep_ids:
        _no_clash(files)
    ids = _numbered(files, keep_ids)
    out: list[str] = []
    for row in zip(*rows, strict=True):
        out.append(row[0].lines[0].rstrip("\r\n"))
        for block, own in zip(row, ids, strict=True):
            out.extend(_lines_of(block, None if keep_ids else own))
        out.append("")
    return Merged("\n".join(out) + "\n" if out else "", tuple(ids))


def _numbered(files: Sequence[Named], keep_ids: bool) -> list[dict[str, str]]:
    """Per file, each annotator id as written -> its id in the gold: as written with
    `keep_ids`, else numbered on from the previous file's."""
    out: list[dict[str, str]] = []
    for f in files:
        found = annotators_of(f.document)
        start = sum(len(ids) for ids in out)
        out.append({a: a if keep_ids else str(start + k) for k, a in enumerate(found)})
    return out


def annotators_of(document: M2Document) -> list[str]:
    """The ids of a document's A and T lines, as written, in order of first use."""
    order: dict[str, None] = {}
    for block in document.blocks:
        if block.sentence is not None:
            for line in _lines_of(block, None):
                order.setdefault(_whose(line), None)
    return list(order)


def refuse_unread(named: Named, most: int = 5) -> None:
    """A UsageError naming the lines of a file that do not parse, or come before any
    sentence: merging or splitting would drop them."""
    document = named.document
    rows = []
    for start, block in zip(document.starts, document.blocks, strict=True):
        if block.sentence is None:
            rows += [start + k + 1 for k, line in enumerate(block.lines) if line.strip()]
        rows += [start + problem.row + 1 for problem in block.problems]
    if rows:
        rows = sorted(set(rows))
        named_rows = ", ".join(f"{named.name}:{row}:" for row in rows[:most])
        more = f" and {len(rows) - most} more" if len(rows) > most else ""
        raise UsageError(f"{named.name} has {len(rows)} line(s) that are not an S, A or T "
                         f"line of a sentence ({named_rows}{more}); they would be lost: "
                         f"`m2lsp check {named.name}` says what is wrong with each")


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


def _lines_of(block: Block, ids: dict[str, str] | None) -> list[str]:
    """The block's A and T lines in file order, their annotators renumbered by `ids`
    (None: as written)."""
    rows = sorted([(e.row, e.text) for e in block.edits] +
                  [(t.row, block.lines[t.row]) for t in block.targets])
    lines = [line.rstrip("\r\n") for _, line in rows]
    if ids is None:
        return lines
    return [renumbered(line, ids[_whose(line)]) for line in lines]


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


def split(document: M2Document, keep_ids: bool = False,
          groups: Sequence[Sequence[str]] = ()) -> dict[tuple[str, ...], str]:
    """One M2 text per group of annotators (`groups`, each a list of ids as written; every
    other annotator a group of its own, in order of first use): every sentence, with that
    group's lines only, renumbered from 0 in the group's order unless `keep_ids`."""
    found = annotators_of(document)
    grouped = [tuple(g) for g in groups]
    _check_groups(grouped, found)
    taken = {a for g in grouped for a in g}
    grouped += [(a,) for a in found if a not in taken]
    out = {}
    for group in grouped:
        ids = {a: str(k) for k, a in enumerate(group)}
        pieces = []
        for block in document.blocks:
            if block.sentence is None:
                continue
            own = [line for line in _lines_of(block, None) if _whose(line) in ids]
            if not keep_ids:
                own = [renumbered(line, ids[_whose(line)]) for line in own]
            pieces.append("\n".join([block.lines[0].rstrip("\r\n"), *own]) + "\n\n")
        out[group] = "".join(pieces)
    return out


def _check_groups(groups: Sequence[tuple[str, ...]], found: Sequence[str]) -> None:
    seen: set[str] = set()
    for group in groups:
        for annotator in group:
            if annotator not in found:
                raise UsageError(f"--group names annotator {annotator}, which has no line "
                                 f"(annotators: {', '.join(found) or 'none'})")
            if annotator in seen:
                raise UsageError(f"annotator {annotator} is in two --group lists")
            seen.add(annotator)


def _whose(line: str) -> str:
    """The annotator of an A line (its last field) or of a T line (`T1-A0`: 1)."""
    if line.startswith("T"):
        return line.partition(" ")[0][1:].split("-", 1)[0]
    return line.rsplit("|||", 1)[-1].strip()


class Unpaired(Exception):
    """Two documents whose sentences do not pair up: their counts differ (`number` None),
    or sentence `number` (from 1) has other tokens.  Each caller says it in its words (an
    exception, not a frozen dataclass: raising sets its traceback)."""

    def __init__(self, ours: int, theirs: int, number: int | None = None) -> None:
        super().__init__(ours, theirs, number)
        self.ours, self.theirs, self.number = ours, theirs, number


def paired(ours: M2Document, theirs: M2Document) -> list[tuple[Block, Block]]:
    """The two documents' sentences one for one (blocks with an S line, in order), or
    `Unpaired` where they are not the same sentences."""
    mine = [b for b in ours.blocks if b.sentence is not None]
    other = [b for b in theirs.blocks if b.sentence is not None]
    if len(mine) != len(other):
        raise Unpaired(len(mine), len(other))
    for number, (a, b) in enumerate(zip(mine, other, strict=True), 1):
        assert a.sentence is not None and b.sentence is not None
        if a.sentence.tokens != b.sentence.tokens:
            raise Unpaired(len(mine), len(other), number)
    return list(zip(mine, other, strict=True))
