"""What the annotator's page asks beyond a save of the corrected text: an edit for a span
of tokens the annotator selected (or the gap between two they clicked), typed by the
engine as the editor's "Add edit" types it, and an edit's type set by hand (the types
offered are `display`'s), and a finding's quick fix applied; each saved as any save is.
Pure of HTTP."""

from __future__ import annotations

from typing import Any

from m2lsp.errors import UsageError
from m2lsp.model import Block
from m2lsp.web.layers import Change, Stale, save, shown
from m2lsp.web.project import ANNOTATOR, Project, version


def retyped(project: Project, user: str, number: int, body: Any) -> dict[str, Any]:
    """Edit `body["edit"]` (its index among the annotator's lines) given the type
    `body["type"]`, saved as any save is (refused when `body["version"]` is stale)."""
    from m2lsp.web.display import taxonomy_of

    if not isinstance(body, dict) or not isinstance(body.get("version"), str):
        raise UsageError("the body is a JSON object: version, edit, type")
    kind = body.get("type")
    taxonomy = taxonomy_of(project.language)
    if not isinstance(kind, str) or kind not in taxonomy.types or kind == "noop":
        raise UsageError(f"type is one of {taxonomy.title}'s types")
    return _field_set(project, user, number, body, 1, kind)


def required(project: Project, user: str, number: int, body: Any) -> dict[str, Any]:
    """Edit `body["edit"]` (its index among the annotator's lines) made REQUIRED or
    OPTIONAL (`body["required"]`, true or false), saved as any save is."""
    if not isinstance(body, dict) or not isinstance(body.get("version"), str) or \
            not isinstance(body.get("required"), bool):
        raise UsageError("the body is a JSON object: version, edit, required (true or false)")
    return _field_set(project, user, number, body, 3,
                      "REQUIRED" if body["required"] else "OPTIONAL")


def _field_set(project: Project, user: str, number: int, body: dict, position: int,
               value: str) -> dict[str, Any]:
    """Field `position` of the annotator's edit `body["edit"]` set to `value`, saved."""
    index = body.get("edit")
    found = _current(project, user, number, body["version"])
    own = list(found.by_annotator.get(ANNOTATOR, ()))
    if type(index) is not int or not 0 <= index < len(own) or own[index].is_noop:
        raise UsageError("edit is the index of one of your edits")
    lines = []
    for k, edit in enumerate(own):
        fields = edit.text.rstrip("\r\n").split("|||")
        if k == index and len(fields) > position:
            fields[position] = value
        lines.append("|||".join(fields))
    return save(project, user, number, Change(body["version"], lines=tuple(lines)))


def with_edit(project: Project, user: str, number: int, body: Any) -> dict[str, Any]:
    """An edit of tokens `body["start"]`..`body["end"]` (end exclusive; equal: an
    insertion there) becoming `body["correction"]` (empty: a deletion), added to the
    annotator's edits by `authoring` (its noop removed)."""
    from m2lsp.authoring.edits import added

    if not isinstance(body, dict) or not isinstance(body.get("version"), str):
        raise UsageError("the body is a JSON object: version, start, end, correction")
    start, end, correction = body.get("start"), body.get("end"), body.get("correction")
    if type(start) is not int or type(end) is not int:
        raise UsageError("start and end are token numbers")
    if not isinstance(correction, str) or "\n" in correction or "|" in correction:
        raise UsageError("correction is the text the span becomes, one line, without |")
    found = _current(project, user, number, body["version"])
    if not correction.strip() and start == end:
        raise UsageError("an insertion needs a correction")
    lines = added(found, start, end, correction, ANNOTATOR, project.engines).lines
    return save(project, user, number, Change(body["version"], lines=tuple(lines)))


def fixed(project: Project, user: str, number: int, body: Any) -> dict[str, Any]:
    """The quick fix of finding `body["finding"]` (its index among the sentence's
    findings, as `layers.findings` lists them for `body["version"]`) applied to the
    annotator's A lines, saved as any save is."""
    from m2lsp.linting.fixes import apply_once
    from m2lsp.parsing.source import SourceText
    from m2lsp.web.layers import block_text, diagnostics, fixable

    if not isinstance(body, dict) or not isinstance(body.get("version"), str):
        raise UsageError("the body is a JSON object: version, finding")
    found = _current(project, user, number, body["version"])
    listed, index = diagnostics(found), body.get("finding")
    if type(index) is not int or not 0 <= index < len(listed):
        raise UsageError("finding is the index of one of the sentence's findings")
    chosen = listed[index]
    if chosen.fix is None or not fixable(chosen):
        raise UsageError(f"{chosen.code} has no fix the page can apply (one that leaves the "
                         "source sentence as it is)")
    text, _ = apply_once(SourceText(block_text(found)), [(chosen.code, chosen.fix)])
    lines = [line for line in text.text.split("\n") if line.strip()]
    if not lines or lines[0] != found.lines[0].rstrip("\r\n"):
        raise UsageError(f"the fix of {chosen.code} would change the source sentence")
    return save(project, user, number, Change(body["version"], lines=tuple(lines[1:])))


def _current(project: Project, user: str, number: int, based_on: str) -> Block:
    """The sentence's block, or `Stale` when the change was based on another version (its
    edit numbers may point elsewhere now)."""
    found = project.store.get(project.layer(user)).block(number)
    if based_on != version(found):
        raise Stale(shown(project, user, number))
    return found
