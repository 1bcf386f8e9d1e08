"""The decision log beside a curated gold: `GOLD.curation.jsonl`.

One JSON object a line, appended, never rewritten, so that `git diff` shows each decision
as one added line and the curation can be audited or redone (the gold is a pure function
of the annotators' files and this log).  Every line has `action`, `who` and `time` (ISO
8601, UTC); the others depend on the action:

| action | fields | what it does to the sentence |
|---|---|---|
| `start` | `inputs` (paths relative to the gold's folder) | none: names the annotators' files |
| `take` | `sentence`, `from`, `edits` | annotator `from`'s edits as they were (`edits`) |
| `accept` | `sentence`, `edit`, `from` | adds the edit, replacing any it competes with |
| `reject` | `sentence`, `edit` | removes the edit |
| `edit` | `sentence`, `edit` | the curator's own edit, added as `accept` adds one |
| `correct` | `sentence` | the sentence needs no edit; decided |
| `done` | `sentence` | decided with the edits it has |
| `reopen` | `sentence` | forgets every earlier decision on the sentence |

`sentence` is a sentence key and `edit` an edit key (see `curation.keys`).  A decision on
one sentence also records `seen`: every annotator's edit keys as the curator saw them
(null: no line yet), so that a decided sentence an annotator changes later is flagged
(`state.Outcome.changed`); a log written before `seen` flags nothing."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from m2lsp.errors import UsageError

ACTIONS = ("start", "take", "accept", "reject", "edit", "correct", "done", "reopen")
SUFFIX = ".curation.jsonl"


@dataclass(frozen=True)
class Decision:
    """One line of the log."""

    action: str
    who: str
    time: str
    sentence: str | None = None
    source: str | None = None  # `from`: the annotator an edit or a sentence came from
    edit: str | None = None
    inputs: tuple[str, ...] = field(default=())
    taken: tuple[str, ...] | None = None  # take: the edit keys taken (None: not recorded)
    # every annotator's edit keys as the decision saw them (None for one with no line);
    # None: not recorded (a bulk accept, a log written before it)
    seen: tuple[tuple[str, tuple[str, ...] | None], ...] | None = None

    def line(self) -> str:
        data: dict[str, object] = {"time": self.time, "who": self.who, "action": self.action}
        for name, value in (("sentence", self.sentence), ("from", self.source),
                            ("edit", self.edit)):
            if value is not None:
                data[name] = value
        if self.inputs:
            data["inputs"] = list(self.inputs)
        if self.taken is not None:
            data["edits"] = list(self.taken)
        if self.seen is not None:
            data["seen"] = {a: None if v is None else list(v) for a, v in self.seen}
        return json.dumps(data, ensure_ascii=False) + "\n"


def read_log(text: str, name: str = "the decision log") -> list[Decision]:
    """Every decision of a log's text; a UsageError naming a line that is not one."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            out.append(_decision(data))
        except (ValueError, TypeError, KeyError) as exc:
            raise UsageError(f"{name}:{number}: not a decision ({exc}); each line is a JSON "
                             "object with action, who and time") from None
    return out


def _decision(data: dict) -> Decision:
    if data["action"] not in ACTIONS:
        raise ValueError(f"unknown action {data['action']!r}")
    inputs = data.get("inputs", [])
    if not isinstance(inputs, list) or not all(isinstance(i, str) for i in inputs):
        raise ValueError("inputs must be a list of paths")
    taken = data.get("edits")
    if taken is not None and (not isinstance(taken, list) or
                              not all(isinstance(e, str) for e in taken)):
        raise ValueError("edits must be a list of edit keys")
    return Decision(str(data["action"]), str(data["who"]), str(data["time"]),
                    _text(data, "sentence"), _text(data, "from"), _text(data, "edit"),
                    tuple(inputs), None if taken is None else tuple(taken),
                    _seen(data.get("seen")))


def _seen(value: object) -> tuple[tuple[str, tuple[str, ...] | None], ...] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not all(
            v is None or (isinstance(v, list) and all(isinstance(e, str) for e in v))
            for v in value.values()):
        raise ValueError("seen must map each annotator to a list of edit keys or null")
    return tuple((str(a), None if v is None else tuple(v)) for a, v in value.items())


def _text(data: dict, name: str) -> str | None:
    value = data.get(name)
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{name} must be a string")
    return value


def appended(text: str, decisions: Sequence[Decision]) -> str:
    """The log's text with `decisions` added at its end."""
    if text and not text.endswith("\n"):
        text += "\n"
    return text + "".join(d.line() for d in decisions)


def last_inputs(decisions: Sequence[Decision]) -> tuple[str, ...]:
    """The inputs the latest `start` names (none before a start)."""
    starts = [d.inputs for d in decisions if d.action == "start"]
    return starts[-1] if starts else ()


def now() -> str:
    """The time of a decision, ISO 8601 in UTC to the second (the environment variable
    M2LSP_NOW fixes it, for tests and reproducible logs)."""
    import os
    from datetime import UTC, datetime

    fixed = os.environ.get("M2LSP_NOW")
    if fixed:
        return fixed
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
