"""A curation on disk: the gold, its decision log beside it and the annotators' files the
log names, read and written for the command line and the editor alike (the logic is
`m2lsp.curation`'s).  The annotators' files are only read."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from m2lsp.curation.record import SUFFIX, Decision, appended, last_inputs, read_log
from m2lsp.curation.state import Curation, Outcome
from m2lsp.errors import UsageError
from m2lsp.model import M2Document


@dataclass(frozen=True)
class OpenCuration:
    """Everything a decision needs: the files, the log so far, the annotators as one
    document, the curation and the agreed sentences held back from auto-merge."""

    gold: Path
    log: Path
    log_text: str
    decisions: tuple[Decision, ...]
    inputs: tuple[Path, ...]
    document: M2Document
    found: Curation
    held: frozenset[str]
    waiting: tuple[str, ...] = ()  # annotators whose file has no line yet

    @property
    def names(self) -> tuple[str, ...]:
        """The inputs relative to the gold's folder, as the log writes them."""
        return tuple(os.path.relpath(p.resolve(), self.gold.resolve().parent)
                     for p in self.inputs)


def is_curated(gold: Path) -> bool:
    return Path(str(gold) + SUFFIX).is_file()


def open_curation(gold: Path, inputs: Sequence[Path] = (),
                  encoding: str | None = None) -> OpenCuration:
    """The curation of `gold` (its inputs: `inputs`, else those its log names)."""
    from m2lsp.curation.guard import guarded

    log = Path(str(gold) + SUFFIX)
    log_text = log.read_text(encoding="utf-8") if log.exists() else ""
    decisions = tuple(read_log(log_text, str(log)))
    paths = _inputs(gold, list(inputs), last_inputs(decisions))
    document, waiting = _read(paths, encoding)
    found, held = guarded(document, decisions, waiting)
    return OpenCuration(gold, log, log_text, decisions, tuple(paths), document, found, held,
                        waiting)


def _inputs(gold: Path, given: list[Path], logged: tuple[str, ...]) -> list[Path]:
    if given:
        inputs = given
    elif logged:
        inputs = [gold.parent / name for name in logged]
    else:
        raise UsageError(f"{gold} has no curation yet: give the annotators' files "
                         f"(m2lsp curate A.m2 B.m2 -o {gold})")
    for path in inputs:
        if path.resolve() == gold.resolve():
            raise UsageError(f"{gold} is one of the annotators' files: the curated gold is a "
                             "file of its own")
        if not path.is_file():
            raise UsageError(f"{path} is not a file (an annotator's M2 file)")
    return inputs


def annotators(inputs: Sequence[Path], encoding: str | None = None) -> M2Document:
    """The inputs as one document, numbered as `m2lsp merge` numbers them (one file: as
    written)."""
    return _read(inputs, encoding)[0]


def _read(inputs: Sequence[Path], encoding: str | None = None
          ) -> tuple[M2Document, tuple[str, ...]]:
    """The inputs as one document, and an id for each file with no annotator line yet
    (numbered after the others: its annotator has annotated nothing so far)."""
    from m2lsp.authoring.annotators import Named, merge
    from m2lsp.files.reading import read_bytes
    from m2lsp.parsing.m2 import parse_m2
    from m2lsp.parsing.source import decode

    documents = []
    for path in inputs:
        try:
            source = decode(read_bytes(path), encoding)
        except OSError as exc:
            raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
        if source.text.strip() and not any(line.startswith("S ") for line in
                                           source.lines[:1000]):
            raise UsageError(f"{path} is not an M2 file (no S line)")
        documents.append(Named(str(path), parse_m2(source)))
    if len(documents) == 1:
        return documents[0].document, ()
    merged = merge(documents)
    given = sum(len(ids) for ids in merged.ids)
    waiting = tuple(str(given + k) for k in range(sum(not ids for ids in merged.ids)))
    return parse_m2(merged.text), waiting


def decide(opened: OpenCuration, requested: Sequence[Decision], who: str,
           time: str, *, unchanged: bool = False) -> Curation:
    """Make the decisions (each checked, and refused if the rules would flag the sentence
    after it), then write the log (appended) and the gold; a UsageError and nothing
    written for a decision that cannot be made.  `unchanged`: the caller knows the gold
    on disk is the one it last wrote from this curation (the web server checks the
    file's stat), so there is no hand edit to protect (and a sentence auto-merged then,
    which an annotator has changed since, is not one)."""
    from m2lsp.curation.guard import new_findings
    from m2lsp.curation.state import check_decision, then
    from m2lsp.files.writing import write_atomic

    found = opened.found
    new = [] if opened.names == last_inputs(opened.decisions) else [
        Decision("start", who, time, inputs=opened.names)]
    for decision in requested:
        check_decision(found, decision)
        after = then(found, decision, opened.held)
        flagged = new_findings(found.find(decision.sentence or ""),
                               after.find(decision.sentence or ""))
        if flagged:
            raise UsageError(f"sentence {after.find(decision.sentence or '').number} would "
                             "hold edits the rules flag, so the decision is refused: "
                             f"{'; '.join(flagged)}")
        new.append(decision)
        found = after
    if not unchanged:
        _not_edited_by_hand(opened, found)
    if new:
        write_atomic(opened.log, appended(opened.log_text, new))
    write_atomic(opened.gold, found.gold(), inputs=opened.inputs)
    return found


def _not_edited_by_hand(opened: OpenCuration, after: Curation) -> None:
    """A UsageError when the gold on disk holds, in a sentence the log alone decides (or
    leaves open), other edits than the log gives it before this run's decisions and after
    them: a hand edit, which writing the gold again would lose.  (Auto-merged sentences
    follow the annotators, and may differ.)"""
    from m2lsp.curation.keys import edit_set, sentence_keys
    from m2lsp.curation.state import AUTO
    from m2lsp.parsing.m2 import parse_m2

    try:
        text = opened.gold.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return  # no gold yet (or unreadable: written again whole)
    document = parse_m2(text)
    blocks = [b for b in document.blocks if b.sentence is not None]
    on_disk = {k: edit_set(b.edits) for k, b in zip(sentence_keys(blocks), blocks,
                                                   strict=True)}
    for outcome, then in zip(opened.found.outcomes, after.outcomes, strict=True):
        held = on_disk.get(outcome.key)
        if outcome.state != AUTO and held is not None and held not in (
                frozenset(outcome.edits), frozenset(then.edits)) and not _merged_once(
                outcome, held):
            raise UsageError(
                f"{opened.gold} was edited by hand at sentence {outcome.number} (its edits "
                "are not those the decision log gives it), and writing it again would lose "
                f"that: record the change as decisions (m2lsp curate {opened.gold} --sentence "
                f"{outcome.number} --edit ...), or remove {opened.gold} to rebuild it from "
                "the log")


def _merged_once(outcome: Outcome, held: frozenset) -> bool:
    """Whether a sentence left open (no decision names it) holds what an annotator's
    version still is, every annotator having annotated it: auto-merged when the gold was
    written, as the annotators then agreed, and changed since by another (not a hand
    edit).  A sentence an annotator has not annotated was never auto-merged."""
    from m2lsp.curation.state import OPEN

    versions = list(outcome.versions.values())
    return outcome.state == OPEN and None not in versions and any(
        frozenset(version or ()) == held for version in versions)


def unfinished(gold: Path) -> int:
    """How many sentences of the curation GOLD are still to decide (0 when it cannot be
    read: nothing is claimed then)."""
    from m2lsp.errors import M2lspError

    try:
        found = open_curation(gold).found
    except (M2lspError, OSError, UnicodeDecodeError):
        return 0
    return len(found.outcomes) - found.curated
