"""A curation: the annotators' sentences, what every annotator agrees on merged
automatically, the log's decisions replayed, and the gold they make.

A sentence is
- `auto` when every annotator (two or more) wrote a line in it (an edit or a noop) and
  their edit sets are the same: the gold takes that set (INCEpTION's auto-merge);
- `decided` after `take`, `correct` or `done`;
- `in progress` after `accept`, `reject` or `edit` without one of those;
- `open` otherwise: the gold writes it with a noop, and the curation is unfinished (the
  gold's noop there is no decision: `m2lsp curate --status` and `m2lsp check` say so).

A decided sentence whose annotators' edits are no longer those the last decision on it saw
(its `seen`) stays decided, and says who changed it since (`Outcome.changed`, and its
rule): the curator looks again, and a decision or `reopen` settles it.

A decision on an auto-merged sentence starts from the merged set; on another, from none.
An accepted edit replaces every edit of the gold it competes with (same span, overlapping
spans, two insertions at one point), so the gold never holds edits that cannot be applied.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from m2lsp.authoring.disagreements import annotators_of
from m2lsp.curation.keys import EditSpec, edit_set, sentence_keys
from m2lsp.curation.record import Decision
from m2lsp.errors import UsageError
from m2lsp.model import Block, M2Document

AUTO, DECIDED, IN_PROGRESS, OPEN = "auto", "decided", "in progress", "open"
FINISHED = (AUTO, DECIDED)
NOOP_LINE = "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0"
Seen = tuple[tuple[str, tuple[str, ...] | None], ...]  # `Decision.seen`


@dataclass(frozen=True)
class Outcome:
    """One sentence of the curation: its number (1-based), key, text, state, the rule or
    last decision that set it, the gold's edits and each annotator's version."""

    number: int
    key: str
    text: str
    tokens: int
    state: str
    rule: str
    edits: tuple[EditSpec, ...]
    versions: dict[str, tuple[EditSpec, ...] | None]  # None: the annotator wrote no line
    changed: tuple[str, ...] = ()  # decided, and these annotators changed it since

    @property
    def finished(self) -> bool:
        return self.state in FINISHED

    def lines(self) -> list[str]:
        """The gold's A lines of the sentence, as annotator 0 (a noop for none)."""
        return [edit.line("0") for edit in self.flagged()] or [NOOP_LINE]

    def flagged(self) -> list[EditSpec]:
        """The gold's edits in order, each REQUIRED or OPTIONAL as the gold writes it:
        OPTIONAL where every annotator whose version has it marked it so, REQUIRED
        otherwise (the curator's own edit, or any annotator's REQUIRED)."""
        optional: set[EditSpec] = set()  # as each annotator marked it (the flag aside)
        required: set[EditSpec] = set()
        for version in self.versions.values():
            for spec in version or ():
                (required if spec.required else optional).add(spec)
        flagged = []
        for edit in sorted(self.edits):
            wanted = edit not in optional or edit in required
            # `replace` only where the flag differs: it is most of the cost of a large gold
            flagged.append(edit if edit.required == wanted else replace(edit, required=wanted))
        return flagged


@dataclass(frozen=True)
class Curation:
    annotators: tuple[str, ...]
    outcomes: tuple[Outcome, ...]
    unknown: tuple[Decision, ...]  # decisions on sentences the inputs no longer have

    @property
    def curated(self) -> int:
        return sum(o.finished for o in self.outcomes)

    @property
    def complete(self) -> bool:
        return self.curated == len(self.outcomes)

    def counts(self) -> dict[str, int]:
        found = dict.fromkeys((AUTO, DECIDED, IN_PROGRESS, OPEN), 0)
        for outcome in self.outcomes:
            found[outcome.state] += 1
        return found

    def find(self, sentence: str) -> Outcome:
        """A sentence by its 1-based number or its key; a UsageError when none."""
        if sentence.isdigit():
            number = int(sentence)
            if 1 <= number <= len(self.outcomes):
                return self.outcomes[number - 1]
            raise UsageError(f"there is no sentence {number}: the curation has "
                             f"{len(self.outcomes)}")
        for outcome in self.outcomes:
            if outcome.key == sentence:
                return outcome
        raise UsageError(f"no sentence has the key {sentence!r} (give its number or key: "
                         "m2lsp curate GOLD --status lists them)")

    def gold(self) -> str:
        """The curated M2 text: every sentence, its edits as annotator 0 (a noop for none)."""
        out = []
        for outcome in self.outcomes:
            out.append(f"S {outcome.text}")
            out.extend(outcome.lines())
            out.append("")
        return "\n".join(out) + "\n" if out else ""


@dataclass
class _Working:
    """A sentence's state while the log is replayed."""

    state: str
    rule: str
    edits: list[EditSpec]
    seen: Seen | None = None  # what the last decision that recorded it saw


def curation(document: M2Document, decisions: Sequence[Decision],
             held: frozenset[str] = frozenset(), also: Sequence[str] = ()) -> Curation:
    """The curation of the annotators of `document` after `decisions`, in order; the
    sentences whose keys are `held` are not auto-merged (`guard.held_back`); `also`:
    annotators who have written no line yet (an annotator's file not begun)."""
    found = annotators_of(document)
    annotators = tuple(found + [a for a in also if a not in found])
    blocks = [b for b in document.blocks if b.sentence is not None]
    keys = sentence_keys(blocks)
    versions = [_versions(b, annotators) for b in blocks]
    working = {k: _start(v, k in held) for k, v in zip(keys, versions, strict=True)}
    index = {k: i for i, k in enumerate(keys)}
    unknown = []
    for decision in decisions:
        if decision.action == "start":
            continue
        if decision.sentence not in working:
            unknown.append(decision)
            continue
        working[decision.sentence] = _apply(working[decision.sentence], decision,
                                            versions[index[decision.sentence]],
                                            decision.sentence in held)
    outcomes = tuple(_outcome(n, k, b, working[k], v) for n, (k, b, v) in
                     enumerate(zip(keys, blocks, versions, strict=True), 1))
    return Curation(annotators, outcomes, tuple(unknown))


def then(found: Curation, decision: Decision, held: frozenset[str] = frozenset()) -> Curation:
    """`found` after one more decision: the curation of its log and `decision`, as
    `curation` replays them, with only the sentence it is about done again (replaying the
    whole log for each decision of a run made `--accept-agreed` on a thousand sentences
    quadratic)."""
    if decision.action == "start":
        return found
    at = next((i for i, o in enumerate(found.outcomes) if o.key == decision.sentence), None)
    if at is None:
        return replace(found, unknown=(*found.unknown, decision))
    before = found.outcomes[at]
    now = _apply(_Working(before.state, before.rule, list(before.edits)), decision,
                 before.versions, before.key in held)
    changed = _changed_since(now, before.versions)
    outcome = replace(before, state=now.state, rule=now.rule + since(changed),
                      edits=tuple(sorted(now.edits)), changed=changed)
    return replace(found, outcomes=(*found.outcomes[:at], outcome, *found.outcomes[at + 1:]))


def _versions(block: Block, annotators: Sequence[str]) -> dict[str, tuple[EditSpec, ...] | None]:
    mine = block.by_annotator
    return {a: tuple(sorted(edit_set(mine[a]))) if a in mine else None for a in annotators}


def _start(versions: dict[str, tuple[EditSpec, ...] | None], held: bool = False) -> _Working:
    sets = list(versions.values())
    if len(sets) >= 2 and None not in sets and len({frozenset(s or ()) for s in sets}) == 1:
        if held:
            return _Working(OPEN, "agreed, but the rules flag the edits", [])
        return _Working(AUTO, "auto-merged", list(sets[0] or ()))
    return _Working(OPEN, "", [])


def _apply(now: _Working, decision: Decision,
           versions: dict[str, tuple[EditSpec, ...] | None], held: bool = False) -> _Working:
    """The sentence after one decision, with what the decision saw (the log was checked
    when it was written; an edit that no longer parses is skipped, as `--status` reports)."""
    if decision.action == "reopen":
        return _start(versions, held)
    after = _decided(now, decision, versions)
    return replace(after, seen=now.seen if decision.seen is None else decision.seen)


def _decided(now: _Working, decision: Decision,
             versions: dict[str, tuple[EditSpec, ...] | None]) -> _Working:
    action = decision.action
    if action == "take":
        now_theirs = list(versions.get(decision.source or "") or ())
        if decision.taken is None:  # recorded without the edits: the annotator's as they are
            return _Working(DECIDED, f"took {decision.source}", now_theirs)
        taken = [EditSpec.parse(k) for k in decision.taken]
        # a log written before `seen` says it here (`since` says it for one with it)
        changed = "" if decision.seen is not None or sorted(taken) == sorted(now_theirs) \
            else since((decision.source or "",))
        return _Working(DECIDED, f"took {decision.source}{changed}", taken)
    if action == "correct":
        return _Working(DECIDED, "correct as it is", [])
    if action == "done":
        return _Working(DECIDED, "curated", now.edits)
    edit = EditSpec.parse(decision.edit or "")
    edits = [e for e in now.edits if e != edit]
    if action in ("accept", "edit"):
        edits = [e for e in edits if not e.competes(edit)] + [edit]
    state = IN_PROGRESS if now.state in (OPEN, IN_PROGRESS, AUTO) else DECIDED
    return _Working(state, "curated" if state == DECIDED else "in progress", edits)


def _outcome(number: int, key: str, block: Block, now: _Working,
             versions: dict[str, tuple[EditSpec, ...] | None]) -> Outcome:
    assert block.sentence is not None
    changed = _changed_since(now, versions)
    return Outcome(number, key, block.sentence.text.strip(), len(block.sentence.tokens),
                   now.state, now.rule + since(changed), tuple(sorted(now.edits)), versions,
                   changed)


def _changed_since(now: _Working, versions: dict[str, tuple[EditSpec, ...] | None]
                   ) -> tuple[str, ...]:
    """The annotators whose edits in a decided sentence are none of the versions its last
    decision saw (none when it recorded nothing).  The versions are matched as a multiset,
    not by number: an annotator's number changes when another begins, stops or is added
    (the curation numbers the files with no line last), and a sentence nobody touched
    must not read as changed.  An annotator with no line there is never "changed"."""
    if now.state != DECIDED or now.seen is None:
        return ()
    saw = Counter(frozenset(v) for _, v in now.seen if v is not None)
    changed = []
    for annotator, version in versions.items():
        if version is None:
            continue
        keys = frozenset(e.key for e in version)
        if saw[keys]:
            saw[keys] -= 1
        else:
            changed.append(annotator)
    return tuple(changed)


def changers(changed: Sequence[str], named: bool = False) -> str:
    """Who changed a decided sentence since: "annotator 1", "annotators 0, 1", or by
    name ("ana, bob") where a page names them."""
    if named:
        return ", ".join(changed)
    return (f"annotator {changed[0]}" if len(changed) == 1
            else f"annotators {', '.join(changed)}")


def since(changed: Sequence[str], named: bool = False) -> str:
    """What a rule says of the annotators who changed a decided sentence since."""
    if not changed:
        return ""
    has = "has" if len(changed) == 1 else "have"
    return f" ({changers(changed, named)} {has} changed it since)"


def check_decision(found: Curation, decision: Decision) -> None:
    """A UsageError for a decision that cannot be made on the curation as it is: an
    annotator it does not have, an edit no annotator made (accept), one outside the
    sentence (edit), or one the gold does not hold (reject)."""
    outcome = found.find(decision.sentence or "")
    if decision.action == "take" and decision.source not in found.annotators:
        raise UsageError(f"there is no annotator {decision.source} (the curation's: "
                         f"{', '.join(found.annotators)})")
    if decision.action == "take" and outcome.versions.get(decision.source or "") is None:
        raise UsageError(f"annotator {decision.source} has not annotated sentence "
                         f"{outcome.number} yet (no line): nothing to take")
    if decision.action not in ("accept", "reject", "edit"):
        return
    edit = EditSpec.parse(decision.edit or "")
    if edit.end > outcome.tokens:
        raise UsageError(f"{edit.key} ends after the sentence's {outcome.tokens} tokens")
    if decision.action == "reject" and edit not in outcome.edits:
        raise UsageError(f"the gold of sentence {outcome.number} holds no edit {edit.key}")
    if decision.action == "accept":
        made = [a for a, v in outcome.versions.items() if v and edit in v]
        wanted = [] if decision.source is None else decision.source.split(",")
        if any(a not in made for a in wanted):
            raise UsageError(f"annotator {decision.source} made no edit {edit.key} in "
                             f"sentence {outcome.number}")
        if not made:
            raise UsageError(f"no annotator made {edit.key} in sentence {outcome.number} "
                             "(write your own with --edit)")


def agreed_edits(outcome: Outcome) -> tuple[EditSpec, ...]:
    """The edits every annotator of an unfinished sentence made (none if one wrote no
    line), those the gold does not hold yet."""
    sets = list(outcome.versions.values())
    if not sets or None in sets:
        return ()
    shared = set.intersection(*(set(s or ()) for s in sets))
    return tuple(sorted(e for e in shared if e not in outcome.edits))
