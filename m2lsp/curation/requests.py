"""Decisions as adapters ask for them (a flag of `m2lsp curate`, a command of the editor),
and a curation as plain data (`--status --format json`, the editor's view)."""

from __future__ import annotations

from typing import Any

from m2lsp.curation.keys import EditSpec
from m2lsp.curation.record import Decision
from m2lsp.curation.state import Curation, Outcome, agreed_edits
from m2lsp.errors import UsageError

ACTIONS = ("take", "accept", "reject", "edit", "correct", "done", "reopen")
VALUED = {"take": "an annotator", "accept": "an edit", "reject": "an edit", "edit": "an edit"}


def accept_agreed(found: Curation, who: str, time: str) -> list[Decision]:
    """In every unfinished sentence, an `accept` of each edit all the annotators made."""
    return [Decision("accept", who, time, o.key, shared_by(o, e), e.key)
            for o in found.outcomes if not o.finished for e in agreed_edits(o)]


def shared_by(outcome: Outcome, edit: EditSpec) -> str:
    """`from` of a bulk accept: every annotator who made the edit, comma-separated."""
    return ",".join(a for a, v in outcome.versions.items() if v and edit in v)


def requested(found: Curation, action: str, sentence: str, value: str | None = None,
              source: str | None = None, who: str = "unknown", time: str = "") -> Decision:
    """One decision on a sentence (its number or key); a UsageError for one that is not
    well formed (whether it can be made is `state.check_decision`'s)."""
    if action not in ACTIONS:
        raise UsageError(f"unknown decision {action!r} (one of {', '.join(ACTIONS)})")
    outcome = found.find(sentence)
    if action in VALUED and not value:
        raise UsageError(f"{action} needs {VALUED[action]}")
    seen = seen_in(outcome)
    if action == "take":
        source = (value or "").strip()
        theirs = outcome.versions.get(source)
        return Decision("take", who, time, outcome.key, source,
                        taken=tuple(e.key for e in theirs or ()), seen=seen)
    if action in ("accept", "reject", "edit"):
        edit = EditSpec.parse(value or "").key
        return Decision(action, who, time, outcome.key,
                        source if action == "accept" else None, edit, seen=seen)
    return Decision(action, who, time, outcome.key, seen=seen)


def seen_in(outcome: Outcome) -> tuple[tuple[str, tuple[str, ...] | None], ...]:
    """Every annotator's edit keys in the sentence as a decision on it saw them, the
    annotators in number order (a log line is the same whichever file named them first)."""
    return tuple((a, None if v is None else tuple(e.key for e in v))
                 for a, v in sorted(outcome.versions.items(), key=_annotator_order))


def _annotator_order(item: tuple[str, object]) -> tuple[bool, int, str]:
    name = item[0]
    return not name.isdigit(), int(name) if name.isdigit() else 0, name


def status_data(name: str, found: Curation) -> dict[str, Any]:
    """The curation as JSON data: counts, and each sentence's state, rule, gold edits,
    annotators' versions (None: the annotator wrote no line yet) and the annotators who
    changed it since it was decided."""
    return {"gold": name, "annotators": list(found.annotators),
            "sentences": len(found.outcomes), "curated": found.curated,
            "complete": found.complete, "counts": found.counts(),
            "outcomes": [{"number": o.number, "key": o.key, "state": o.state, "rule": o.rule,
                          "text": o.text, "edits": [e.key for e in o.edits],
                          "changed": list(o.changed),
                          "versions": {a: None if v is None else [e.key for e in v]
                                       for a, v in o.versions.items()}}
                         for o in found.outcomes],
            "unknown_decisions": [d.line().strip() for d in found.unknown]}
