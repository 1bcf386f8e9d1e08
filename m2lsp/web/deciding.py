"""One curation decision in time proportional to its sentence, not to the project.

`files.curation.decide` opens the whole curation (every layer parsed and merged, the gold
linted, the log replayed) for each decision: seconds on a 50,000-sentence project.  The
gold is a pure function of the layers and the log, sentence by sentence, so once this
server has written the gold (`remember`), a later decision recomputes only the sentence
decided and those an annotator saved since (the store's index of a layer keeps the text
of every sentence a save did not touch as the same object, so they are found in one pass),
with the same `m2lsp.curation` code on a one-sentence document, and writes the same log
line and the same gold lines as the whole curation would.  Whenever that cannot be
vouched for (the gold or its log changed on disk since, the layers' order changed, a
layer was read again from disk with too many changes, a layer holds lines of another
annotator than its own), `quick` answers None and the whole curation decides.

The curator's page reads the same way: one sentence replayed alone (`read_one`), and the
list of every sentence's state kept from the last whole curation with the sentences
annotators saved since replayed (`outcomes`)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from m2lsp.errors import UsageError
from m2lsp.web.store import CHUNK, Indexed, Key

MOST_CHANGED = 256  # sentences recomputed at most; past that the whole curation decides


@dataclass(frozen=True)
class Written:
    """What the gold on disk was last written from by this server: the gold's and its
    log's stat after the write, the annotators' order, and each layer's index then."""

    gold: Key
    log: Key
    names: tuple[str, ...]
    layers: tuple[Indexed, ...]


def stat(path: Path) -> Key | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns, info.st_ino


def _log(gold: Path) -> Path:
    from m2lsp.curation.record import SUFFIX

    return Path(str(gold) + SUFFIX)


def remember(written: dict[Path, Any], gold: Path, names: Sequence[str],
             layers: Sequence[Indexed]) -> None:
    """After the whole curation wrote `gold` from `layers` (indexed before it read them):
    what a later decision starts from."""
    at, log = stat(gold), stat(_log(gold))
    if at is None or log is None:
        written.pop(gold, None)
        return
    written[gold] = Written(at, log, tuple(names), tuple(layers))


def unchanged(written: dict[Path, Any], gold: Path, names: Sequence[str]) -> bool:
    """Whether the gold and its log on disk are those this server last wrote."""
    found: Written | None = written.get(gold)
    return (found is not None and found.names == tuple(names) and
            stat(gold) == found.gold and stat(_log(gold)) == found.log)


@dataclass(frozen=True)
class Asked:
    """A decision on one sentence as the page asks for it (annotators as numbers)."""

    number: int
    action: str
    value: str | None
    source: str | None
    who: str
    time: str


def quick(project: Any, names: Sequence[str], asked: Asked) -> dict[str, Any] | None:
    """Make the decision on its sentence alone (see the module's docstring) and return the
    sentence's new state; None when the whole curation must decide it."""
    if not unchanged(project.written, project.gold, names):
        return None
    written: Written = project.written[project.gold]
    store = project.store
    layers = [store.get(project.layer(n)) for n in names]
    gold = store.get(project.gold)
    count = gold.count
    if not 1 <= asked.number <= count or any(layer.count != count for layer in layers):
        return None
    changed = _changed(written.layers, layers)
    if changed is None:
        return None
    changed.add(asked.number)
    blocks = {n: _block(layers, n) for n in sorted(changed)}
    if any(block is None for block in blocks.values()):
        return None
    log_text = _log(project.gold).read_text(encoding="utf-8")
    keys = _keys(layers[0], sorted(changed))
    made = _recomputed(blocks, keys, _decisions(log_text, set(keys.values())), asked,
                       len(layers))
    log_before = written.log
    _write(project, gold, log_text, made, asked.number)
    remember(project.written, project.gold, names, layers)
    outcome = made.outcomes[asked.number]
    _saw_decision(project, names, log_before, outcome)
    return {"gold": project.gold.name, "names": list(names), "number": asked.number,
            "key": outcome.key, "state": outcome.state, "rule": outcome.rule,
            "edits": [e.key for e in outcome.edits]}


@dataclass(frozen=True)
class Seen:
    """Every sentence's outcome as last computed for the curator's list: from the log
    as its stat was, the layers' indexes then, in the order `names`."""

    log: Key | None
    names: tuple[str, ...]
    layers: tuple[Indexed, ...]
    outcomes: tuple[Any, ...]


def _seen_at(gold: Path) -> Path:
    return Path(str(gold) + "#outcomes")  # its place in `Project.written`, no file's


def saw(project: Any, names: Sequence[str], log: Key | None, layers: Sequence[Indexed],
        outcomes: Sequence[Any]) -> None:
    """After the whole curation was opened (from the log as its stat was `log`, the
    layers indexed as `layers` before it read them): what `outcomes` starts from."""
    project.written[_seen_at(project.gold)] = Seen(log, tuple(names), tuple(layers),
                                                   tuple(outcomes))


def log_stat(gold: Path) -> Key | None:
    return stat(_log(gold))


def outcomes(project: Any, names: Sequence[str]) -> tuple[Any, ...] | None:
    """Every sentence's outcome, those an annotator changed since last time replayed
    alone; None when the whole curation must be opened (then `saw`)."""
    seen: Seen | None = project.written.get(_seen_at(project.gold))
    if seen is None or seen.names != tuple(names) or seen.log != log_stat(project.gold):
        return None
    layers = [project.store.get(project.layer(n)) for n in names]
    if any(layer.count != len(seen.outcomes) for layer in layers):
        return None
    changed = _changed(seen.layers, layers)
    if changed is None:
        return None
    if changed:
        blocks = {n: _block(layers, n) for n in sorted(changed)}
        if any(block is None for block in blocks.values()):
            return None
        keys = _keys(layers[0], sorted(changed))
        text = _log(project.gold).read_text(encoding="utf-8") if seen.log else ""
        decisions = _decisions(text, set(keys.values()))
        new = list(seen.outcomes)
        for n, block in blocks.items():
            assert block is not None
            one = _One.of(block, n, keys[n], decisions, len(layers))
            new[n - 1] = one.outcome(one.decisions)
        saw(project, names, seen.log, layers, new)
    return project.written[_seen_at(project.gold)].outcomes


def _saw_decision(project: Any, names: Sequence[str], log_before: Key, outcome: Any
                  ) -> None:
    """The list's outcomes after a decision made here on one sentence (if they were
    those of the log before it)."""
    seen: Seen | None = project.written.get(_seen_at(project.gold))
    if seen is None or seen.names != tuple(names) or seen.log != log_before:
        return
    new = list(seen.outcomes)
    new[outcome.number - 1] = outcome
    saw(project, names, log_stat(project.gold), seen.layers, new)


def read_one(project: Any, names: Sequence[str], number: int
             ) -> tuple[Any, list[Any]] | None:
    """Sentence `number`'s outcome in the curation, replayed alone as a decision is, and
    the log's decisions on it with every `start` (whom each took from); None when the
    whole curation must be opened (a layer it cannot vouch for)."""
    from m2lsp.curation.record import SUFFIX, read_log

    layers = [project.store.get(project.layer(n)) for n in names]
    if not layers or not 1 <= number <= layers[0].count or any(
            layer.count != layers[0].count for layer in layers):
        return None
    text = _block(layers, number)
    if text is None:
        return None
    key = _keys(layers[0], [number])[number]
    log = Path(str(project.gold) + SUFFIX)
    lines = ([line for line in log.read_text(encoding="utf-8").splitlines()
              if key in line or '"start"' in line] if log.is_file() else [])
    decisions = [d for d in read_log("\n".join(lines), str(log))
                 if d.action == "start" or d.sentence == key]
    one = _One.of(text, number, key, decisions, len(layers))
    return one.outcome(one.decisions), decisions


def _changed(before: Sequence[Indexed], now: Sequence[Indexed]) -> set[int] | None:
    """The sentences (numbers) whose text changed in a layer between the two indexes;
    None when there are too many to recompute one by one."""
    out: set[int] = set()
    for old, new in zip(before, now, strict=True):
        if old is new:
            continue
        if old.count != new.count:
            return None
        moved = [c * CHUNK + k for c, (was, now) in enumerate(zip(old.chunks, new.chunks,
                                                                 strict=True))
                 if was is not now  # a chunk no save touched is shared by both indexes
                 for k, (a, b) in enumerate(zip(was.pieces, now.pieces, strict=True))
                 if a is not b]
        if len(moved) > MOST_CHANGED:  # read again from disk: compare the texts
            moved = [k for k in moved if old.pieces[k] != new.pieces[k]]
        out.update(k + 1 for k in moved)
        if len(out) > MOST_CHANGED:
            return None
    return out


def _block(layers: Sequence[Indexed], number: int) -> str | None:
    """Sentence `number` of every layer as one M2 block, layer k's lines given to
    annotator k, as `m2lsp merge` numbers one-annotator files (the layers are in the
    curation's order: those with no line yet last); None for a layer holding another
    line than its annotator 0's A lines."""
    from m2lsp.authoring.lines import renumbered

    lines: list[str] = []
    for k, layer in enumerate(layers):
        head, *own = layer.block_lines(number)
        if not lines:
            lines.append(head)
        for line in own:
            if not line.startswith("A ") or line.rsplit("|||", 1)[-1].strip() != "0":
                return None
            lines.append(renumbered(line, str(k)))
    return "\n".join(lines) + "\n"


def _keys(layer: Indexed, numbers: Sequence[int]) -> dict[int, str]:
    """Each sentence's key in the curation (its occurrence counted among the earlier
    sentences with the same text, in one pass)."""
    from m2lsp.curation.keys import sentence_key

    rows = layer.summaries()
    wanted = {rows[n - 1][0] for n in numbers}
    seen: dict[str, int] = {}
    occurrence: dict[int, int] = {}
    last = max(numbers)
    for k, (text, _) in enumerate(rows[:last], 1):
        if text in wanted:
            seen[text] = seen.get(text, 0) + 1
            occurrence[k] = seen[text]
    out = {}
    for n in numbers:
        found = layer.block(n).sentence
        out[n] = sentence_key(found.tokens if found else (), occurrence[n])
    return out


def _decisions(log_text: str, keys: set[str]) -> list[Any]:
    """The log's decisions on the sentences `keys`, in order (the other lines not parsed)."""
    from m2lsp.curation.record import read_log

    lines = [line for line in log_text.splitlines() if any(k in line for k in keys)]
    return [d for d in read_log("\n".join(lines)) if d.sentence in keys]


@dataclass(frozen=True)
class _Made:
    """The decision as the log writes it, and each recomputed sentence's outcome."""

    decision: Any
    outcomes: dict[int, Any]


def _recomputed(blocks: dict[int, str | None], keys: dict[int, str],
                decisions: Sequence[Any], asked: Asked, annotators: int) -> _Made:
    """Each sentence replayed alone; the asked decision checked and made on its own (a
    UsageError, with the curation's words, for one that cannot be made)."""
    outcomes, made = {}, None
    for number, text in blocks.items():
        assert text is not None
        one = _One.of(text, number, keys[number], decisions, annotators)
        if number != asked.number:
            outcomes[number] = one.outcome(one.decisions)
            continue
        made = one.decide(asked)
        outcomes[number] = one.outcome([*one.decisions, replace(made, sentence=one.local)])
    assert made is not None
    return _Made(made, outcomes)


@dataclass(frozen=True)
class _One:
    """One sentence as a curation of its own: its document, its key there (`local`) and
    in the project (`key`), its number, the decisions on it and the annotators."""

    document: Any
    local: str
    key: str
    number: int
    decisions: tuple[Any, ...]
    annotators: tuple[str, ...]
    held: frozenset[str]

    @classmethod
    def of(cls, text: str, number: int, key: str, decisions: Sequence[Any],
           annotators: int) -> _One:
        from m2lsp.curation.guard import held_back
        from m2lsp.curation.keys import sentence_keys
        from m2lsp.curation.state import curation
        from m2lsp.parsing.m2 import parse_m2

        document = parse_m2(text)
        local = sentence_keys(document.blocks)[0]
        ids = tuple(str(k) for k in range(annotators))  # those with no line here too
        mine = tuple(replace(d, sentence=local) for d in decisions if d.sentence == key)
        return cls(document, local, key, number, mine, ids,
                   held_back(curation(document, (), also=ids)))

    def curation(self, decisions: Sequence[Any]) -> Any:
        """The one-sentence curation, its outcome numbered and keyed as the project's."""
        from m2lsp.curation.state import Curation, curation

        found = curation(self.document, decisions, self.held, self.annotators)
        return Curation(found.annotators, tuple(replace(o, number=self.number, key=self.key)
                                                for o in found.outcomes), found.unknown)

    def outcome(self, decisions: Sequence[Any]) -> Any:
        return self.curation(decisions).outcomes[0]

    def decide(self, asked: Asked) -> Any:
        """The asked decision (keyed as the project's), checked as `decide` checks it."""
        from m2lsp.curation.guard import new_findings
        from m2lsp.curation.requests import requested
        from m2lsp.curation.state import check_decision

        before = self.curation(self.decisions)
        decision = requested(before, asked.action, self.key, asked.value, asked.source,
                             asked.who, asked.time)
        check_decision(before, decision)
        after = self.outcome([*self.decisions, replace(decision, sentence=self.local)])
        flagged = new_findings(before.outcomes[0], after)
        if flagged:
            raise UsageError(f"sentence {self.number} would hold edits the rules flag, so "
                             f"the decision is refused: {'; '.join(flagged)}")
        return decision


def _write(project: Any, gold: Indexed, log_text: str, made: _Made, number: int) -> None:
    """The log line appended, then the gold's recomputed sentences replaced (in one write,
    only if the gold is still what was read), as `decide` writes the log, then the gold."""
    from m2lsp.curation.record import appended
    from m2lsp.files.writing import write_atomic

    write_atomic(_log(project.gold), appended(log_text, [made.decision]))
    changes = {}
    for n, outcome in made.outcomes.items():
        lines = outcome.lines()
        if n == number or gold.block_lines(n)[1:] != lines:
            changes[n] = lines
    project.store.replace_blocks(project.gold, gold, changes)
