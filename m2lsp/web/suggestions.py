"""Suggestions, as INCEpTION's recommenders give them: a manager loads a system's output
(plain text, one sentence a line, aligned into edits by `authoring`) or an M2 file as a
set of suggested edits; an annotator lists a sentence's suggestions and accepts or rejects
them one by one.  Nothing enters a layer without acceptance: a set is a file of its own
(`suggestions/NAME.m2`: the source's sentences with the suggested edits, annotator 0), an
accepted suggestion is saved into the layer as a save is (its version checked), and each
decision is kept in the database so a rejected suggestion is not offered again."""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from m2lsp.annotation.from_correction import Engines
from m2lsp.errors import M2lspError, UsageError
from m2lsp.model import Block, Edit, M2Document
from m2lsp.web.names import checked_name, is_name
from m2lsp.web.project import ANNOTATOR, Project, read_document

FOLDER = "suggestions"
KINDS = ("text", "m2")
DECISIONS = ("accept", "reject")


@dataclass(frozen=True)
class Suggestion:
    """One suggested edit of a sentence, from the set `source`."""

    id: str
    source: str
    line: str  # the A line, annotator 0
    start: int
    end: int
    type: str
    correction: str

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "from": self.source, "line": self.line, "start": self.start,
                "end": self.end, "type": self.type, "correction": self.correction}


def folder(project: Project) -> Path:
    return project.root / FOLDER


def set_names(project: Project) -> list[str]:
    return sorted(p.stem for p in folder(project).glob("*.m2") if is_name(p.stem))


def load(project: Project, body: Any) -> dict[str, Any]:
    """Load `{"name", "format": "text"|"m2", "text"}` as the suggestion set `name`
    (replacing one of that name); the layers are not touched."""
    from m2lsp.files.writing import make_folder, write_atomic

    if not isinstance(body, dict) or body.get("format") not in KINDS or \
            not isinstance(body.get("text"), str):
        raise UsageError("the body is a JSON object: name, format (text or m2), text")
    name = checked_name(body.get("name"), "a name for suggestions")
    source = read_document(project.source)
    if body["format"] == "text":
        edits = _from_text(source, body["text"], project.engines)
    else:
        edits = _from_m2(source, body["text"])
    make_folder(folder(project))
    write_atomic(folder(project) / f"{name}.m2", _written(source, edits))
    return {"name": name, "sentences": sum(1 for e in edits if e),
            "edits": sum(len(e) for e in edits)}


def _sentences(document: M2Document) -> list[Block]:
    return [b for b in document.blocks if b.sentence is not None]


def _from_text(source: M2Document, text: str, engines: Engines) -> list[list[str]]:
    """A system's output aligned into each sentence's edits, typed by the server's
    engines (`UNK` where it has none)."""
    from m2lsp.authoring.edits import realigned

    lines, blocks = text.splitlines(), _sentences(source)
    if len(lines) != len(blocks):
        raise UsageError(f"the output has {len(lines)} lines but the project "
                         f"{len(blocks)} sentences: one line a sentence, in order")
    batched = _by_errant(blocks, lines, engines)
    if batched is not None:
        return batched
    out = []
    for found, corrected in zip(blocks, lines, strict=True):
        made = realigned(found, ANNOTATOR, corrected, engines).lines
        out.append([line for line in made if line.startswith("A ") and "|||noop|||" not in line])
    return out


def _by_errant(blocks: list[Block], lines: list[str], engines: Engines
               ) -> list[list[str]] | None:
    """ERRANT's edits of every English sentence at once, as `realigned` makes them one at
    a time (its pipeline parses them in batches: a system's output of thousands of
    sentences takes seconds, not minutes); None without ERRANT, for another language, or
    where a sentence cannot be annotated (then each is aligned alone)."""
    from m2lsp.annotation.from_correction import language_of
    from m2lsp.authoring.edits import tokenised

    if engines.english is None or any(
            b.sentence is None or language_of(b.sentence.tokens) != "en" for b in blocks):
        return None
    pairs = [(" ".join(b.sentence.tokens), tokenised(b.sentence.tokens, text, engines))
             for b, text in zip(blocks, lines, strict=True) if b.sentence is not None]
    changed = [(source, [corrected]) for source, corrected in pairs
               if corrected.split() != source.split()]
    try:
        made = iter(engines.english().blocks(changed))
    except M2lspError:
        return None
    out = []
    for source, corrected in pairs:
        block = next(made) if corrected.split() != source.split() else None
        out.append([line.rsplit("|||", 1)[0] + f"|||{ANNOTATOR}"
                    for line in (block or "").splitlines()
                    if line.startswith("A ") and "|||noop|||" not in line])
    return out


def _from_m2(source: M2Document, text: str) -> list[list[str]]:
    """Every annotator's edits of an M2 file of the project's sentences, once each."""
    from m2lsp.authoring.annotators import Unpaired, paired
    from m2lsp.authoring.lines import renumbered
    from m2lsp.parsing.m2 import parse_m2

    try:
        pairs = paired(source, parse_m2(text))
    except Unpaired as unpaired:
        if unpaired.number is None:
            raise UsageError(f"the M2 file has {unpaired.theirs} sentences but the project "
                             f"{unpaired.ours}: the same sentences, in order") from None
        raise UsageError(f"sentence {unpaired.number} of the M2 file is not the "
                         "project's") from None
    out = []
    for _, other in pairs:
        seen: dict[tuple, str] = {}
        for edit in other.edits:
            if not edit.is_noop and edit.text.startswith("A "):
                seen.setdefault(_key(edit), renumbered(edit.text, ANNOTATOR))
        out.append(list(seen.values()))
    return out


def _written(source: M2Document, edits: list[list[str]]) -> str:
    rows = []
    for found, lines in zip(_sentences(source), edits, strict=True):
        rows.extend([found.lines[0].rstrip("\r\n"), *lines, ""])
    return "\n".join(rows) + "\n"


def _key(edit: Edit) -> tuple:
    return edit.start, edit.end, tuple(edit.canonical)


def offered(db: sqlite3.Connection, project: Project, user: str,
            number: int) -> list[Suggestion]:
    """Sentence `number`'s suggestions for `user`: every set's, but those already in the
    user's layer and those the user rejected (one accepted and then undone, or deleted, is
    offered again)."""
    mine = {_key(e) for e in project.store.get(project.layer(user)).block(number).edits}
    decided = {row[0] for row in db.execute(
        "SELECT id FROM suggestion_decisions WHERE user = ? AND sentence = ? AND "
        "decision = 'reject'", (user, number))}
    out, seen = [], set(mine)
    for name in set_names(project):
        for edit in project.store.get(folder(project) / f"{name}.m2").block(number).edits:
            found = _suggestion(name, edit)
            if found.id not in decided and _key(edit) not in seen:
                seen.add(_key(edit))
                out.append(found)
    return out


def _suggestion(name: str, edit: Edit) -> Suggestion:
    line = edit.text.rstrip("\r\n")
    return Suggestion(suggestion_id(name, line), name, line, edit.start, edit.end,
                      edit.type.strip(), " || ".join(edit.canonical))


def suggestion_id(name: str, line: str) -> str:
    """A suggestion's id: its set and its A line (offsets included)."""
    return hashlib.sha256(f"{name}\n{line}".encode()).hexdigest()[:12]


def renamed(db: sqlite3.Connection, number: int, ids: dict[str, str]) -> None:
    """The decisions on sentence `number`'s suggestions given their new ids (a
    retokenisation moved their offsets), so a rejected one stays rejected."""
    db.executemany("UPDATE OR REPLACE suggestion_decisions SET id = ? "
                   "WHERE sentence = ? AND id = ?",
                   [(new, number, old) for old, new in ids.items() if old != new])


def decide(db: sqlite3.Connection, project: Project, user: str, number: int,
           body: Any) -> dict[str, Any]:
    """Accept (saved into the layer, the version checked: `layers.Stale` when it moved on)
    or reject `{"id", "decision", "version"}`; the sentence as now shown, and what is still
    offered."""
    from m2lsp.authoring.lines import in_order
    from m2lsp.curation.record import now
    from m2lsp.web.layers import Change, save, shown

    if not isinstance(body, dict) or body.get("decision") not in DECISIONS or \
            not isinstance(body.get("id"), str):
        raise UsageError("the body is a JSON object: id, decision (accept or reject), and "
                         "version to accept")
    found = next((s for s in offered(db, project, user, number) if s.id == body["id"]), None)
    if found is None:
        raise UsageError(f"no suggestion {body['id']!r} is offered for sentence {number}")
    if body["decision"] == "accept":
        if not isinstance(body.get("version"), str):
            raise UsageError("an acceptance names the version of the sentence it is made on")
        edits = project.store.get(project.layer(user)).block(number).by_annotator.get(
            ANNOTATOR, [])
        lines = in_order(edits, found.line, found.start, found.end)
        save(project, user, number, Change(body["version"], tuple(lines)))
    db.execute("INSERT OR REPLACE INTO suggestion_decisions VALUES (?, ?, ?, ?, ?)",
               (user, number, found.id, body["decision"], now()))
    return {"sentence": shown(project, user, number),
            "suggestions": [s.to_dict() for s in offered(db, project, user, number)]}
