"""Curation and notes (N): what the files beside an M2 file say of it (`curation.sidecars`,
read by `check`): a curated gold with sentences still to decide or changed by an annotator
since they were decided, a note whose sentence or edit the file no longer has."""

from __future__ import annotations

from collections.abc import Iterator

from m2lsp.curation.keys import sentence_keys
from m2lsp.curation.notes import placed
from m2lsp.curation.state import changers
from m2lsp.diagnostic import Diagnostic, Severity
from m2lsp.model import M2Document, Span
from m2lsp.rules.base import Context, Rule, Scope


def _sentence_rows(doc: M2Document) -> list[int]:
    """The row of each sentence's S line, in file order."""
    return [start for start, block in zip(doc.starts, doc.blocks, strict=True)
            if block.sentence is not None]


class UnfinishedCuration(Rule):
    """Reports a curated gold with sentences not yet decided.

    ## What it does
    Reads the decision log beside the file (`FILE.curation.jsonl`, written by
    `m2lsp curate`) and the annotators' files it names, and flags the first sentence that
    is neither auto-merged (every annotator made the same edits) nor decided, with the
    count of such sentences.

    ## Why is this bad?
    `m2lsp curate` writes a sentence still to decide with a noop, so that the gold stays a
    whole M2 file; that noop is no decision. Scored against as it is, the gold says
    "nothing to correct" where the curator has not looked yet.

    ## Example
    A gold whose curation has decided 132 of 200 sentences.

    ## Use instead
    Decide the rest (`m2lsp curate gold.m2 --status` lists them) before using the gold.

    ## Fix safety
    No automatic fix: only a curator decides.
    """

    code = "N001"
    name = "unfinished-curation"
    severity = Severity.WARNING
    message = ("curation unfinished: {count} of {total} sentences still to decide (this is "
               "the first; m2lsp curate --status lists them)")
    scope = Scope.M2_DOCUMENT

    def check(self, doc: M2Document, ctx: Context) -> Iterator[Diagnostic]:
        unfinished = getattr(ctx.sidecars, "unfinished", None)
        if not unfinished:
            return
        keys = sentence_keys(doc.blocks)
        rows = _sentence_rows(doc)
        left = [row for key, row in zip(keys, rows, strict=True) if key in unfinished]
        if left:
            yield self.report(Span.whole_lines(left[0]), count=len(left), total=len(keys))


class ChangedSinceDecided(Rule):
    """Reports a sentence of a curated gold that an annotator changed after it was decided.

    ## What it does
    Reads the decision log beside the file and the annotators' files it names, and flags
    each decided sentence whose annotators' edits are no longer those the last decision
    on it saw (the log's `seen`), naming who changed it.

    ## Why is this bad?
    The gold keeps the decision, made on the versions as they were: an annotator's later
    correction (a missed error, a type fixed) does not reach it until the curator looks
    again, and nothing else says so.

    ## Example
    A sentence taken from annotator 0, who then changed "arrives" to "arrived".

    ## Use instead
    Look at the sentence again (`m2lsp curate gold.m2 --status` shows each version) and
    decide it anew, or mark it done to keep the gold as it is (`--sentence N --done`).

    ## Fix safety
    No automatic fix: only a curator decides.
    """

    code = "N004"
    name = "changed-since-decided"
    severity = Severity.WARNING
    message = ("decided before {who} changed it: look at it again, then decide it anew or "
               "mark it done (m2lsp curate --status shows each version)")
    scope = Scope.M2_DOCUMENT

    def check(self, doc: M2Document, ctx: Context) -> Iterator[Diagnostic]:
        changed = dict(getattr(ctx.sidecars, "changed", ()))
        if not changed:
            return
        for key, row in zip(sentence_keys(doc.blocks), _sentence_rows(doc), strict=True):
            if key in changed:
                yield self.report(Span.whole_lines(row), who=changers(changed[key]))


class OrphanedNote(Rule):
    """Reports a note whose sentence or edit the file no longer has.

    ## What it does
    Reads the notes beside the file (`FILE.notes.jsonl`, written by `m2lsp note`) and
    flags each note on a sentence the file no longer has (at the first line), or on an
    edit its sentence no longer has (at the sentence).

    ## Why is this bad?
    Notes are keyed by the sentence's tokens and the edit's offsets, type and correction,
    so that they survive re-ordering, merging and splitting; an edit changed or removed
    since leaves its note pointing at nothing, and the comment or "unsure" flag is lost
    from sight. (An edit whose type alone changed, say from UNK to the type chosen, is
    the same edit: its note stays on it.)

    ## Example
    A note "on or in?" on `2 3|||R:PREP|||on`, after the edit was changed to `in`.

    ## Use instead
    Remove the note's line from `FILE.notes.jsonl`, or note the new edit.

    ## Fix safety
    No automatic fix: the notes are another file.
    """

    code = "N002"
    name = "orphaned-note"
    severity = Severity.WARNING
    message = "a note by {who} is on {what} this file no longer has: {text}"
    scope = Scope.M2_DOCUMENT

    def check(self, doc: M2Document, ctx: Context) -> Iterator[Diagnostic]:
        notes = getattr(ctx.sidecars, "notes", ())
        if not notes:
            return
        rows = _sentence_rows(doc)
        for where in placed(doc, notes):
            if where.sentence is not None and where.edit_found:
                continue
            note = where.note
            what = (f"sentence {note.sentence}" if where.sentence is None
                    else f"edit {note.edit}")
            row = 0 if where.sentence is None else rows[where.sentence]
            yield self.report(Span.whole_lines(row), who=note.who, what=what,
                              text=note.text or "(unsure)")


class UnreadableSidecar(Rule):
    """Reports a file beside an M2 file that cannot be read.

    ## What it does
    Flags, at the first line, each file beside the M2 file that `m2lsp check` and the
    editor read and cannot: notes (`FILE.notes.jsonl`) or a decision log
    (`FILE.curation.jsonl`) with a line that is not JSON of the documented shape, not
    UTF-8, or a log naming an annotator's file that is gone.

    ## Why is this bad?
    What cannot be read is left out: the notes it holds are not shown, and a curation whose
    log cannot be read is not checked for sentences still to decide (N001), so the file
    would look finished and annotated without comment.

    ## Example
    A notes file whose third line was cut in half by a merge conflict.

    ## Use instead
    Mend the line the message names (`m2lsp note FILE` and `m2lsp curate GOLD --status`
    name it too), or give the annotators' files back at the paths the log names.

    ## Fix safety
    No automatic fix: the problem is in another file.
    """

    code = "N003"
    name = "unreadable-sidecar"
    severity = Severity.WARNING
    message = "{problem}"
    scope = Scope.M2_DOCUMENT

    def check(self, doc: M2Document, ctx: Context) -> Iterator[Diagnostic]:
        for problem in getattr(ctx.sidecars, "problems", ()):
            yield self.report(Span.whole_lines(0), problem=problem)
