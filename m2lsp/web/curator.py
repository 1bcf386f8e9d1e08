"""What the curator's page shows: the project's curation read (never written: decisions
go through `curating.decided`), its sentences with the open ones first (then those an
annotator changed after they were decided), and one sentence
with every annotator's version side by side, by name (in name order), each edit marked as
the gold holds it and as all annotators agree on it, the annotators' notes on it and the
decisions made on it.  Pure of HTTP."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from m2lsp.web.project import Project

# the list's order: what needs the curator first (a decided sentence an annotator changed
# since is looked at again, after the unfinished ones)
ORDER = {"open": 0, "in progress": 1, "changed": 2, "auto": 3, "decided": 4}


def overview(project: Project) -> dict[str, Any]:
    """Every sentence's state, the open ones first, and the counts (the whole curation
    opened once; then only the sentences annotators changed since: `deciding.outcomes`)."""
    from m2lsp.curation.state import Curation
    from m2lsp.web.curating import annotators, seen
    from m2lsp.web.deciding import outcomes

    order = annotators(project)
    if not order.names:
        return {"names": [], "sentences": 0, "curated": 0, "counts": {}, "outcomes": []}
    # one at a time with the decisions (and the start's opening): a decision replaces its
    # sentence's outcome in the list, which must not be the list of layers read since
    with project.curating:
        known = outcomes(project, order.names)
        if known is None:
            known = seen(project, order)[1].found.outcomes
    found = Curation(order.names, known, ())
    shown = sorted(found.outcomes, key=lambda o: (
        ORDER["changed"] if o.changed else ORDER.get(o.state, 5), o.number))
    return {"names": list(order.names), "sentences": len(found.outcomes),
            "curated": found.curated, "counts": found.counts(),
            "changed": sum(bool(o.changed) for o in found.outcomes),
            "outcomes": [{"number": o.number, "state": o.state, "rule": o.rule,
                          "text": o.text, "changed": _names(order.names, o.changed)}
                         for o in shown]}


def sentence(project: Project, number: int) -> dict[str, Any]:
    """Sentence `number` of the curation: the gold's edits and each annotator's (by name),
    each marked, their notes, and the decisions made on it (`history`); a LookupError
    when there is none."""
    from m2lsp.web.curating import history
    from m2lsp.web.display import spec_row
    from m2lsp.web.notes import notes_of

    order, outcome, decisions = _one(project, number)
    tokens = outcome.text.split(" ") if outcome.text else []
    gold = set(outcome.edits)
    made = [set(v) for v in outcome.versions.values() if v is not None]
    agreed = set.intersection(*made) if len(made) == len(outcome.versions) and made else set()

    def rows(specs: Any) -> list[dict[str, Any]]:
        return [spec_row(tokens, s) | {"in_gold": s in gold, "agreed": s in agreed}
                for s in specs]

    versions = {name: (None if (v := outcome.versions.get(str(k))) is None else rows(v))
                for k, name in sorted(enumerate(order.names), key=lambda kn: kn[1])}
    notes = [n | {"by": name} for name in sorted(order.names)
             for n in notes_of(project, name, number)]
    logged = history(decisions, outcome.key, order)
    changed = _names(order.names, outcome.changed)
    return {"number": number, "tokens": tokens, "state": outcome.state,
            "rule": _rule(outcome, logged, changed), "changed": changed,
            "gold": rows(outcome.flagged()), "versions": versions, "notes": notes,
            "history": [_readable(tokens, row) for row in logged]}


def _rule(outcome: Any, made: list[dict[str, Any]], changed: list[str]) -> str:
    """The sentence's rule with annotators named as the page names them: whom a `take`
    took (as the log's `start` then numbered them, which `history` reads) and who changed
    it since."""
    from m2lsp.curation.state import since

    rule = outcome.rule.removesuffix(since(outcome.changed))
    taken = [row for row in made if row["action"] == "take"]
    if rule.startswith("took ") and taken and taken[-1]["from"]:
        rest = rule[len("took "):].partition(" ")[2]
        rule = f"took {', '.join(taken[-1]['from'])}" + (f" {rest}" if rest else "")
    return rule + since(changed, named=True)


def _names(names: Sequence[str], ids: Sequence[str]) -> list[str]:
    """The annotators' names of the curation's numbers ("0" is the first layer's)."""
    return [names[int(a)] if a.isdigit() and int(a) < len(names) else a for a in ids]


def _one(project: Project, number: int) -> tuple[Any, Any, Any]:
    """The annotators' order, sentence `number`'s outcome and the log's decisions: the
    sentence replayed alone (`deciding.read_one`), else the whole curation opened."""
    from m2lsp.web.curating import annotators, opened
    from m2lsp.web.deciding import read_one

    order = annotators(project)
    found = read_one(project, order.names, number) if order.names else None
    if found is not None:
        return order, *found
    whole = opened(project, order) if order.names else None
    if whole is None or not 1 <= number <= len(whole.found.outcomes):
        raise LookupError(number)
    return order, whole.found.outcomes[number - 1], whole.decisions


def _readable(tokens: list[str], row: dict[str, Any]) -> dict[str, Any]:
    """A history row with its edit keys as the page shows an edit (`spec_row`): `change`
    for `edit`, `changes` for `edits` (None where a key is not one)."""
    from m2lsp.web.display import key_row

    return row | {"change": key_row(tokens, row["edit"]) if row["edit"] else None,
                  "changes": None if row["edits"] is None else
                  [key_row(tokens, key) for key in row["edits"]]}
