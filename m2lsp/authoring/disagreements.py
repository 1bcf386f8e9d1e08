"""Where annotators disagree, and adjudicating it.

Two annotators disagree on a sentence when their sets of edits differ; an edit is its
offsets, its type and its corrections as the NUS scorer reads them (`-NONE-` empty), so the
same correction typed otherwise is a disagreement too.  A noop, or no line at all, is the
empty set.  The annotators compared are the file's (every id used anywhere in it).

Adjudication rewrites one block: adopt annotator N's edits as annotator K's, accept one
edit into K's, or keep only N's lines.  Each gives the block's new lines after its S line,
for one edit of the document."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from m2lsp.authoring.lines import in_order, noop_line, renumbered, with_lines
from m2lsp.errors import UsageError
from m2lsp.model import Block, Edit, M2Document

Key = tuple[int, int, str, tuple[str, ...]]


def key(edit: Edit) -> Key:
    return edit.start, edit.end, edit.type.strip(), edit.canonical


@dataclass(frozen=True)
class Disagreement:
    """A sentence whose annotators' edit sets differ: its number (1-based), the row of its
    S line (0-based), and for each annotator the edits some other annotator lacks."""

    sentence: int
    line: int
    text: str
    only: dict[str, tuple[Edit, ...]]

    def to_dict(self) -> dict:
        return {"sentence": self.sentence, "line": self.line + 1, "text": self.text,
                "only": {a: [_shown(e) for e in edits] for a, edits in self.only.items()}}


def _shown(edit: Edit) -> dict:
    return {"start": edit.start, "end": edit.end, "type": edit.type.strip(),
            "corrections": list(edit.canonical), "line": edit.text}


def annotators_of(document: M2Document) -> list[str]:
    """Every annotator id the file uses, in order of first use."""
    found: dict[str, None] = {}
    for block in document.blocks:
        for edit in block.edits:
            found.setdefault(edit.annotator.strip(), None)
    return list(found)


def disagreements(document: M2Document) -> list[Disagreement]:
    """Every sentence where the file's annotators' edit sets differ, in file order."""
    everyone = annotators_of(document)
    out = []
    number = 0
    for start, block in zip(document.starts, document.blocks, strict=True):
        if block.sentence is None:
            continue
        number += 1
        found = disagreement(block, everyone)
        if found:
            out.append(Disagreement(number, start, block.sentence.text, found))
    return out


def disagreement(block: Block, annotators: Sequence[str]) -> dict[str, tuple[Edit, ...]]:
    """For each annotator, its edits that at least one other annotator lacks (empty when
    they all agree, or there are fewer than two)."""
    if len(annotators) < 2:
        return {}
    sets = {a: {key(e): e for e in block.by_annotator.get(a, []) if not e.is_noop}
            for a in annotators}
    if len({frozenset(s) for s in sets.values()}) == 1:
        return {}
    return {a: tuple(e for k, e in own.items()
                     if any(k not in sets[b] for b in annotators if b != a))
            for a, own in sets.items()}


def adopted(block: Block, source: str, target: str) -> list[str]:
    """The block's lines with `target`'s edits replaced by `source`'s (renumbered)."""
    lines = [renumbered(e.text, target) for e in block.by_annotator.get(source, [])]
    return with_lines(block, target, lines or [noop_line(target)])


def accepted(block: Block, row: int, target: str) -> list[str]:
    """The block's lines with the edit at `row` (an A line of another annotator) added to
    `target`'s, in offset order, in place of the edits of `target` it competes with (see
    `competes`: two versions of one insertion make `we , we need`)."""
    edit = next((e for e in block.edits if e.row == row), None)
    if edit is None or edit.is_noop:
        raise UsageError(f"row {row} of the sentence is no edit to accept")
    mine = block.by_annotator.get(target, [])
    if any(key(e) == key(edit) for e in mine):
        raise UsageError(f"annotator {target} has this edit already")
    mine = [e for e in mine if e.is_noop or not competes(e, edit)]
    return with_lines(block, target, in_order(mine, renumbered(edit.text, target),
                                              edit.start, edit.end))


def competes(one: Edit, other: Edit) -> bool:
    """Whether two edits are rivals: they share a token, or insert at one point words in
    common (`we ,` and `we`; ERRANT writes `,` and `they` at one point as two edits)."""
    if one.start < other.end and other.start < one.end:
        return True
    if not one.start == one.end == other.start == other.end:
        return False
    words = {w.lower() for c in one.canonical for w in c.split()}
    return any(w.lower() in words for c in other.canonical for w in c.split())


def kept_only(block: Block, keep: str) -> list[str]:
    """The block's lines with only `keep`'s lines (every other annotator's removed)."""
    rows = [e.row for e in block.edits if e.annotator.strip() == keep] + \
        [t.row for t in block.targets if t.label[1:].split("-", 1)[0] == keep]
    return [block.lines[row].rstrip("\r\n") for row in sorted(rows)]
