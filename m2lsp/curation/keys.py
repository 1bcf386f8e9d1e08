"""Keys that name a sentence and an edit whatever the order of the file.

A sentence's key is `s` and the first 12 hex digits of the SHA-1 of its tokens joined by one
space; the second and later copies of the same sentence in a file add `.2`, `.3`, ... (their
occurrence), so duplicates stay apart and keep their keys when other sentences move.  An
edit's key is its offsets, type and corrections as an A line writes them, without the
REQUIRED, comment and annotator fields: `3 4|||R:PREP|||on` (`-NONE-` for a deletion,
which the gold's A line writes empty; alternatives joined by `||`).  Two annotators'
edits are the same edit when their keys are.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from m2lsp.errors import UsageError
from m2lsp.model import NONE_CORRECTION, NOOP_TYPE, Block, Edit

OPTIONAL = "OPTIONAL"


def sentence_key(tokens: Iterable[str], occurrence: int = 1) -> str:
    """The key of a sentence's `occurrence`-th copy (1 for the first)."""
    digest = hashlib.sha1(" ".join(tokens).encode("utf-8")).hexdigest()[:12]
    return f"s{digest}" if occurrence == 1 else f"s{digest}.{occurrence}"


def sentence_keys(blocks: Iterable[Block]) -> list[str]:
    """The key of each block with a sentence, in file order."""
    seen: dict[str, int] = {}
    out = []
    for block in blocks:
        if block.sentence is None:
            continue
        first = sentence_key(block.sentence.tokens)
        seen[first] = seen.get(first, 0) + 1
        out.append(sentence_key(block.sentence.tokens, seen[first]))
    return out


@dataclass(frozen=True, order=True)
class EditSpec:
    """An edit apart from who made it: offsets, type, corrections (`""` deletes).  Whether
    its annotator marked it REQUIRED or OPTIONAL is carried along, but is no part of what
    the edit is: two edits that differ only there are the same edit (and the key says
    nothing of it)."""

    start: int
    end: int
    type: str
    corrections: tuple[str, ...]
    required: bool = field(default=True, compare=False)

    @classmethod
    def of(cls, edit: Edit) -> EditSpec:
        return cls(edit.start, edit.end, edit.type.strip(), edit.canonical or ("",),
                   edit.required.strip().upper() != OPTIONAL)

    @classmethod
    def parse(cls, text: str) -> EditSpec:
        """`3 4|||R:PREP|||on` (an `A ` in front and fields after the third are ignored);
        a UsageError saying what is wrong."""
        fields = text.strip().removeprefix("A ").split("|||")
        offsets = fields[0].split()
        if len(fields) < 3 or len(offsets) != 2 or not all(
                o.lstrip("-").isdigit() for o in offsets):
            raise UsageError(f"{text!r} is no edit: write it `START END|||TYPE|||CORRECTION`, "
                             "as in `3 4|||R:PREP|||on`")
        start, end = int(offsets[0]), int(offsets[1])
        if not 0 <= start <= end or not fields[1].strip():
            raise UsageError(f"{text!r} is no edit: offsets must be 0 <= start <= end and "
                             "the type not empty")
        corrections = tuple("" if c.strip() == NONE_CORRECTION else c.strip()
                            for c in fields[2].split("||"))
        return cls(start, end, fields[1].strip(), corrections)

    def retyped(self, other: EditSpec) -> bool:
        """Whether `other` is this edit, its type aside (the same span becoming the same
        text): a note on an edit follows it when only its type changes."""
        return (self.start, self.end, self.corrections) == (
            other.start, other.end, other.corrections)

    @property
    def key(self) -> str:
        shown = "||".join(c or NONE_CORRECTION for c in self.corrections)
        return f"{self.start} {self.end}|||{self.type}|||{shown}"

    def line(self, annotator: str = "0") -> str:
        """The A line: a deletion with an empty correction, as ERRANT and the NUS gold
        write it (the key shows it `-NONE-`, which M410 flags in a file)."""
        shown = "||".join(self.corrections)
        flag = "REQUIRED" if self.required else OPTIONAL
        return f"A {self.start} {self.end}|||{self.type}|||{shown}|||{flag}|||-NONE-|||{annotator}"

    def competes(self, other: EditSpec) -> bool:
        """Whether the two cannot both stand: the same span, spans that overlap, or two
        insertions at the same point."""
        if (self.start, self.end) == (other.start, other.end):
            return True
        return self.start < other.end and other.start < self.end


def edit_set(edits: Iterable[Edit]) -> frozenset[EditSpec]:
    """An annotator's edits as a set (its noop is the empty set)."""
    return frozenset(EditSpec.of(e) for e in edits if e.type != NOOP_TYPE)
