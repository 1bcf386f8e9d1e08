"""M2 edits as annotators write them by hand: a deletion written `-NONE-`, two insertions
at one point, a type ERRANT would not give (M410-M412)."""

from __future__ import annotations

from collections.abc import Iterator

from m2lsp.diagnostic import Fix, Related, Severity, TextEdit
from m2lsp.model import NONE_CORRECTION, EditField
from m2lsp.rules.base import BlockSet, Context, Found, Rule, Scope


class NoneCorrection(Rule):
    """Reports an edit whose correction is written `-NONE-`.

    ## What it does
    Flags a correction (or one alternative of it) written `-NONE-` on an edit that is not
    a noop (`A -1 -1`).  ChERRANT's files, which write deletions `-NONE-` on purpose, are
    not checked.

    ## Why is this bad?
    The scorers read it differently: the NUS M2 scorer reads `-NONE-` as an empty
    correction (a deletion), ERRANT's `errant_compare` as the word `-NONE-`.  A system
    that makes the deletion scores F0.5 1.0 under one and 0.0 (a false positive and a
    false negative) under the other.  ERRANT, the NUS scorer's gold and BEA-2019 write a
    deletion with an empty correction.

    ## Example
    ```
    S The the cat sat .
    A 1 2|||U:DET|||-NONE-|||REQUIRED|||-NONE-|||0
    ```

    ## Use instead
    ```
    S The the cat sat .
    A 1 2|||U:DET||||||REQUIRED|||-NONE-|||0
    ```

    ## Fix safety
    Safe: the correction is emptied, which is what the M2 scorer already read.
    """

    code = "M410"
    name = "none-correction"
    severity = Severity.WARNING
    message = "a deletion written -NONE-: ERRANT reads it as the word \"-NONE-\", the M2 " \
        "scorer as a deletion; write an empty correction"
    fix_title = "Write the deletion as an empty correction"
    scope = Scope.M2_BLOCK

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        if getattr(ctx.taxonomy, "name", None) == "cherrant":
            return
        edits = view.edits
        for i in [i for i, e in enumerate(edits)
                  if not e.is_noop and e.start >= 0 and any(c.strip() == NONE_CORRECTION for c in
                                           e.corrections)]:
            edit = edits[i]
            fixed = "||".join("" if c.strip() == NONE_CORRECTION else c
                              for c in edit.corrections)
            span = edit.span(EditField.CORRECTIONS)
            yield view.owner[i], self.report(span, fix=Fix(self.fix_title,
                                                           (TextEdit(span, fixed),)))


class CompetingInsertions(Rule):
    """Reports two edits of one annotator that insert at the same point.

    ## What it does
    Flags an insertion (`A i i`) of an annotator who has another insertion at the same
    offset, with the first as related information.  Identical edits are M402's.

    ## Why is this bad?
    Both are made: the corrected sentence gets both words (`we , we need` from one
    insertion of `we ,` and one of `we`), which no annotator meant.  It usually comes from
    accepting another annotator's insertion beside one's own.  A scorer counts both as
    gold edits, so no system reaches recall 1.

    ## Example
    ```
    S need to go .
    A 0 0|||M:PRON|||we ,|||REQUIRED|||-NONE-|||0
    A 0 0|||M:PRON|||we|||REQUIRED|||-NONE-|||0
    ```

    ## Use instead
    ```
    S need to go .
    A 0 0|||M:PRON|||we|||REQUIRED|||-NONE-|||0
    ```

    ## Fix safety
    No automatic fix: which insertion is meant needs a human.
    """

    code = "M411"
    name = "competing-insertions"
    severity = Severity.WARNING
    message = "annotator {annotator} inserts twice before token {start}: both are made"
    scope = Scope.M2_BLOCK

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        edits = view.edits
        first: dict[tuple[int, str, int], int] = {}
        for i in [i for i, e in enumerate(edits) if e.start == e.end and not e.is_noop]:
            edit = edits[i]
            key = (view.owner[i], edit.annotator.strip(), edit.start)
            k = first.setdefault(key, i)
            if k != i and (edits[k].type.strip(), edits[k].canonical) != (
                    edit.type.strip(), edit.canonical):
                yield view.owner[i], self.report(
                    edit.span(EditField.OFFSETS),
                    related=(Related(edits[k].span(), "the other insertion"),),
                    annotator=edit.annotator.strip(), start=edit.start)
