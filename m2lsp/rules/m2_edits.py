"""M2 edits: overlaps, duplicates, no-op corrections, spacing, error types (M4xx)."""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterator, Sequence
from typing import Any

from m2lsp.diagnostic import Applicability, Diagnostic, Fix, Related, Severity, TextEdit
from m2lsp.model import NONE_CORRECTION, Block, Edit, EditField, Span
from m2lsp.parsing.suspects import Suspect
from m2lsp.rules.base import BlockSet, Context, Found, Rule, Scope
from m2lsp.rules.crossing import overlapped
from m2lsp.rules.m2_annotators import delete_line
from m2lsp.taxonomy import NOOP


def _real_edits(edits: Sequence[Edit], count: int | None) -> list[Edit]:
    """Edits with usable offsets (not noops, not negative, not backwards, in range)."""
    return [e for e in edits if not e.is_noop and 0 <= e.start <= e.end
            and (count is None or e.end <= count)]


@functools.lru_cache(maxsize=4096)
def _closest(etype: str, known: frozenset[str]) -> str | None:
    """The closest known type, ignoring case and spaces, or None.  Kept per type: a file with
    an unknown type usually has it on thousands of lines, and each comparison with every
    known type is costly (the taxonomy's frozenset hashes once)."""
    by_key = {t.upper(): t for t in sorted(known)}
    close = difflib.get_close_matches(etype.strip().upper(), list(by_key), n=1)
    return by_key[close[0]] if close else None


def _disjoint_in_order(edits: tuple[Edit, ...]) -> bool:
    """Cheap test: each annotator's edits follow one another without sharing tokens."""
    last: dict[str, Edit] = {}
    for edit in edits:
        prev = last.get(edit.annotator)
        if prev is not None and edit.type != NOOP and (
                edit.start < prev.end or (edit.start == prev.start and prev.start != prev.end)):
            return False
        if edit.type != NOOP:
            last[edit.annotator] = edit
    return True


def _shared_spans(edits: tuple[Edit, ...]) -> bool:
    """Whether two edits of one annotator have the same offsets (a duplicate is possible)."""
    seen = set()
    for edit in edits:
        key = (edit.annotator, edit.start, edit.end)
        if key in seen:
            return True
        seen.add(key)
    return False


def _identity(corrections: tuple[str, ...], original: tuple[str, ...]) -> str | None:
    """The first correction that equals the original tokens, if any."""
    if len(original) == 1:  # the common case, without joining
        token = original[0]
        for correction in corrections:
            if correction == token or correction.strip() == token:
                return correction
        return None
    text = " ".join(original)
    for correction in corrections:
        if _same_text(correction, text):
            return correction
    return None


def _same_text(correction: str, original: str) -> bool:
    """Whether a correction, read as the NUS scorer reads it, equals `original`."""
    if correction == original:
        return True
    if correction == NONE_CORRECTION:
        return original == ""
    return " ".join(correction.split()) == original


def _plain(corrections: tuple[str, ...]) -> bool:
    """Cheap test for the common case: one ASCII correction with no stray spaces."""
    if len(corrections) != 1:
        return False
    text = corrections[0]
    return text.isascii() and "  " not in text and text[:1] != " " and text[-1:] != " " \
        and text.isprintable()


def _regular_spacing(correction: str) -> bool:
    """Whether a correction is tokens separated by single spaces (or -NONE-)."""
    if correction.isascii() and correction.isprintable():
        return "  " not in correction and correction[:1] != " " and correction[-1:] != " "
    return correction == NONE_CORRECTION or " ".join(correction.split()) == correction


_REQUIRED_VALUES = frozenset({"REQUIRED", "OPTIONAL"})


def _sameness(edit: Edit) -> tuple:
    """What two edits share when one repeats the other (M402): offsets, type, corrections
    as the NUS scorer reads them."""
    return edit.start, edit.end, edit.type.strip(), edit.canonical


class OverlappingEdits(Rule):
    """Reports two edits of one annotator whose spans overlap.

    ## What it does
    Flags an edit whose span shares tokens with an earlier edit of the same annotator (or,
    for an insertion, falls strictly inside it), with the other edit as related information.
    Identical edits are M402's.

    ## Why is this bad?
    One annotator's edits must apply together to give the corrected sentence; overlapping
    edits cannot.  A system can match at most one of them, so recall can never reach 1.

    ## Example
    ```
    S He go to school yesterday .
    A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0
    A 1 3|||R:VERB:TENSE|||went to|||REQUIRED|||-NONE-|||0
    ```

    ## Use instead
    ```
    S He go to school yesterday .
    A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||0
    ```

    ## Fix safety
    No automatic fix: which edit is right needs a human.
    """

    code = "M401"
    name = "overlapping-edits"
    severity = Severity.WARNING
    message = "edit {start} {end} overlaps edit {other_start} {other_end} of annotator {annotator}"
    scope = Scope.M2_BLOCK
    suspect = Suspect.ORDER

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        for index, block in enumerate(view.blocks):
            if len(block.edits) > 1 and not _disjoint_in_order(block.edits):
                yield from ((index, d) for d in self._check_block(block))

    def _check_block(self, block: Block) -> Iterator[Diagnostic]:
        for annotator, edits in block.by_annotator.items():
            real = _real_edits(edits, block.token_count)
            found = overlapped([(e.start, e.end, (e.type.strip(), e.canonical)) for e in real])
            for edit, k in zip(real, found, strict=True):
                if k is not None:
                    other = real[k]
                    yield self.report(edit.span(EditField.OFFSETS),
                                      related=(Related(other.span(), "overlapping edit"),),
                                      start=edit.start, end=edit.end, other_start=other.start,
                                      other_end=other.end, annotator=annotator)


class DuplicateEdit(Rule):
    """Reports an edit that repeats an earlier edit of the same annotator.

    ## What it does
    Flags an A line with the same annotator, offsets, type and corrections as an earlier
    line of the block (corrections compared as the NUS scorer reads them).

    ## Why is this bad?
    The NUS scorer counts every gold line, and one system edit that matches them is counted
    correct once for each: a system that makes the edit of the example scores precision 2.0
    and recall 1.0 (F0.5 1.6667), so precision rises above 1.  ERRANT's scorer counts the
    pair as two true positives.

    ## Example
    ```
    S The cat sat .
    A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0
    A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0
    ```

    ## Use instead
    ```
    S The cat sat .
    A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0
    ```

    ## Fix safety
    Safe: the repeated line is removed.
    """

    code = "M402"
    name = "duplicate-edit"
    severity = Severity.WARNING
    message = "repeats an earlier edit of annotator {annotator}"
    fix_title = "Remove the duplicate line"
    scope = Scope.M2_BLOCK
    suspect = Suspect.ORDER

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        for index, block in enumerate(view.blocks):
            if len(block.edits) > 1 and _shared_spans(block.edits):
                yield from ((index, d) for d in self._check_block(block))

    def _check_block(self, block: Block) -> Iterator[Diagnostic]:
        for annotator, edits in block.by_annotator.items():
            firsts: dict[tuple, Edit] = {}
            for edit in (e for e in edits if e.type != NOOP):
                first = firsts.setdefault(_sameness(edit), edit)
                if first is not edit:
                    fix = Fix(self.fix_title, (delete_line(edit.row),))
                    yield self.report(edit.span(), fix=fix,
                                      related=(Related(first.span(), "first occurrence"),),
                                      annotator=annotator)


class IdentityEdit(Rule):
    """Reports a correction that equals the tokens it replaces.

    ## What it does
    Flags an alternative correction identical to the original span (compared as the NUS
    scorer reads them: `-NONE-` is empty, surrounding spaces stripped), including an
    insertion of nothing.  `UNK` edits, which ERRANT writes with the original tokens on
    purpose, are not flagged.

    ## Why is this bad?
    The edit changes nothing, so no system output can ever match it: it counts as a missed
    gold edit for every system.  Usually the correction was lost or pasted in the wrong
    field.

    ## Example
    ```
    S The cat sat .
    A 1 2|||R:NOUN|||cat|||REQUIRED|||-NONE-|||0
    ```

    ## Use instead
    ```
    S The cat sat .
    A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0
    ```

    ## Fix safety
    No automatic fix.
    """

    code = "M403"
    name = "identity-edit"
    severity = Severity.WARNING
    message = "correction {correction!r} equals the original text: the edit changes nothing"
    scope = Scope.M2_BLOCK
    suspect = Suspect.IDENTITY

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        for index, block in enumerate(view.blocks):
            if block.sentence is None or not block.edits:
                continue
            tokens = block.sentence.tokens
            for edit in block.edits:
                start, end = edit.start, edit.end
                if not 0 <= start <= end <= len(tokens) or edit.type in ("UNK", NOOP):
                    continue
                correction = _identity(edit.corrections, tokens[start:end])
                if correction is not None:
                    yield index, self.report(edit.span(EditField.CORRECTIONS),
                                             correction=correction)


class CorrectionWhitespace(Rule):
    """Reports a correction with leading, trailing, doubled or non-space whitespace.

    ## What it does
    Flags an alternative correction that does not consist of tokens separated by single
    spaces.

    ## Why is this bad?
    The NUS scorer strips corrections but keeps inner spacing, while system edits are
    joined with single spaces: `"a  lot"` never matches a system's `"a lot"`.

    ## Example
    `A 3 4|||R:OTHER|||a  lot|||REQUIRED|||-NONE-|||0`

    ## Use instead
    `A 3 4|||R:OTHER|||a lot|||REQUIRED|||-NONE-|||0`

    ## Fix safety
    Safe: the tokens are kept, only the spacing between them changes.
    """

    code = "M404"
    name = "correction-whitespace"
    severity = Severity.WARNING
    message = "correction {correction!r} has irregular whitespace"
    fix_title = "Separate correction tokens by single spaces"
    scope = Scope.M2_BLOCK
    suspect = Suspect.CORRECTIONS

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        edits = view.edits
        for i in [i for i, e in enumerate(edits) if not _plain(e.corrections)]:
            for correction in edits[i].corrections:
                if not _regular_spacing(correction):
                    yield view.owner[i], self._report(edits[i], correction)
                    break

    def _report(self, edit: Edit, bad: str) -> Diagnostic:
        fixed = "||".join(c if c == NONE_CORRECTION else " ".join(c.split())
                          for c in edit.corrections)
        span = edit.span(EditField.CORRECTIONS)
        return self.report(span, fix=Fix(self.fix_title, (TextEdit(span, fixed),)),
                           correction=bad)


class UnknownErrorType(Rule):
    """Reports an error type that the file's taxonomy does not have.

    ## What it does
    Detects the taxonomy of the file (ERRANT, NUCLE/CoNLL-2014, ChERRANT/NLPCC) from the
    types it uses, or takes it from the `taxonomy` setting, and flags types outside it
    (plus `extra-types`), suggesting the closest known type.

    ## Why is this bad?
    Per-type scores and error analyses group by type: a misspelt type (`R:NOUM`) or one
    from another scheme silently forms a category of its own.

    ## Example
    `A 1 2|||R:NOUM|||dog|||REQUIRED|||-NONE-|||0` in an ERRANT file.

    ## Use instead
    `A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0`

    ## Fix safety
    Unsafe: the closest known type is offered as a quick fix in the editor (and by
    `--fix --unsafe-fixes`); it is a guess, so plain `--fix` never applies it.
    """

    code = "M405"
    name = "unknown-error-type"
    severity = Severity.WARNING
    message = "{type!r} is not an error type of {taxonomy}{hint}"
    fix_title = "Write the closest known type"
    scope = Scope.M2_BLOCK

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        taxonomy = ctx.taxonomy
        if taxonomy is None:
            return
        known = taxonomy.types
        if ctx.types is not None:
            unknown = ctx.types - taxonomy.names
            if not unknown:
                return  # every type of the file is known
            blocks = [k for k, block in enumerate(view.blocks) if block.type_set & unknown]
        else:
            blocks = list(range(len(view.blocks)))
        for index in blocks:
            for edit in view.blocks[index].edits:
                etype = edit.type
                if etype not in known and etype.strip().lower() != NOOP:
                    yield index, self._report(edit, etype, taxonomy)

    def _report(self, edit: Edit, etype: str, taxonomy: Any) -> Diagnostic:
        span = edit.span(EditField.TYPE)
        closest = _closest(etype, taxonomy.names)
        fix = None if closest is None else Fix(
            f"Write {closest!r} (the closest known type)", (TextEdit(span, closest),),
            Applicability.UNSAFE)
        hint = f" (did you mean {closest!r}?)" if closest else ""
        return self.report(span, fix=fix, type=etype, taxonomy=taxonomy.title, hint=hint)


class NoopSpelling(Rule):
    """Reports `noop` written in another case or spelling.

    ## What it does
    Flags types like `NOOP`, `Noop`, `no-op` or `no_op`.

    ## Why is this bad?
    The NUS scorer and ERRANT recognise exactly `noop`.  Any other spelling is read as an
    edit of type `NOOP` at offsets -1 -1, which the scorer drops, so the annotator silently
    vanishes from the sentence.

    ## Example
    `A -1 -1|||NOOP|||-NONE-|||REQUIRED|||-NONE-|||0`

    ## Use instead
    `A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0`

    ## Fix safety
    Safe: the type is rewritten as `noop`.
    """

    code = "M406"
    name = "noop-spelling"
    severity = Severity.ERROR
    message = "{type!r} is not recognised as a noop: write `noop`"
    fix_title = "Write `noop`"
    scope = Scope.M2_BLOCK
    suspect = Suspect.NOOP_SPELLING

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        edits = view.edits
        for i in [i for i, e in enumerate(edits) if e.type != NOOP and len(e.type) < 9]:
            etype = edits[i].type
            if etype.strip().lower().replace("-", "").replace("_", "") == NOOP:
                span = edits[i].span(EditField.TYPE)
                fix = Fix(self.fix_title, (TextEdit(span, NOOP),))
                yield view.owner[i], self.report(span, fix=fix, type=etype)


class UnkWithCorrection(Rule):
    """Reports an `UNK` edit whose correction differs from the original tokens.

    ## What it does
    Flags `UNK` edits (ERRANT's "error marked, no correction given") whose correction is
    not the original text of the span.

    ## Why is this bad?
    ERRANT writes UNK edits with the original tokens as the correction, so that applying
    all edits still yields a sentence.  A real correction on an UNK edit means the type was
    lost: the edit is scored but reported under the wrong category.

    ## Example
    ```
    S The cat sat .
    A 1 2|||UNK|||dog|||REQUIRED|||-NONE-|||0
    ```

    ## Use instead
    `A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0`, or `A 1 2|||UNK|||cat|||...`.

    ## Fix safety
    No automatic fix.
    """

    code = "M407"
    name = "unk-with-correction"
    severity = Severity.WARNING
    message = ("UNK edit changing {original!r} to {correction!r}: choose its type (UNK "
               "marks an error left uncorrected)")
    scope = Scope.M2_BLOCK
    suspect = Suspect.UNK

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        edits, blocks = view.edits, view.blocks
        for i in [i for i, e in enumerate(edits) if e.type == "UNK"]:
            edit, index = edits[i], view.owner[i]
            sentence = blocks[index].sentence
            if sentence is None:
                continue
            tokens = sentence.tokens
            if 0 <= edit.start <= edit.end <= len(tokens):
                original = " ".join(tokens[edit.start:edit.end])
                if not any(_same_text(c, original) for c in edit.corrections):
                    yield index, self.report(edit.span(EditField.CORRECTIONS),
                                             correction=edit.canonical[0], original=original)


class RequiredField(Rule):
    """Reports a required flag other than `REQUIRED` or `OPTIONAL`.

    ## What it does
    Flags the fourth field of an A line unless it is `REQUIRED` or `OPTIONAL`.

    ## Why is this bad?
    The field is part of the format; a different value usually means the fields have
    shifted (a correction containing `|||`, a missing field).

    ## Example
    `A 3 4|||Prep|||on|||-NONE-|||REQUIRED|||0`

    ## Use instead
    `A 3 4|||Prep|||on|||REQUIRED|||-NONE-|||0`

    ## Fix safety
    No automatic fix.
    """

    code = "M408"
    name = "required-field"
    severity = Severity.WARNING
    message = "required flag is {value!r}; expected REQUIRED or OPTIONAL"
    scope = Scope.M2_BLOCK
    suspect = Suspect.REQUIRED

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        edits = view.edits
        for i in [i for i, e in enumerate(edits) if e.required not in _REQUIRED_VALUES]:
            yield view.owner[i], self.report(edits[i].span(EditField.REQUIRED),
                                             value=edits[i].required)


# what each operation letter needs, by taxonomy: (the span is empty, the correction is
# empty) -> the letter that fits; ERRANT: Missing, Unnecessary, Replacement; ChERRANT:
# Missing, Redundant, Substitution (and Word order, a substitution's shape)
_FITS = {"errant": {(True, False): "M", (False, True): "U", (False, False): "R"},
         "cherrant": {(True, False): "M", (False, True): "R", (False, False): "S"}}
_SHAPES = {"errant": {"M": "an insertion (an empty span)", "U": "a deletion (no correction)",
                      "R": "a replacement (a span and a correction)"},
           "cherrant": {"M": "an insertion (an empty span)",
                        "R": "a deletion (no correction)",
                        "S": "a substitution (a span and a correction)",
                        "W": "a reordering (a span and a correction)"}}


class TypeDoesNotFitOperation(Rule):
    """Reports an edit whose type names another operation than the edit makes.

    ## What it does
    Reads the operation letter of the type (ERRANT's `M:`, `U:`, `R:`; ChERRANT's `M`,
    `R`, `S`, `W`) and flags an edit whose span and correction make another one: `M:` on a
    span that is not empty, `U:` with a correction, `R:` on a pure insertion or deletion
    (ERRANT); `M` on a span, `R` with a correction, `S` or `W` on a pure insertion or
    deletion (ChERRANT).  As ERRANT's classifier does, a last token both sides of a
    multi-token edit share (case aside) is set apart first: `Not` -> `I 'm not` is an
    insertion.  Files of other taxonomies are not checked; a `noop` away from `-1 -1` is
    M105's.

    ## Why is this bad?
    Per-type scores (`--per-type`, ERRANT's `-cat`) count the edit under an operation it
    does not make, and the operation is how the type was meant to be read: such an edit
    was usually typed by hand, then its span or correction changed.

    ## Example
    ```
    S He go to school .
    A 1 2|||M:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0
    ```

    ## Use instead
    ```
    S He go to school .
    A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0
    ```

    ## Fix safety
    Unsafe: the fix changes the operation letter to the one the edit makes, keeping the
    rest of the type (offered where the taxonomy has that type); the category may be
    wrong too.  The editor's "Re-classify this edit" types the edit with ERRANT or ChERRANT.
    """

    code = "M409"
    name = "type-does-not-fit-operation"
    severity = Severity.WARNING
    message = "{type} names {named}, but the edit is {made}"
    fix_title = "Change the type to {fitted}"
    scope = Scope.M2_BLOCK

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        taxonomy = getattr(ctx.taxonomy, "name", None)
        if taxonomy not in _FITS:
            return
        for index, block in enumerate(view.blocks):
            if block.sentence is None:
                continue
            tokens = block.sentence.tokens
            for edit in block.edits:
                found = self._misfit(edit, tokens, taxonomy, ctx)
                if found is not None:
                    yield index, found

    def _misfit(self, edit: Edit, tokens: tuple[str, ...], taxonomy: str, ctx: Context
                ) -> Diagnostic | None:
        kind = edit.type.strip()
        letter, _, rest = kind.partition(":")
        if letter not in _SHAPES[taxonomy] or edit.is_noop or not (
                0 <= edit.start <= edit.end <= len(tokens)):
            return None
        # the first alternative as `edit.canonical[0]` reads it, without the others (this
        # runs on every edit of a file: it was the largest rule in a profile of `check`)
        first = edit.corrections[0] if edit.corrections else ""
        first = "" if first == NONE_CORRECTION else first.strip()
        removes, adds = edit.end > edit.start, bool(first)
        if taxonomy == "errant" and removes and adds:
            added = first.split()
            if edit.end - edit.start > 1 or len(added) > 1:
                # only a replacement of more than one token on a side can lose a side in
                # _core
                core_removed, core_added = _core(tokens[edit.start:edit.end], added)
                removes, adds = bool(core_removed), bool(core_added)
        fits = _FITS[taxonomy].get((not removes, not adds))
        if fits is None or fits == letter or (letter == "W" and fits == "S"):
            return None
        fitted = fits + (":" + rest if rest else "")
        fix = None
        if ctx.taxonomy.accepts(fitted):
            col, end = edit.columns(EditField.TYPE)
            fix = Fix(self.fix_title.format(fitted=fitted),
                      (TextEdit(Span.on_line(edit.row, col, end), fitted),),
                      Applicability.UNSAFE)
        return self.report(edit.span(EditField.TYPE), fix=fix, type=kind,
                           named=_SHAPES[taxonomy][letter], made=_SHAPES[taxonomy][fits])


def _core(original: Sequence[str], corrected: Sequence[str]) -> tuple[list[str], list[str]]:
    """The sides of an edit as ERRANT's classifier types them: while both sides have a
    token and one has more, a last token they share (case aside) is set apart, so that
    `Not` -> `I 'm not` is an insertion (M:OTHER) and `Volleyball` -> `volleyball ,` a
    replacement (R:OTHER), as ERRANT types them."""
    a, b = list(original), list(corrected)
    while a and b and (len(a) > 1 or len(b) > 1) and a[-1].lower() == b[-1].lower():
        a, b = a[:-1], b[:-1]
    return a, b
