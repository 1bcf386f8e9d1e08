"""M2 edit offsets and the `-1 -1` / `noop` convention (M1xx)."""

from __future__ import annotations

from collections.abc import Iterator

from m2lsp.diagnostic import Fix, Severity, TextEdit
from m2lsp.model import NONE_CORRECTION, NOOP_TYPE, EditField
from m2lsp.parsing.suspects import Suspect
from m2lsp.rules.base import BlockSet, Context, Found, Rule, Scope

_NONE = (NONE_CORRECTION,)


class StartAfterEnd(Rule):
    """Reports an edit whose start offset is greater than its end offset.

    ## What it does
    Flags `A s e` with `s > e` (offsets are token indices, start inclusive, end exclusive).

    ## Why is this bad?
    The span is empty and backwards: the NUS scorer reads the original text as empty and
    can never match the edit, and ERRANT-based tools misplace it.

    ## Example
    `A 4 3|||Prep|||on|||REQUIRED|||-NONE-|||0`

    ## Use instead
    `A 3 4|||Prep|||on|||REQUIRED|||-NONE-|||0`

    ## Fix safety
    No automatic fix: swapping the offsets is a guess.
    """

    code = "M101"
    name = "start-after-end"
    severity = Severity.ERROR
    message = "edit starts at {start}, after its end {end}"
    scope = Scope.M2_BLOCK
    suspect = Suspect.OFFSETS

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        edits = view.edits
        for i in [i for i, e in enumerate(edits) if e.start > e.end >= 0]:
            edit = edits[i]
            yield view.owner[i], self.report(edit.span(EditField.OFFSETS), start=edit.start,
                                             end=edit.end)


class OffsetOutOfRange(Rule):
    """Reports an edit that ends beyond the last token of its sentence.

    ## What it does
    Flags offsets greater than the number of tokens of the S line (for character-level
    ChERRANT files, the number of characters, which are the tokens there).

    ## Why is this bad?
    The edit refers to tokens that do not exist, usually because the sentence was
    re-tokenized after annotation.  The NUS scorer silently drops such edits from the gold
    standard, so recall is computed against fewer edits than the file shows.

    ## Example
    ```
    S The cat sat .
    A 4 5|||U:PUNCT||||||REQUIRED|||-NONE-|||0
    ```

    ## Use instead
    ```
    S The cat sat .
    A 3 4|||U:PUNCT||||||REQUIRED|||-NONE-|||0
    ```

    ## Fix safety
    No automatic fix.
    """

    code = "M102"
    name = "offset-out-of-range"
    severity = Severity.ERROR
    message = "edit ends at token {end} but the sentence has {count} token(s)"
    scope = Scope.M2_BLOCK
    suspect = Suspect.OFFSETS

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        for index, block in enumerate(view.blocks):
            if block.sentence is None or not block.edits:
                continue
            count = len(block.sentence.tokens)
            for edit in block.edits:
                if (edit.end > count or edit.start > count) and edit.type != NOOP_TYPE:
                    yield index, self.report(edit.span(EditField.OFFSETS),
                                             end=max(edit.start, edit.end), count=count)


class NegativeOffset(Rule):
    """Reports negative offsets other than the no-edit marker `-1 -1`.

    ## What it does
    Flags an offset below zero unless the span is exactly `-1 -1`.

    ## Why is this bad?
    Only `-1 -1` has a meaning (no edit).  The NUS scorer drops any edit with a negative
    offset, so `A -1 3` silently disappears from the gold standard.

    ## Example
    `A -1 3|||Prep|||on|||REQUIRED|||-NONE-|||0`

    ## Use instead
    `A 2 3|||Prep|||on|||REQUIRED|||-NONE-|||0`

    ## Fix safety
    No automatic fix.
    """

    code = "M103"
    name = "negative-offset"
    severity = Severity.ERROR
    message = "negative offset in `{start} {end}`: only `-1 -1` (no edit) may be negative"
    scope = Scope.M2_BLOCK
    suspect = Suspect.OFFSETS

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        edits = view.edits
        for i in [i for i, e in enumerate(edits) if e.start < 0 or e.end < 0]:
            edit = edits[i]
            if not (edit.start == edit.end == -1 or edit.type == NOOP_TYPE):
                yield view.owner[i], self.report(edit.span(EditField.OFFSETS),
                                                 start=edit.start, end=edit.end)


class MinusOneNotNoop(Rule):
    """Reports an edit at `-1 -1` whose type is not `noop`.

    ## What it does
    Flags `A -1 -1|||T|||...` with `T` other than `noop`.

    ## Why is this bad?
    `-1 -1` means "this annotator makes no edit", which the type `noop` says.  A real type
    there means an edit lost its offsets; the NUS scorer drops it without a word.

    ## Example
    `A -1 -1|||R:PREP|||on|||REQUIRED|||-NONE-|||0`

    ## Use instead
    `A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0`, or the edit with its real offsets.

    ## Fix safety
    No automatic fix: the edit may have lost its offsets.
    """

    code = "M104"
    name = "minus-one-not-noop"
    severity = Severity.ERROR
    message = "offsets -1 -1 mean no edit, but the type is {type!r}"
    scope = Scope.M2_BLOCK
    suspect = Suspect.OFFSETS

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        edits = view.edits
        for i in [i for i, e in enumerate(edits) if e.start == -1 and e.type != NOOP_TYPE]:
            edit = edits[i]
            if edit.end == -1:
                yield view.owner[i], self.report(edit.span(EditField.TYPE), type=edit.type)


class NoopWithOffsets(Rule):
    """Reports a `noop` edit whose offsets are not `-1 -1`.

    ## What it does
    Flags `A s e|||noop|||...` with `s e` other than `-1 -1`.

    ## Why is this bad?
    A noop is not an edit of any span.  The NUS scorer reads every noop as `-1 -1` whatever
    its offsets, but other tools do not, and the offsets suggest an edit that is not there.

    ## Example
    `A 0 0|||noop|||-NONE-|||REQUIRED|||-NONE-|||0`

    ## Use instead
    `A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0`

    ## Fix safety
    Safe: the NUS scorer already reads it as `-1 -1`.
    """

    code = "M105"
    name = "noop-with-offsets"
    severity = Severity.ERROR
    message = "noop edit at `{start} {end}`: a noop has offsets -1 -1"
    fix_title = "Set the offsets to -1 -1"
    scope = Scope.M2_BLOCK
    suspect = Suspect.OFFSETS

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        edits = view.edits
        for i in [i for i, e in enumerate(edits) if e.type == NOOP_TYPE]:
            edit = edits[i]
            if not edit.start == edit.end == -1:
                span = edit.span(EditField.OFFSETS)
                fix = Fix(self.fix_title, (TextEdit(span, "-1 -1"),))
                yield view.owner[i], self.report(span, fix=fix, start=edit.start, end=edit.end)


class NoopWithCorrection(Rule):
    """Reports a `noop` edit whose correction is not `-NONE-`.

    ## What it does
    Flags `A -1 -1|||noop|||X|||...` with `X` other than `-NONE-`.

    ## Why is this bad?
    A noop corrects nothing.  A correction there is usually an edit whose type was
    overwritten; every scorer ignores it.

    ## Example
    `A -1 -1|||noop|||the|||REQUIRED|||-NONE-|||0`

    ## Use instead
    `A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0`

    ## Fix safety
    Safe: no scorer reads the correction of a noop.
    """

    code = "M106"
    name = "noop-with-correction"
    severity = Severity.WARNING
    message = "noop edit with correction {correction!r}: a noop's correction is -NONE-"
    fix_title = "Set the correction to -NONE-"
    scope = Scope.M2_BLOCK
    suspect = Suspect.NOOP_CORRECTION

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        edits = view.edits
        for i in [i for i, e in enumerate(edits) if e.type == NOOP_TYPE]:
            edit = edits[i]
            if edit.corrections != _NONE:
                span = edit.span(EditField.CORRECTIONS)
                fix = Fix(self.fix_title, (TextEdit(span, NONE_CORRECTION),))
                yield view.owner[i], self.report(span, fix=fix,
                                                 correction="||".join(edit.corrections))
