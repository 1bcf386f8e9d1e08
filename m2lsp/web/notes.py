"""An annotator's notes ("unsure", a comment) on a sentence or one of its edits, kept
beside their layer in CURATE's format (`layers/NAME.m2.notes.jsonl`, as `m2lsp note`
writes them), so the curator, `m2lsp note` and `m2lsp check` see them.  Pure of HTTP."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from m2lsp.errors import UsageError
from m2lsp.model import Block
from m2lsp.web.project import ANNOTATOR, Project, block, read_document


def notes_path(project: Project, user: str) -> Path:
    from m2lsp.curation.notes import SUFFIX

    return Path(str(project.layer(user)) + SUFFIX)


def notes_of(project: Project, user: str, number: int,
             found: Block | None = None) -> list[dict[str, Any]]:
    """The notes of `user`'s layer on sentence `number` (its block `found`, if read
    already), oldest first.  The layer is read whole only when a note names this sentence's
    tokens, to tell a repeated sentence's copies apart."""
    from m2lsp.curation.keys import sentence_key
    from m2lsp.curation.notes import read_notes

    path = notes_path(project, user)
    if not path.is_file():
        return []
    if found is None:
        found = block(read_document(project.layer(user)), number)
    first = sentence_key(found.sentence.tokens if found.sentence else ())
    near = [n for n in read_notes(path.read_text(encoding="utf-8"), str(path))
            if n.sentence == first or n.sentence.startswith(first + ".")]
    if not near:
        return []
    from m2lsp.curation.keys import EditSpec

    key = _key(project, user, number)
    tokens = found.sentence.tokens if found.sentence else ()
    own = [EditSpec.of(e) for e in found.by_annotator.get(ANNOTATOR, ()) if not e.is_noop]
    # `change`: the edit noted as the pages show an edit, with its type now (None: on the
    # whole sentence)
    return [{"who": n.who, "time": n.time, "text": n.text, "unsure": n.unsure,
             "edit": n.edit, "change": _now(tokens, own, n.edit) if n.edit else None}
            for n in near if n.sentence == key]


def _now(tokens: Sequence[str], own: list[Any], noted: str) -> dict[str, Any] | None:
    """The edit a note is on, as it is now (its type may have changed since), else as the
    note names it."""
    from m2lsp.curation.keys import EditSpec
    from m2lsp.web.display import spec_row

    try:
        wanted = EditSpec.parse(noted)
    except UsageError:
        return None
    return spec_row(tokens, next((spec for spec in own if wanted.retyped(spec)), wanted))


def _key(project: Project, user: str, number: int) -> str:
    from m2lsp.curation.keys import sentence_keys

    return sentence_keys(read_document(project.layer(user)).blocks)[number - 1]


def noted(project: Project, user: str, number: int, body: Any) -> list[dict[str, Any]]:
    """Append a note (`{"text", "unsure", "edit": index or null}`) on sentence `number`
    of `user`'s layer; the sentence's notes after it."""
    from m2lsp.curation.keys import EditSpec
    from m2lsp.curation.notes import Note
    from m2lsp.curation.record import now
    from m2lsp.files.writing import write_atomic

    if not isinstance(body, dict):
        raise UsageError("the body is a JSON object: text, unsure, edit")
    text, unsure, index = body.get("text", ""), body.get("unsure", False), body.get("edit")
    if not isinstance(text, str) or not isinstance(unsure, bool) or len(text) > 2000:
        raise UsageError("text is a string (at most 2,000 characters), unsure true or false")
    if not text.strip() and not unsure:
        raise UsageError("a note needs a text or unsure")
    found = block(read_document(project.layer(user)), number)
    edit = None
    if index is not None:
        own = list(found.by_annotator.get(ANNOTATOR, ()))
        if type(index) is not int or not 0 <= index < len(own) or own[index].is_noop:
            raise UsageError("edit is the index of one of your edits, or null")
        edit = EditSpec.of(own[index]).key
    key = _key(project, user, number)
    note = Note(user, now(), key, text.strip(), unsure, edit, None if edit is None else
                ANNOTATOR)
    path = notes_path(project, user)
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    write_atomic(path, (old if not old or old.endswith("\n") else old + "\n") + note.line())
    return notes_of(project, user, number, found)
