"""CGED SGML/XML: structure, ids, offsets, types (C0xx)."""

from __future__ import annotations

from collections.abc import Iterator

from m2lsp.diagnostic import Diagnostic, Fix, Related, Severity, TextEdit
from m2lsp.formats.cged.model import CgedDoc, CgedDocument, CgedError, CgedType
from m2lsp.formats.cged.parser import MISSING_DOC_START
from m2lsp.model import Span
from m2lsp.rules.base import Context, Rule, Scope, listed
from m2lsp.rules.crossing import crossed

_TYPE_WORDS = "R, M, S, W (or Redundant, Missing, Selection, Disorder)"


def _errors(document: CgedDocument) -> Iterator[tuple[CgedDoc, CgedError]]:
    for doc in document.docs:
        for error in doc.errors:
            yield doc, error


class CgedSyntaxError(Rule):
    """Reports CGED markup that does not parse.

    ## What it does
    Flags the first place in a `<DOC>` element where the markup stops following the CGED
    grammar (`grammar/cged.lark`): an unclosed tag, an unquoted attribute, text outside an
    element, a `<MISTAKE>` without `<TYPE>`, and says what was expected.

    ## Why is this bad?
    The NLP-TEA tools and converters read these files with regular expressions or XML
    parsers: a broken element is skipped or misread silently, and its errors vanish from
    the gold standard.

    ## Example
    `<ERROR start_off=3 end_off="4" type="S"></ERROR>`

    ## Use instead
    `<ERROR start_off="3" end_off="4" type="S"></ERROR>`

    ## Fix safety
    No automatic fix.
    """

    code = "C001"
    name = "cged-syntax-error"
    severity = Severity.ERROR
    message = "{detail}"
    scope = Scope.CGED

    def check(self, document: CgedDocument, ctx: Context) -> Iterator[Diagnostic]:
        for problem in document.problems:
            if problem.message != MISSING_DOC_START:
                yield self.report(problem.span, detail=problem.message)


class MissingDocStart(Rule):
    """Reports a `</DOC>` element whose `<DOC>` start tag is missing.

    ## What it does
    Flags an element that ends with `</DOC>` but does not start with `<DOC>` (301 such
    elements in the CGED 2020 test release).

    ## Why is this bad?
    Tools that find documents by their start tag skip the element or merge it into the
    previous one, losing its sentence and errors.

    ## Example
    ```
    </DOC>
    <TEXT id="1003">
    ```

    ## Use instead
    ```
    </DOC>
    <DOC>
    <TEXT id="1003">
    ```

    ## Fix safety
    Safe: the missing tag is inserted where the element starts.
    """

    code = "C002"
    name = "missing-doc-start"
    severity = Severity.ERROR
    message = "element has no <DOC> start tag"
    fix_title = "Insert <DOC>"
    scope = Scope.CGED

    def check(self, document: CgedDocument, ctx: Context) -> Iterator[Diagnostic]:
        for problem in document.problems:
            if problem.message == MISSING_DOC_START:
                at = Span.on_line(problem.span.line, problem.span.col, problem.span.col)
                fix = Fix(self.fix_title, (TextEdit(at, "<DOC>\n"),))
                yield self.report(Span.on_line(at.line, at.col, at.col + 1), fix=fix)


class DuplicateSentenceId(Rule):
    """Reports a sentence id used by more than one `<DOC>`.

    ## What it does
    Flags every `<SENTENCE id>` or `<TEXT id>` that repeats an earlier id, with the first
    as related information.

    ## Why is this bad?
    Truth files and system results refer to sentences by id: with two sentences under one
    id, errors are attributed to the wrong text and offsets point at the wrong characters.

    ## Example
    Two `<DOC>`s with `<TEXT id="1001">`.

    ## Use instead
    Unique ids.

    ## Fix safety
    No automatic fix.
    """

    code = "C003"
    name = "duplicate-sentence-id"
    severity = Severity.ERROR
    message = "sentence id {id!r} is used by an earlier <DOC>"
    scope = Scope.CGED

    def check(self, document: CgedDocument, ctx: Context) -> Iterator[Diagnostic]:
        seen: dict[str, CgedDoc] = {}
        for doc in document.docs:
            if not doc.id:
                continue
            first = seen.setdefault(doc.id, doc)
            if first is not doc:
                yield self.report(doc.id_span, id=doc.id,
                                  related=(Related(first.id_span, "first use"),))


class OffsetNotInteger(Rule):
    """Reports an error whose `start_off` or `end_off` is missing or not an integer.

    ## What it does
    Flags `<ERROR>` and `<MISTAKE>` elements without both offsets as positive integers
    (not the MISTAKEs of a 2014 `<ESSAY>`, which name a whole sentence).

    ## Why is this bad?
    Offsets are 1-based character positions; the official tools stop or skip the error.

    ## Example
    `<ERROR start_off="3" type="S"></ERROR>`

    ## Use instead
    `<ERROR start_off="3" end_off="3" type="S"></ERROR>`

    ## Fix safety
    No automatic fix.
    """

    code = "C004"
    name = "cged-offset-not-integer"
    severity = Severity.ERROR
    message = "{name} is {problem}"
    scope = Scope.CGED

    def check(self, document: CgedDocument, ctx: Context) -> Iterator[Diagnostic]:
        for doc, error in _errors(document):
            if doc.style == "essay":  # 2014: errors of whole sentences, without offsets
                continue
            for name in ("start_off", "end_off"):
                attr = error.attribute(name)
                if attr is None:
                    yield self.report(error.span, name=name, problem="missing")
                elif error.offset(name) is None:
                    yield self.report(attr.value_span, name=name,
                                      problem=f"{attr.value!r}, not a positive integer")


class StartAfterEnd(Rule):
    """Reports an error whose start offset is after its end offset.

    ## What it does
    Flags `start_off` greater than `end_off` (both are inclusive).

    ## Why is this bad?
    The span is empty and backwards; the position level of the NLP-TEA evaluation can
    never match it.

    ## Example
    `<ERROR start_off="5" end_off="3" type="W"></ERROR>`

    ## Use instead
    `<ERROR start_off="3" end_off="5" type="W"></ERROR>`

    ## Fix safety
    No automatic fix.
    """

    code = "C005"
    name = "cged-start-after-end"
    severity = Severity.ERROR
    message = "start_off {start} is after end_off {end}"
    scope = Scope.CGED

    def check(self, document: CgedDocument, ctx: Context) -> Iterator[Diagnostic]:
        for _, error in _errors(document):
            if error.start is not None and error.end is not None and error.start > error.end:
                yield self.report(error.span, start=error.start, end=error.end)


class OffsetOutOfRange(Rule):
    """Reports an error whose offsets fall outside its sentence.

    ## What it does
    Offsets are 1-based character positions in the text.  Flags `start_off` below 1, and
    positions beyond the last character, except that a Missing error may start one past
    the end (something is missing at the end of the sentence) and then extends over as many
    positions as characters are missing, as the NLP-TEA releases write it.

    ## Why is this bad?
    The error points at characters that do not exist, usually because the text was edited
    after annotation or offsets were counted in bytes or from 0.

    ## Example
    `<SENTENCE id="x">他們高興</SENTENCE>` with a Selection error at 5-5.

    ## Use instead
    Offsets within 1-4 (or a Missing error at 5).

    ## Fix safety
    No automatic fix.
    """

    code = "C006"
    name = "cged-offset-out-of-range"
    severity = Severity.ERROR
    message = "{what}: the text has {length} characters"
    scope = Scope.CGED

    def check(self, document: CgedDocument, ctx: Context) -> Iterator[Diagnostic]:
        for doc, error in _errors(document):
            start, end = error.start, error.end
            if start is None or end is None:
                continue
            length = len(doc.text)
            limit = length + 1 if error.kind is CgedType.MISSING else length
            if start < 1:
                yield self.report(error.span, what=f"start_off {start} is below 1",
                                  length=length)
            elif start > limit or (end > length and error.kind is not CgedType.MISSING):
                yield self.report(error.span, what=f"offsets {start}-{end} go past the text",
                                  length=length)


class UnknownCgedType(Rule):
    """Reports an error type other than R, M, S, W.

    ## What it does
    Flags a type that is not one of R, M, S, W or their long names Redundant, Missing,
    Selection, Disorder.

    ## Why is this bad?
    The identification level of the NLP-TEA evaluation compares types: an unknown type
    never matches and counts as wrong for every system.

    ## Example
    `<ERROR start_off="3" end_off="3" type="X"></ERROR>`

    ## Use instead
    `<ERROR start_off="3" end_off="3" type="S"></ERROR>`

    ## Fix safety
    No automatic fix.
    """

    code = "C007"
    name = "cged-unknown-type"
    severity = Severity.ERROR
    message = "unknown error type {type!r}: use " + _TYPE_WORDS
    scope = Scope.CGED

    def check(self, document: CgedDocument, ctx: Context) -> Iterator[Diagnostic]:
        for _, error in _errors(document):
            if error.kind is None:
                yield self.report(error.type_span if error.type else error.span,
                                  type=error.type)


class DisorderSingleChar(Rule):
    """Reports a word-order (W / Disorder) error spanning one character.

    ## What it does
    Flags W errors with `start_off` equal to `end_off`.

    ## Why is this bad?
    A word-order error reorders at least two characters; a one-character span is usually
    a typo in an offset or a mistyped S error.

    ## Example
    `<ERROR start_off="4" end_off="4" type="W"></ERROR>`

    ## Use instead
    `<ERROR start_off="4" end_off="7" type="W"></ERROR>`

    ## Fix safety
    No automatic fix.
    """

    code = "C008"
    name = "disorder-single-char"
    severity = Severity.WARNING
    message = "word-order error spans a single character ({start}-{end})"
    scope = Scope.CGED

    def check(self, document: CgedDocument, ctx: Context) -> Iterator[Diagnostic]:
        for _, error in _errors(document):
            if error.kind is CgedType.DISORDER and error.start is not None \
                    and error.start == error.end:
                yield self.report(error.span, start=error.start, end=error.end)


class CrossingErrors(Rule):
    """Reports two errors of a sentence whose spans cross.

    ## What it does
    Flags an R, S or W error that partly overlaps an earlier R, S or W error of the same
    sentence: they share characters but neither contains the other.  (Missing errors mark
    insertion points and may sit anywhere; nested errors, such as a selection error inside
    a word-order span, are legitimate.)

    ## Why is this bad?
    Crossing spans cannot both be corrected; one of the offsets is usually wrong.

    ## Example
    Errors S 3-5 and R 4-6 in one sentence.

    ## Use instead
    Errors S 3-5 and R 6-6.

    ## Fix safety
    No automatic fix.
    """

    code = "C009"
    name = "crossing-errors"
    severity = Severity.WARNING
    message = "error {start}-{end} crosses error {other_start}-{other_end}"
    scope = Scope.CGED

    def check(self, document: CgedDocument, ctx: Context) -> Iterator[Diagnostic]:
        for doc in document.docs:
            spans = [e for e in doc.errors if e.kind not in (None, CgedType.MISSING)
                     and e.start is not None and e.end is not None]
            found = crossed([(e.start, e.end) for e in spans])  # type: ignore[misc]
            for error, k in zip(spans, found, strict=True):
                if k is not None:
                    other = spans[k]
                    yield self.report(error.span, start=error.start, end=error.end,
                                      other_start=other.start, other_end=other.end,
                                      related=(Related(other.span, "crossing error"),))


class GluedAttributes(Rule):
    """Reports attributes with no whitespace between them.

    ## What it does
    Flags `start_off="13"end_off="19"`: an attribute that follows the previous one's
    closing quote directly (seen in the CGED 2020 release).

    ## Why is this bad?
    XML requires whitespace between attributes: XML parsers reject the file, and regular
    expressions that expect a space miss the attribute, silently dropping the error.

    ## Example
    `<ERROR start_off="13"end_off="19"type="W"></ERROR>`

    ## Use instead
    `<ERROR start_off="13" end_off="19" type="W"></ERROR>`

    ## Fix safety
    Safe: a space is inserted and nothing else changes.
    """

    code = "C010"
    name = "glued-attributes"
    severity = Severity.WARNING
    message = "no whitespace before attribute(s) {name}"
    fix_title = "Insert a space"
    scope = Scope.CGED

    def check(self, document: CgedDocument, ctx: Context) -> Iterator[Diagnostic]:
        for doc in document.docs:
            elements = [e.attributes for e in doc.errors]
            if doc.id_attribute is not None:
                elements.append((doc.id_attribute,))
            for attributes in elements:
                glued = [a for a in attributes if a.glued]
                if glued:
                    edits = tuple(TextEdit(Span.on_line(a.span.line, a.span.col, a.span.col), " ")
                                  for a in glued)
                    first = glued[0].span
                    yield self.report(Span.on_line(first.line, first.col,
                                                   first.col + len(glued[0].name)),
                                      fix=Fix(self.fix_title, edits),
                                      name=listed([a.name for a in glued]))


class MissingAttribute(Rule):
    """Reports an element without an attribute it needs.

    ## What it does
    Flags `<SENTENCE>`/`<TEXT>` without `id`, and `<ERROR>` without `type`.

    ## Why is this bad?
    Without an id the sentence cannot be matched with truth or result lines; without a
    type the error cannot be scored at the identification level.

    ## Example
    `<TEXT>他们知不道吸烟的害处。</TEXT>`

    ## Use instead
    `<TEXT id="200405109523200554_2_1x1">他们知不道吸烟的害处。</TEXT>`

    ## Fix safety
    No automatic fix.
    """

    code = "C011"
    name = "missing-attribute"
    severity = Severity.ERROR
    message = "<{element}> has no {name} attribute"
    scope = Scope.CGED

    def check(self, document: CgedDocument, ctx: Context) -> Iterator[Diagnostic]:
        for doc in document.docs:
            if doc.id_attribute is None:
                element = "TEXT" if doc.style == "text" else "SENTENCE"
                yield self.report(doc.span, element=element, name="id")
            for error in doc.errors:
                if doc.style == "text" and error.attribute("type") is None:
                    yield self.report(error.span, element="ERROR", name="type")


class EmptyText(Rule):
    """Reports a sentence or text element with no text.

    ## What it does
    Flags `<SENTENCE>` or `<TEXT>` elements that are empty or hold only whitespace.

    ## Why is this bad?
    Every offset in the element is out of range, and detection-level scores count a
    sentence that does not exist.

    ## Example
    `<TEXT id="1002"></TEXT>`

    ## Use instead
    `<TEXT id="1002">我家附近有车站。</TEXT>`

    ## Fix safety
    No automatic fix.
    """

    code = "C012"
    name = "empty-text"
    severity = Severity.WARNING
    message = "sentence {id!r} has no text"
    scope = Scope.CGED

    def check(self, document: CgedDocument, ctx: Context) -> Iterator[Diagnostic]:
        for doc in document.docs:
            if not doc.text:
                yield self.report(doc.text_span, id=doc.id)


class DuplicateError(Rule):
    """Reports an error repeated within a sentence.

    ## What it does
    Flags an error with the same offsets and type as an earlier error of the sentence.

    ## Why is this bad?
    The evaluation counts gold errors: a duplicate can never be matched twice, so recall
    at the position level drops for every system.

    ## Example
    Two `<ERROR start_off="3" end_off="4" type="S">` in one `<DOC>`.

    ## Use instead
    One.

    ## Fix safety
    No automatic fix (the two may carry different corrections).
    """

    code = "C013"
    name = "duplicate-error"
    severity = Severity.WARNING
    message = "error {start}-{end} {type} repeats an earlier error"
    scope = Scope.CGED

    def check(self, document: CgedDocument, ctx: Context) -> Iterator[Diagnostic]:
        for doc in document.docs:
            seen: dict[tuple, CgedError] = {}
            for error in doc.errors:
                key = (error.start, error.end, error.kind)
                first = seen.setdefault(key, error)
                if first is not error and error.kind is not None:
                    yield self.report(error.span, start=error.start, end=error.end,
                                      type=error.type, related=(Related(first.span, "first"),))
