"""The curator's side: every layer of a sentence, and decisions through `m2lsp.curation`
on the gold (`gold.m2`, its log and notes beside it), as `m2lsp curate` makes them.  The
layers are the curation's inputs in name order, so annotator k is the k-th name."""

from __future__ import annotations

from typing import Any

from m2lsp.errors import UsageError
from m2lsp.web.names import is_name
from m2lsp.web.project import Project, own_lines, version

ACTIONS = ("take", "accept", "reject", "edit", "correct", "done", "reopen", "accept-agreed")


def layers_of(project: Project, number: int) -> dict[str, Any]:
    """Sentence `number` in every annotator's layer, by name."""
    shown = {}
    tokens: list[str] = []
    for name in project.layer_names():
        found = project.store.get(project.layer(name)).block(number)
        tokens = list(found.sentence.tokens if found.sentence else ())
        shown[name] = {"edits": own_lines(found), "version": version(found)}
    return {"number": number, "tokens": tokens, "layers": shown}


def decided(project: Project, number: int | None, body: Any, who: str) -> dict[str, Any]:
    """Make the decision `body` asks for (`{"action": ..., "value": ..., "from": ...}`;
    `accept-agreed` takes no sentence) and return the curation's status."""
    from m2lsp.curation.record import now
    from m2lsp.curation.requests import accept_agreed, requested, status_data
    from m2lsp.files.curation import decide, open_curation

    action, value, source = _fields(project, body)
    names = project.layer_names()
    if not names:
        raise UsageError("no annotator has a layer yet")
    opened = open_curation(project.gold, [project.layer(n) for n in names])
    time = now()
    if action == "accept-agreed":
        wanted = accept_agreed(opened.found, who, time)
    elif number is None:
        raise UsageError(f"{action} is a decision on one sentence")
    else:
        wanted = [requested(opened.found, action, str(number), value, source, who, time)]
    found = decide(opened, wanted, who, time)
    return status_data(project.gold.name, found) | {"names": names}


def _fields(project: Project, body: Any) -> tuple[str, str | None, str | None]:
    """The action, its value and `from`, annotators' names turned into their numbers."""
    if not isinstance(body, dict) or body.get("action") not in ACTIONS:
        raise UsageError(f"the body names an action: one of {', '.join(ACTIONS)}")
    value, source = body.get("value"), body.get("from")
    if value is not None and not isinstance(value, str):
        raise UsageError("value is a string")
    names = project.layer_names()
    if body["action"] == "take":
        value = _number_of(names, value)
    if source is not None:
        source = _number_of(names, source)
    return body["action"], value, source


def _number_of(names: list[str], name: object) -> str:
    if not is_name(name) or name not in names:
        raise UsageError(f"{name!r} is not an annotator of the project")
    return str(names.index(str(name)))
