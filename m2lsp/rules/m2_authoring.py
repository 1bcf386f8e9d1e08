"""M2 edits as annotators write them by hand: a deletion written `-NONE-`, two insertions
at one point, a type ERRANT would not give (M410-M412)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

from m2lsp.annotation.classify import Asked, errant_types
from m2lsp.diagnostic import Applicability, Diagnostic, Fix, Related, Severity, TextEdit
from m2lsp.errors import M2lspError
from m2lsp.model import NONE_CORRECTION, Edit, EditField
from m2lsp.rules.base import BlockSet, Context, Found, Rule, Scope


class NoneCorrection(Rule):
    """Reports an edit whose correction is written `-NONE-`.

    ## What it does
    Flags a correction (or one alternative of it) written `-NONE-` on an edit that is not
    a noop (`A -1 -1`).  ChERRANT's files, which write deletions `-NONE-` on purpose, are
    not checked, nor `UNK` edits (errors marked for detection only: their "correction" is
    the text they cover, `-NONE-` for an empty span, as `m2lsp convert` writes CGED's).

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
        for i in [i for i, e in enumerate(edits) if _written_none(e)]:
            edit = edits[i]
            fixed = "||".join("" if c.strip() == NONE_CORRECTION else c
                              for c in edit.corrections)
            span = edit.span(EditField.CORRECTIONS)
            yield view.owner[i], self.report(span, fix=Fix(self.fix_title,
                                                           (TextEdit(span, fixed),)))


def _written_none(edit: Edit) -> bool:
    """A correction of an edit (not a noop, not a detection-only UNK) written `-NONE-`."""
    return not edit.is_noop and edit.start >= 0 and edit.type.strip() != "UNK" and any(
        c.strip() == NONE_CORRECTION for c in edit.corrections)


class CompetingInsertions(Rule):
    """Reports two edits of one annotator that insert at the same point.

    ## What it does
    Flags an insertion (`A i i`) of an annotator who has another insertion at the same
    offset sharing a word with it (case aside): two versions of one insertion, the first
    as related information.  Insertions of different words at one point, which ERRANT
    writes (`,` and `they`: BEA-2019's gold has 34 in its dev set), are not flagged;
    identical edits are M402's.

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
    message = "annotator {annotator} inserts two versions before token {start}: both are " \
        "made"
    scope = Scope.M2_BLOCK

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        edits = view.edits
        first: dict[tuple[int, str, int], int] = {}
        for i in [i for i, e in enumerate(edits) if e.start == e.end and not e.is_noop]:
            edit = edits[i]
            key = (view.owner[i], edit.annotator.strip(), edit.start)
            k = first.setdefault(key, i)
            if k != i and _rival(edits[k], edit):
                yield view.owner[i], self.report(
                    edit.span(EditField.OFFSETS),
                    related=(Related(edits[k].span(), "the other insertion"),),
                    annotator=edit.annotator.strip(), start=edit.start)


def _rival(one: Edit, other: Edit) -> bool:
    """Whether two insertions at one point are two versions of one: they share a word
    (case aside), and are not the same edit (M402's)."""
    if (one.type.strip(), one.canonical) == (other.type.strip(), other.canonical):
        return False
    words = {w.lower() for c in one.canonical for w in c.split()}
    return any(w.lower() in words for c in other.canonical for w in c.split())


class TypeDiffersFromErrant(Rule):
    """Reports an edit whose type is not the one ERRANT gives its span and correction
    (opt-in, English).

    ## What it does
    Types every edit of an ERRANT-typed file as ERRANT's classifier types it: the
    sentence and each annotator's corrected sentence parsed once (split at whitespace, as
    errant_parallel parses them; the spaCy pipeline `m2lsp annotate` would load), each
    edit classified on its span of both, and flags an edit whose type differs.  `UNK`
    edits, files of other taxonomies, and an annotator's sentence whose edits cannot be
    applied together are not checked.  Needs the extra `m2lsp[errant]` and a spaCy
    pipeline: without them it says so once and checks nothing.  Off by default: select
    it by its code (`--select M412`, or the `select` setting).

    ## Why is this bad?
    Per-type scores (`--per-type`, ERRANT's `-cat`) count an edit under its type: a
    hand-set type that contradicts the correction (`M:PUNCT` for `, we`) moves it to a
    category where a system's matching edit, typed by ERRANT, is not.

    ## Example
    ```
    S need to go .
    A 0 0|||M:PUNCT|||We|||REQUIRED|||-NONE-|||0
    ```

    ## Use instead
    ```
    S need to go .
    A 0 0|||M:PRON|||We|||REQUIRED|||-NONE-|||0
    ```

    ## Fix safety
    Unsafe: the type becomes ERRANT's, which may be what the annotator meant to overrule.
    """

    code = "M412"
    name = "type-differs-from-errant"
    severity = Severity.WARNING
    message = "ERRANT types this edit {errant}, not {type}"
    fix_title = "Change the type to {errant}"
    scope = Scope.M2_BLOCK
    opt_in = True

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        if getattr(ctx.taxonomy, "name", None) != "errant":
            return
        asked, owners = [], []
        for index, block in enumerate(view.blocks):
            if block.sentence is None:
                continue
            for edits in block.by_annotator.values():
                real = sorted((e for e in edits if not e.is_noop and e.start >= 0),
                              key=lambda e: (e.start, e.end))
                if real:
                    asked.append(Asked(block.sentence.tokens, tuple(
                        (e.start, e.end, e.canonical[0] if e.canonical else "")
                        for e in real)))
                    owners.append((index, real))
        if not asked:
            return
        try:
            found = errant_types(asked)
        except (M2lspError, ImportError) as exc:
            _say_once(f"M412 is not checked: {exc}")
            return
        for (index, real), kinds in zip(owners, found, strict=True):
            for edit, kind in zip(real, kinds or (), strict=False):
                if edit.type.strip() not in (kind, "UNK"):
                    yield index, self._report(edit, kind)

    def _report(self, edit: Edit, kind: str) -> Diagnostic:
        span = edit.span(EditField.TYPE)
        fix = Fix(self.fix_title.format(errant=kind), (TextEdit(span, kind),),
                  Applicability.UNSAFE)
        return self.report(span, fix=fix, errant=kind, type=edit.type.strip())


_SAID: set[str] = set()


def _say_once(text: str) -> None:
    """A warning on the log (stderr on the command line), once per process."""
    if text not in _SAID:
        _SAID.add(text)
        logging.getLogger(__name__).warning("m2lsp: %s", text)
