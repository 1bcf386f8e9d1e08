"""Who annotates what: sentence ranges given to annotators by a manager, and each
annotator's progress on theirs (read from their layer: the file is the truth)."""

from __future__ import annotations

import sqlite3
from typing import Any

from m2lsp.errors import UsageError
from m2lsp.web.accounts import user_of
from m2lsp.web.names import checked_name
from m2lsp.web.project import Project, add_layer, sentence_count


def assigned(db: sqlite3.Connection, user: str) -> list[int]:
    """The sentences given to `user`, in order, each once."""
    found: set[int] = set()
    for first, last in db.execute("SELECT first, last FROM assignments WHERE user = ?",
                                  (user,)):
        found.update(range(first, last + 1))
    return sorted(found)


def is_assigned(db: sqlite3.Connection, user: str, number: int) -> bool:
    """Whether sentence `number` is given to `user` (one query, whatever the ranges)."""
    return db.execute("SELECT 1 FROM assignments WHERE user = ? AND first <= ? AND ? <= last "
                      "LIMIT 1", (user, number, number)).fetchone() is not None


def assign(db: sqlite3.Connection, project: Project, body: Any) -> dict[str, Any]:
    """Give sentences `first`..`last` (inclusive, from 1) to an annotator."""
    name, first, last = _range(db, project, body)
    add_layer(project, name)
    db.execute("INSERT INTO assignments VALUES (?, ?, ?)", (name, first, last))
    return {"user": name, "first": first, "last": last}


def unassign(db: sqlite3.Connection, project: Project, body: Any) -> dict[str, Any]:
    """Take sentences `first`..`last` back from an annotator (the ranges that cover them
    are cut; what the annotator wrote there stays in their layer, for the curator).

    Three statements, each atomic, none reading what another request may be changing:
    the pieces of the overlapping ranges before and after the cut are added, then every
    range overlapping the cut is deleted.  A crash between them leaves the assignment as
    it was (the pieces lie inside the ranges they come from), and two cuts at once both
    hold (each deletes whatever overlaps its own cut, the other's pieces included)."""
    user, first, last = _range(db, project, body)
    removed = len(set(assigned(db, user)) & set(range(first, last + 1)))
    if not removed:
        raise UsageError(f"none of sentences {first}–{last} is assigned to {user}")
    overlapping = "user = ? AND first <= ? AND ? <= last"
    db.execute("INSERT INTO assignments SELECT user, first, ? FROM assignments WHERE "
               f"{overlapping} AND first < ?", (first - 1, user, last, first, first))
    db.execute("INSERT INTO assignments SELECT user, ?, last FROM assignments WHERE "
               f"{overlapping} AND last > ?", (last + 1, user, last, first, last))
    db.execute(f"DELETE FROM assignments WHERE {overlapping}", (user, last, first))
    return {"user": user, "first": first, "last": last, "removed": removed}


def _range(db: sqlite3.Connection, project: Project, body: Any) -> tuple[str, int, int]:
    """The annotator and the sentence range a body names (a UsageError for another)."""
    if not isinstance(body, dict):
        raise UsageError("the body is a JSON object: user, first, last")
    name = checked_name(body.get("user"))
    first, last = body.get("first"), body.get("last")
    user = user_of(db, name)
    if user is None or user.role != "annotator":
        raise UsageError(f"{name} is not an annotator of the project")
    count = sentence_count(project)
    if not (type(first) is int and type(last) is int and 1 <= first <= last <= count):
        raise UsageError(f"first and last are sentence numbers, 1 <= first <= last <= {count}")
    return name, first, last


def sentences_of(db: sqlite3.Connection, project: Project, user: str) -> list[dict[str, Any]]:
    """The user's assigned sentences with their state and version."""
    return project.store.rows(project.layer(user), assigned(db, user))


def given(db: sqlite3.Connection) -> dict[str, list[int]]:
    """Each annotator's assigned sentences, by name (the database's part of the progress)."""
    names = [name for (name,) in
             db.execute("SELECT name FROM users WHERE role = 'annotator' ORDER BY name")]
    return {name: assigned(db, name) for name in names}


def counted(project: Project, numbers: dict[str, list[int]]) -> list[dict[str, Any]]:
    """Per annotator: sentences assigned (how many, and as ranges) and done, from
    `given`'s sentences; reads their layers (a thread's work: a cold 50,000-sentence layer
    takes a moment), touches no database."""
    return [{"user": name, "assigned": len(them), "ranges": ranges(them),
             "done": _done(project, name, them)} for name, them in numbers.items()]


def ranges(numbers: list[int]) -> list[list[int]]:
    """Sorted sentence numbers as inclusive ranges: [1, 2, 3, 7] -> [[1, 3], [7, 7]]."""
    out: list[list[int]] = []
    for n in numbers:
        if out and out[-1][1] + 1 == n:
            out[-1][1] = n
        else:
            out.append([n, n])
    return out


def _done(project: Project, name: str, numbers: list[int]) -> int:
    path = project.layer(name)
    if not path.exists():
        return 0
    index = project.store.get(path)
    return sum(1 for n in numbers if n <= index.count and index.done(n))
