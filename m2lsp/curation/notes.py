"""Notes: a comment and an "unsure" flag on a sentence or one edit, by an annotator or a
curator.  M2 has no field for them, so they live beside the M2 file in `FILE.notes.jsonl`,
one JSON object a line:

    {"time": "...", "who": "ana", "sentence": "s3f2a...", "edit": "3 4|||R:PREP|||on",
     "annotator": "1", "text": "on or in?", "unsure": true}

`sentence` is a sentence key and `edit` an edit key (`curation.keys`), so a note survives
re-ordering, merging, splitting and curating; `edit` and `annotator` are absent for a note on
the whole sentence (`annotator` absent on an edit: whoever made it).  A note whose sentence
or edit the file no longer has is reported by `m2lsp check` (N002)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from m2lsp.curation.keys import EditSpec, edit_set, sentence_keys
from m2lsp.errors import UsageError
from m2lsp.model import M2Document

SUFFIX = ".notes.jsonl"


@dataclass(frozen=True)
class Note:
    who: str
    time: str
    sentence: str
    text: str
    unsure: bool = False
    edit: str | None = None
    annotator: str | None = None

    def line(self) -> str:
        data: dict[str, object] = {"time": self.time, "who": self.who,
                                   "sentence": self.sentence}
        if self.edit is not None:
            data["edit"] = self.edit
        if self.annotator is not None:
            data["annotator"] = self.annotator
        data["text"] = self.text
        data["unsure"] = self.unsure
        return json.dumps(data, ensure_ascii=False) + "\n"


def read_notes(text: str, name: str = "the notes") -> list[Note]:
    """Every note of a sidecar's text; a UsageError naming a line that is not one."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            out.append(Note(str(data["who"]), str(data["time"]), str(data["sentence"]),
                            str(data.get("text", "")), bool(data.get("unsure", False)),
                            _optional(data, "edit"), _optional(data, "annotator")))
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise UsageError(f"{name}:{number}: not a note ({exc}); each line is a JSON "
                             "object with who, time, sentence and text") from None
    return out


def _optional(data: dict, name: str) -> str | None:
    value = data.get(name)
    return None if value is None else str(value)


@dataclass(frozen=True)
class Placed:
    """A note and where it sits in a file: the 0-based index of its sentence among the
    file's sentences, None when the file no longer has its sentence or edit."""

    note: Note
    sentence: int | None
    edit_found: bool


def placed(document: M2Document, notes: Iterable[Note]) -> list[Placed]:
    """Each note placed in `document` (see `Placed`)."""
    blocks = [b for b in document.blocks if b.sentence is not None]
    where = {k: i for i, k in enumerate(sentence_keys(blocks))}
    out = []
    for note in notes:
        index = where.get(note.sentence)
        if index is None:
            out.append(Placed(note, None, False))
            continue
        found = note.edit is None or _has_edit(blocks[index].by_annotator, note)
        out.append(Placed(note, index, found))
    return out


def _has_edit(by_annotator: dict, note: Note) -> bool:
    try:
        wanted = EditSpec.parse(note.edit or "")
    except UsageError:
        return False
    owners: Sequence = ([by_annotator.get(note.annotator, [])] if note.annotator is not None
                        else list(by_annotator.values()))
    return any(wanted.retyped(spec) for edits in owners for spec in edit_set(edits))
