"""The curator's side: every layer of a sentence, and decisions through `m2lsp.curation`
on the gold (`gold.m2`, its log and notes beside it), as `m2lsp curate` makes them.

Which layer is which annotator (`annotators`): the curation numbers its inputs file by
file, those with no line yet after the others; so the inputs are given in the order the
log's last `start` names them (layers added since after them, by name; a removed layer
left out), with the layers that have no line yet last.  An annotator's number then never
changes when another layer is added or an annotator begins, and each decision follows a
`start` naming the files in the order its numbers count them (`decide` writes one when
the order changed), which is how `history` names whom a decision took an edit from."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from m2lsp.errors import M2lspError, UsageError
from m2lsp.web.names import is_name
from m2lsp.web.project import LAYERS, Project, own_lines, version

ACTIONS = ("take", "accept", "reject", "edit", "correct", "done", "reopen", "accept-agreed")


@dataclass(frozen=True)
class Annotators:
    """The layers as the curation's inputs: `names[k]` is annotator `str(k)`."""

    names: tuple[str, ...]

    def number(self, name: object) -> str:
        """An annotator's number; a UsageError for a name that is not one."""
        if not is_name(name) or name not in self.names:
            raise UsageError(f"{name!r} is not an annotator of the project")
        return str(self.names.index(str(name)))

    def name(self, number: str) -> str:
        return self.names[int(number)] if number.isdigit() and int(number) < len(
            self.names) else f"annotator {number}"


def annotators(project: Project) -> Annotators:
    """The layers in the curation's order (see the module's docstring)."""
    from m2lsp.curation.record import last_inputs, read_log

    present = project.layer_names()
    log = Path(str(project.gold) + ".curation.jsonl")
    # only the `start` lines are parsed: a long log is read, not decoded line by line
    starts = ([line for line in log.read_text(encoding="utf-8").splitlines()
               if '"start"' in line] if log.is_file() else [])
    logged = names_of(last_inputs(read_log("\n".join(starts), str(log))))
    order = [n for n in logged if n in present] + [n for n in present if n not in logged]
    begun = [n for n in order if _has_lines(project, n)]
    return Annotators(tuple(begun + [n for n in order if n not in begun]))


def names_of(inputs: Sequence[str]) -> list[str]:
    """The annotators' names of a `start`'s inputs (`layers/ana.m2`: ana)."""
    paths = [Path(p) for p in inputs]
    return [p.stem if p.parent == Path(LAYERS) else str(p) for p in paths]


def _has_lines(project: Project, name: str) -> bool:
    """Whether the layer has a line after an S line (its annotator has begun)."""
    return any(size > 1 for size in project.store.get(project.layer(name)).sizes)


def opened(project: Project, order: Annotators | None = None) -> Any:
    """The curation of the project's layers (`files.curation.open_curation`), in order."""
    from m2lsp.files.curation import open_curation

    order = order or annotators(project)
    if not order.names:
        raise UsageError("no annotator has a layer yet")
    return open_curation(project.gold, [project.layer(n) for n in order.names])


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
    """Make the decision `body` asks for (`{"action": ..., "value": ..., "from": ...}`, or
    for `edit` the curator's own: `{"start", "end", "correction", "type"}`) and return the
    sentence's new state; `accept-agreed` takes no sentence, and returns the curation's
    status.  A decision on one sentence costs that sentence once this server has written
    the gold (`deciding`); otherwise the whole curation is opened."""
    with project.curating:  # one decision at a time, each on the curation as the last left it
        return _decided(project, number, body, who)


def _decided(project: Project, number: int | None, body: Any, who: str) -> dict[str, Any]:
    from m2lsp.curation.record import now
    from m2lsp.web.deciding import Asked, quick

    order = annotators(project)
    action, value, source = _fields(project, order, body)
    if action != "accept-agreed" and number is None:
        raise UsageError(f"{action} is a decision on one sentence")
    time = now()
    if number is not None:
        asked = Asked(number, action, value, source, who, time)
        answer = quick(project, order.names, asked)
        if answer is not None:
            return answer
    return whole(project, order, number, (action, value, source), who, time)


def warm(project: Project) -> threading.Thread:
    """Open the whole curation once, in a background thread, when the server starts (a
    50,000-sentence curation takes seconds): the curator's list is then ready, and, when
    the gold on disk is what the layers and the log give, the first decision costs its
    sentence as the later ones do.  Decisions wait for it (`curating`)."""
    thread = threading.Thread(target=_warmed, args=(project,), name="m2lsp-web-curation",
                              daemon=True)
    thread.start()
    return thread


def _warmed(project: Project) -> None:
    with project.curating:
        try:
            _open_once(project)
        except (M2lspError, OSError, UnicodeDecodeError):
            return  # the request that opens it says what is wrong


def _open_once(project: Project) -> None:
    from m2lsp.curation.record import last_inputs
    from m2lsp.web.deciding import log_stat, remember, stat, unchanged

    order = annotators(project)
    if not order.names or not project.gold.is_file() or unchanged(
            project.written, project.gold, order.names):
        return  # nothing to open, or a decision made before this ran opened it already
    gold, log = stat(project.gold), log_stat(project.gold)  # before anything is read
    layers, found = seen(project, order)
    # the log's last `start` numbers the layers as `order` does: a decision on one sentence
    # writes none before it (the whole curation does, when the order changed)
    if found.names == last_inputs(found.decisions) and project.gold.read_bytes() == \
            found.found.gold().encode("utf-8") and (
            stat(project.gold), log_stat(project.gold)) == (gold, log):
        remember(project.written, project.gold, order.names, layers)
        project.store.ready(project.gold)  # indexed, as a decision writes it


def seen(project: Project, order: Annotators) -> tuple[list[Any], Any]:
    """The whole curation opened, and every sentence's outcome kept for the curator's list
    (`deciding.saw`): the layers' indexes (made before it read them) and the curation."""
    from m2lsp.web.deciding import log_stat, saw

    log = log_stat(project.gold)  # before the files are read: a later write is seen
    layers = [project.store.ready(project.layer(n)) for n in order.names]
    found = opened(project, order)
    saw(project, order.names, log, layers, found.found.outcomes)
    return layers, found


def whole(project: Project, order: Annotators, number: int | None,
          fields: tuple[str, str | None, str | None], who: str, time: str
          ) -> dict[str, Any]:
    """The decision made on the whole curation, as `m2lsp curate` makes it."""
    from m2lsp.curation.requests import accept_agreed, requested, status_data
    from m2lsp.files.curation import decide
    from m2lsp.web.deciding import log_stat, remember, saw, unchanged

    action, value, source = fields
    layers = [project.store.get(project.layer(n)) for n in order.names]
    ours = unchanged(project.written, project.gold, order.names)
    found = opened(project, order)
    if action == "accept-agreed":
        wanted = accept_agreed(found.found, who, time)
    else:
        wanted = [requested(found.found, action, str(number), value, source, who, time)]
    after = decide(found, wanted, who, time, unchanged=ours)
    remember(project.written, project.gold, order.names, layers)
    project.store.ready(project.gold)  # now, not in the next decision, which writes it
    saw(project, order.names, log_stat(project.gold), layers, after.outcomes)
    if number is None:
        return status_data(project.gold.name, after) | {"names": list(order.names)}
    outcome = after.outcomes[number - 1]
    return {"gold": project.gold.name, "names": list(order.names), "number": number,
            "key": outcome.key, "state": outcome.state, "rule": outcome.rule,
            "edits": [e.key for e in outcome.edits]}


def _fields(project: Project, order: Annotators, body: Any
            ) -> tuple[str, str | None, str | None]:
    """The action, its value and `from`, annotators' names turned into their numbers."""
    if not isinstance(body, dict) or body.get("action") not in ACTIONS:
        raise UsageError(f"the body names an action: one of {', '.join(ACTIONS)}")
    if body["action"] == "edit" and "value" not in body:
        return "edit", own_edit(project, body), None
    value, source = body.get("value"), body.get("from")
    if value is not None and not isinstance(value, str):
        raise UsageError("value is a string")
    if body["action"] == "take":
        value = order.number(value)
    if source is not None:
        source = order.number(source)
    return body["action"], value, source


def own_edit(project: Project, body: dict[str, Any]) -> str:
    """The curator's own edit as an edit key: tokens `start`..`end` (end exclusive; equal:
    an insertion there) become `correction` (empty: a deletion), of type `type`."""
    from m2lsp.web.display import taxonomy_of

    start, end, correction, kind = (body.get(k) for k in ("start", "end", "correction",
                                                          "type"))
    if type(start) is not int or type(end) is not int or not 0 <= start <= end:
        raise UsageError("start and end are token numbers, start <= end")
    if not isinstance(correction, str) or "\n" in correction or "|" in correction:
        raise UsageError("correction is the text the span becomes, one line, without |")
    taxonomy = taxonomy_of(project.language)
    if not isinstance(kind, str) or kind not in taxonomy.types or kind == "noop":
        raise UsageError(f"type is one of {taxonomy.title}'s types")
    words = " ".join(correction.split())
    if not words and start == end:
        raise UsageError("an insertion needs a correction")
    return f"{start} {end}|||{kind}|||{words or '-NONE-'}"


def history(decisions: Sequence[Any], key: str, order: Annotators) -> list[dict[str, Any]]:
    """The log's decisions on the sentence `key`, oldest first: when, who, what, and whom
    an edit or a version came from, by name (as the `start` before each numbered them)."""
    rows, names = [], list(order.names)
    for decision in decisions:
        if decision.action == "start":
            names = names_of(decision.inputs)
        if decision.sentence != key:
            continue
        by = [names[int(k)] if k.isdigit() and int(k) < len(names) else f"annotator {k}"
              for k in (decision.source or "").split(",") if k]
        rows.append({"time": decision.time, "who": decision.who, "action": decision.action,
                     "from": by, "edit": decision.edit,
                     "edits": list(decision.taken) if decision.taken is not None else None})
    return rows
