"""M2 annotators: noop conventions, annotator ids, edit order (M2xx, M3xx)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator

from m2lsp.diagnostic import Applicability, Diagnostic, Fix, Related, Severity, TextEdit
from m2lsp.model import (
    MAX_DIGITS,
    NOOP_TYPE,
    Block,
    Edit,
    EditField,
    M2Document,
    Span,
    read_int,
    shortened,
)
from m2lsp.parsing.suspects import Suspect
from m2lsp.rules.base import BlockSet, Context, Found, Rule, Scope, listed

NOOP_LINE = "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{annotator}"
RELATED_SHOWN = 10  # related edits named on one diagnostic (a message counts them all)


def delete_line(row: int) -> TextEdit:
    """Remove line `row` with its line break."""
    return TextEdit(Span.whole_lines(row), "")


def _blocks_with_noops(view: BlockSet) -> list[int]:
    """Indices of the blocks that have a noop and at least one other edit line."""
    owner, blocks = view.owner, view.blocks
    found = {owner[i] for i, e in enumerate(view.edits) if e.type == NOOP_TYPE}
    return sorted(i for i in found if len(blocks[i].edits) > 1)


def _sorted_per_annotator(edits: tuple[Edit, ...]) -> bool:
    """Whether each annotator's real edits are in (start, end) order."""
    last: dict[str, Edit] = {}
    for edit in edits:
        if edit.type == NOOP_TYPE:
            continue
        prev = last.get(edit.annotator)
        if prev is not None and (edit.start, edit.end) < (prev.start, prev.end):
            return False
        last[edit.annotator] = edit
    return True


class NoopWithEdits(Rule):
    """Reports an annotator who has a `noop` and real edits in the same sentence.

    ## What it does
    Flags the noop line of an annotator that also has other edits in the block, with the
    other edits as related information.

    ## Why is this bad?
    The noop says "no edit", the other lines say otherwise.  Scorers ignore the noop, so the
    scores are unaffected, but the annotation contradicts itself: often the noop is left
    over from before the edits were added, or the edits were meant for another annotator.

    ## Example
    ```
    S The cat sat .
    A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
    A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0
    ```

    ## Use instead
    ```
    S The cat sat .
    A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0
    ```

    ## Fix safety
    Safe: the noop line is removed; no scorer reads it when the annotator has edits.
    """

    code = "M201"
    name = "noop-with-edits"
    severity = Severity.ERROR
    message = "annotator {annotator} has a noop and {count} other edit(s) in this sentence"
    fix_title = "Remove the noop line"
    scope = Scope.M2_BLOCK
    suspect = Suspect.NOOP_MIX

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        for index in _blocks_with_noops(view):
            for annotator, edits in view.blocks[index].by_annotator.items():
                noops = [e for e in edits if e.type == NOOP_TYPE]
                others = [e for e in edits if e.type != NOOP_TYPE]
                if noops and others:
                    for noop in noops:
                        yield index, self._report(noop, others, annotator)

    def _report(self, noop: Edit, others: list[Edit], annotator: str) -> Diagnostic:
        related = tuple(Related(e.span(), "edit of the same annotator")
                        for e in others[:RELATED_SHOWN])  # the message counts them all
        fix = Fix(self.fix_title, (delete_line(noop.row),))
        return self.report(noop.span(EditField.TYPE), fix=fix, related=related,
                           annotator=annotator, count=len(others))


class DuplicateNoop(Rule):
    """Reports a second `noop` line of the same annotator in one sentence.

    ## What it does
    Flags every noop of an annotator after its first in the block.

    ## Why is this bad?
    One noop says all there is to say; duplicates usually come from merging files twice.

    ## Example
    ```
    S The cat sat .
    A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
    A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
    ```

    ## Use instead
    ```
    S The cat sat .
    A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
    ```

    ## Fix safety
    Safe: the repeated line is removed.
    """

    code = "M202"
    name = "duplicate-noop"
    severity = Severity.WARNING
    message = "annotator {annotator} already has a noop in this sentence"
    fix_title = "Remove the repeated noop line"
    scope = Scope.M2_BLOCK
    suspect = Suspect.NOOP_MIX

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        for index in _blocks_with_noops(view):
            for annotator, edits in view.blocks[index].by_annotator.items():
                noops = [e for e in edits if e.type == NOOP_TYPE]
                for noop in noops[1:]:
                    related = (Related(noops[0].span(), "first noop"),)
                    fix = Fix(self.fix_title, (delete_line(noop.row),))
                    yield index, self.report(noop.span(), fix=fix, related=related,
                                             annotator=annotator)


class InvalidAnnotatorId(Rule):
    """Reports an annotator id that is not a non-negative integer.

    ## What it does
    Flags the last field of an A line unless it is `0`, `1`, `2` ...

    ## Why is this bad?
    The NUS scorer and ERRANT read the id with `int()`: a name stops them, and a negative id
    sorts before annotator 0 when scorers break ties by id.

    ## Example
    `A 3 4|||Prep|||on|||REQUIRED|||-NONE-|||kim`

    ## Use instead
    `A 3 4|||Prep|||on|||REQUIRED|||-NONE-|||0`

    ## Fix safety
    No automatic fix.
    """

    code = "M301"
    name = "invalid-annotator-id"
    severity = Severity.ERROR
    message = "annotator id {id!r} is not a non-negative integer of at most 100 digits"
    scope = Scope.M2_BLOCK
    suspect = Suspect.ANNOTATOR

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        edits = view.edits
        for i in [i for i, e in enumerate(edits)
                  if not e.annotator.isdigit() or len(e.annotator) > MAX_DIGITS]:
            edit = edits[i]
            value = edit.annotator_id
            if value is None or value < 0:
                yield view.owner[i], self.report(edit.span(EditField.ANNOTATOR),
                                                 id=shortened(edit.annotator))


class MissingAnnotator(Rule):
    """Reports a sentence that lacks an annotator the file uses elsewhere.

    ## What it does
    In a file with several annotators, flags a sentence that has A lines but none of some
    annotator's, and offers to add that annotator's noop line.  Only annotators found in at
    least half of the sentences with A lines are expected everywhere: an id used in a few
    sentences is more likely a typo (M306) than a lost annotation in all the others.  (A
    sentence with no A line at all is read by every scorer as "no edits", and is not
    flagged.)

    ## Why is this bad?
    It is ambiguous: did the annotator see the sentence and find nothing to correct, or was
    the annotation lost?  The NUS scorer only considers the annotators present in a block,
    so the two readings give different scores.

    ## Example
    ```
    S The cat sat .
    A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0
    ```
    in a file where other sentences have annotator 1.

    ## Use instead
    ```
    S The cat sat .
    A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0
    A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1
    ```

    ## Fix safety
    Unsafe: adding the noop decides that the annotator made no edit, and it changes which
    annotator the NUS scorer may choose for the sentence.
    """

    code = "M302"
    name = "missing-annotator"
    severity = Severity.WARNING
    message = "sentence has no line of annotator(s) {missing} (used elsewhere in the file)"
    fix_title = "Add a noop line for annotator(s) {missing}"
    scope = Scope.M2_BLOCK

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        if len(ctx.annotators) < 2:
            return
        expected = ctx.annotators if ctx.expected_annotators is None else \
            ctx.expected_annotators
        if len(expected) < 2:
            return
        for index, block in enumerate(view.blocks):
            if not block.edits or block.sentence is None:
                continue
            if expected <= block.annotator_set:
                continue
            present = {_id_value(a) for a in block.annotator_set}
            missing = sorted(expected - present, key=_id_order)
            if missing:
                yield index, self._report(block, missing)

    def _report(self, block: Block, missing: list[str]) -> Diagnostic:
        last = len(block.lines) - 1
        col = len(block.lines[last])
        added = "".join("\n" + NOOP_LINE.format(annotator=a) for a in missing)
        names = ", ".join(missing)
        fix = Fix(self.fix_title.format(missing=names),
                  (TextEdit(Span.on_line(last, col, col), added),), Applicability.UNSAFE)
        return self.report(Span.on_line(0, 0, len(block.lines[0])), fix=fix, missing=names)


class RareAnnotator(Rule):
    """Reports an annotator id used in under 1% of the sentences that have A lines.

    ## What it does
    Flags each A line whose annotator id appears in fewer than 1 in 100 of the annotated
    sentences, while other ids appear in most of them.

    ## Why is this bad?
    It is usually a typo (`10` for `1`, `00` for `0`).  Every scorer takes it for another
    annotator, with its own edits: the sentence gets a reference that nobody wrote.

    ## Example
    `A 3 4|||R:VERB|||goes|||REQUIRED|||-NONE-|||10` in a file annotated by 0 and 1.

    ## Use instead
    The id that was meant: `...|||1`.

    ## Fix safety
    No automatic fix: only the annotator knows which id was meant.
    """

    code = "M306"
    name = "rare-annotator"
    severity = Severity.WARNING
    message = ("annotator {id} is used in only {count} sentence(s), while {usual} are used "
               "in most: a typo?")
    scope = Scope.M2_BLOCK

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        rare = dict(ctx.rare_annotators)
        if not rare:
            return
        usual = ", ".join(sorted(ctx.expected_annotators or (), key=_id_order))
        for i, edit in enumerate(view.edits):
            value = edit.annotator_id
            if value is not None and str(value) in rare:
                yield view.owner[i], self.report(edit.span(EditField.ANNOTATOR), id=str(value),
                                                 count=rare[str(value)], usual=usual)


@functools.lru_cache(maxsize=4096)
def _id_value(annotator: str) -> str | None:
    """The integer an annotator id is read as (Edit.annotator_id), written plainly."""
    value = read_int(annotator)
    return None if value is None else str(value)


def _id_order(annotator: str) -> tuple[int, str]:
    value = read_int(annotator) if annotator.isdigit() else None
    return (value, "") if value is not None else (10**MAX_DIGITS, annotator)


class CorrectedBySome(Rule):
    """Reports a sentence that some annotators correct and others leave as it is (opt-in).

    ## What it does
    In a file with two or more annotators, flags the S line of a sentence where at least
    one annotator has an edit and another has none: only a noop, or no line at all (which
    M2 reads as "no edits").  The message names who corrects and who does not.  Off by
    default: select it by name (`select = ["ALL", "M501"]`) while adjudicating.

    ## Why is this bad?
    It is not an error: annotators do disagree, and a gold standard keeps their views.  It
    is where they disagree most, though, on whether the sentence is wrong at all, the
    sentences an adjudicator or annotation guidelines look at first; `m2lsp agree` counts
    them in its Cohen's kappa.

    ## Example
    ```
    S He go to school .
    A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0
    A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1
    ```

    ## Use instead
    Nothing to change when both views stand; otherwise the edits annotator 1 missed, or
    annotator 0's edits removed.

    ## Fix safety
    No fix: which annotator is right is a judgement.
    """

    code = "M501"
    name = "annotators-disagree-on-correction"
    severity = Severity.INFO
    message = "annotators disagree on this sentence: {correcting} it, {leaving} it as it is"
    scope = Scope.M2_BLOCK
    opt_in = True

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        if len(ctx.annotators) < 2:
            return
        for index, block in enumerate(view.blocks):
            if block.sentence is None or not block.edits:
                continue
            correcting = {v for e in block.edits
                          if not e.is_noop and (v := _id_value(e.annotator)) is not None}
            leaving = ctx.annotators - correcting
            if correcting and leaving:
                yield index, self.report(
                    Span.on_line(0, 0, len(block.lines[0])),
                    correcting=_who(correcting, "corrects", "correct"),
                    leaving=_who(leaving, "leaves", "leave"))


def _who(ids: set[str] | frozenset[str], one: str, many: str) -> str:
    """`annotator 0 corrects`, `annotators 1, 2 leave`."""
    names = ", ".join(sorted(ids, key=_id_order))
    return f"annotator {names} {one}" if len(ids) == 1 else f"annotators {names} {many}"


class NotYetAnnotated(Rule):
    """Reports a sentence that an annotator has not annotated yet.

    ## What it does
    Flags the S line of a sentence with no line at all (not even a noop) of one of the
    file's annotators (annotator 0 in a file no one has annotated yet).  Opt-in: select it
    by code (`select = ["ALL", "M502"]`, `m2lsp check --select ALL,M502`) while a file is
    being annotated, to see what is left; the editor's outline counts the same.

    ## Why is this bad?
    A sentence an annotator has not reached reads, to every scorer, as one they found
    nothing to correct in: a gold committed half-done scores systems against "no edits".
    Writing a noop says "seen, nothing to correct", and tells the two apart.

    ## Example
    ```
    S He go to school .
    A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0
    ```
    in a file where annotator 1 annotated other sentences.

    ## Use instead
    ```
    S He go to school .
    A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0
    A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||1
    ```

    ## Fix safety
    No fix: only the annotator knows their edits.
    """

    code = "M502"
    name = "not-yet-annotated"
    severity = Severity.INFO
    message = "not yet annotated by {who}"
    scope = Scope.M2_BLOCK
    opt_in = True

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        expected = ctx.annotators or frozenset({"0"})
        for index, block in enumerate(view.blocks):
            if block.sentence is None:
                continue
            present = {_id_value(a) for a in block.annotator_set}
            missing = expected - present
            if missing:
                names = ", ".join(sorted(missing, key=_id_order))
                who = f"annotator{'s' if len(missing) > 1 else ''} {names}"
                yield index, self.report(Span.on_line(0, 0, len(block.lines[0])), who=who)


class NonContiguousAnnotators(Rule):
    """Reports annotator ids that are not 0, 1, 2 ... without gaps.

    ## What it does
    Collects the integer annotator ids of the file and flags the first line that uses an
    id beyond a gap (ids 0 and 2 without 1).

    ## Why is this bad?
    A gap usually means an annotator's lines were lost while merging files, or ids were
    renumbered inconsistently.  Tools that allocate one slot per id up to the largest (or
    count annotators as max id + 1) see an annotator with no edits at all.

    ## Example
    A file whose edits use annotators 0 and 2.

    ## Use instead
    Annotators 0 and 1.

    ## Fix safety
    No automatic fix: renumbering changes which annotator is which.
    """

    code = "M303"
    name = "non-contiguous-annotators"
    severity = Severity.WARNING
    message = "annotator ids {ids} are not contiguous: {missing} never used"
    scope = Scope.M2_DOCUMENT

    def check(self, doc: M2Document, ctx: Context) -> Iterator[Diagnostic]:
        ids = sorted({int(a) for a in ctx.annotators if a.isdigit()})
        gaps = _gaps(ids)
        if not gaps:
            return
        first_bad = gaps[0][1] + 1  # the id after the first gap
        for block, start in zip(doc.blocks, doc.starts, strict=True):
            for edit in block.edits:
                if edit.annotator_id == first_bad:
                    yield self.report(edit.span(EditField.ANNOTATOR).shifted(start),
                                      ids=listed(list(map(str, ids))),
                                      missing=listed(list(map(_range_text, gaps))))
                    return


def _gaps(ids: list[int]) -> list[tuple[int, int]]:
    """The runs of ids missing from 0 to the largest of sorted `ids`, as (first, last): as
    many as there are ids, whatever their values."""
    gaps, expected = [], 0
    for value in ids:
        if value > expected:
            gaps.append((expected, value - 1))
        expected = value + 1
    return gaps


def _range_text(gap: tuple[int, int]) -> str:
    first, last = gap
    return str(first) if first == last else f"{first}-{last}"


class UnsortedEdits(Rule):
    """Reports edits of one annotator that are not in offset order.

    ## What it does
    Flags an edit whose (start, end) comes before that of an earlier edit of the same
    annotator in the block.

    ## Why is this bad?
    The NUS M2 scorer matches system edits against the gold edits in file order and resumes
    after the last match: a correct system edit whose gold edit appears *before* an already
    matched one is never counted, so precision and recall come out too low.

    ## Example
    ```
    S The cat sat on mat .
    A 4 4|||M:DET|||the|||REQUIRED|||-NONE-|||0
    A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0
    ```

    ## Use instead
    ```
    S The cat sat on mat .
    A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0
    A 4 4|||M:DET|||the|||REQUIRED|||-NONE-|||0
    ```

    ## Fix safety
    Unsafe: sorting changes what the NUS scorer counts (that is the point, but it changes
    reported scores).
    """

    code = "M304"
    name = "unsorted-edits"
    severity = Severity.WARNING
    message = "edit at {start} {end} comes after an edit at {prev_start} {prev_end} of annotator {annotator}"  # noqa: E501
    fix_title = "Sort annotator {annotator}'s edits by offset"
    scope = Scope.M2_BLOCK
    suspect = Suspect.ORDER

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        for index, block in enumerate(view.blocks):
            if len(block.edits) > 1 and not _sorted_per_annotator(block.edits):
                yield from ((index, d) for d in self._check_block(block))

    def _check_block(self, block: Block) -> Iterator[Diagnostic]:
        for annotator, edits in block.by_annotator.items():
            real = [e for e in edits if e.type != NOOP_TYPE]
            for prev, edit in itertools.pairwise(real):
                if (edit.start, edit.end) < (prev.start, prev.end):
                    yield self.report(edit.span(EditField.OFFSETS), fix=self._fix(real, annotator),
                                      related=(Related(prev.span(), "earlier line"),),
                                      start=edit.start, end=edit.end, prev_start=prev.start,
                                      prev_end=prev.end, annotator=annotator)
                    break

    def _fix(self, edits: list[Edit], annotator: str) -> Fix:
        ordered = sorted(edits, key=lambda e: (e.start, e.end))
        changes = tuple(TextEdit(Span.on_line(old.row, 0, len(old.text)), new.text)
                        for old, new in zip(edits, ordered, strict=True) if old is not new)
        return Fix(self.fix_title.format(annotator=annotator), changes, Applicability.UNSAFE)
