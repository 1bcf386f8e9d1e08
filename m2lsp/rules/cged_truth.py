"""CGED truth and result files (T0xx)."""

from __future__ import annotations

from collections.abc import Iterator

from m2lsp.diagnostic import Diagnostic, Fix, Related, Severity, TextEdit
from m2lsp.formats.cged.model import TruthDocument, TruthLine
from m2lsp.model import Format, Span
from m2lsp.rules.base import Context, Rule, Scope
from m2lsp.rules.m2_structure import CrlfLineEndings


class TruthSyntaxError(Rule):
    """Reports a truth or result line that does not parse.

    ## What it does
    Flags lines that are neither `sid, correct`, `sid, start, end, type[, correction...]`
    nor NLP-TEA 2014's `sid, type` (`grammar/cged_truth.lark`), saying where and what was
    expected.

    ## Why is this bad?
    The NLP-TEA tools skip or stop on such lines; a skipped truth line silently turns an
    erroneous sentence into a correct one.

    ## Example
    `A2-0087, 12, Missing`

    ## Use instead
    `A2-0087, 12, 13, Missing`

    ## Fix safety
    No automatic fix.
    """

    code = "T001"
    name = "truth-syntax-error"
    severity = Severity.ERROR
    message = "{detail}"
    scope = Scope.TRUTH

    def check(self, document: TruthDocument, ctx: Context) -> Iterator[Diagnostic]:
        for problem in document.problems:
            yield self.report(Span.on_line(problem.row, 0, len(problem.text)),
                              detail=problem.message)


class UnknownSentenceId(Rule):
    """Reports a line whose sentence id is not in the matching input file.

    ## What it does
    When the ids of the test sentences are known (`--cged-input FILE`, or an input file next
    to the truth file with the same name but `Input` for `Truth`), flags lines whose id is
    not among them.

    ## Why is this bad?
    The official tools stop on unknown ids, or count the line as a false positive of a
    sentence that does not exist.

    ## Example
    `A2-9999, correct` when the input has no sentence A2-9999.

    ## Use instead
    The id as it is in the input.

    ## Fix safety
    No automatic fix.
    """

    code = "T002"
    name = "truth-unknown-id"
    severity = Severity.ERROR
    message = "sentence id {sid!r} is not in the input file"
    scope = Scope.TRUTH

    def check(self, document: TruthDocument, ctx: Context) -> Iterator[Diagnostic]:
        if ctx.known_ids is None:
            return
        for line in document.lines:
            if line.sid not in ctx.known_ids:
                yield self.report(line.span(0), sid=line.sid)


class BareComma(Rule):
    """Reports a comma not followed by a space or tab.

    ## What it does
    Flags `sid,3,4,M`: fields separated by a bare comma.

    ## Why is this bad?
    The official CGED 2018-2021 scorer (`evaluation.pl`) splits lines on a comma followed by
    whitespace and silently ignores lines that do not split, so the errors on such a line
    are not scored (m2lsp scores them, which is why the two can disagree).

    ## Example
    `00038800481,8,8,R`

    ## Use instead
    `00038800481, 8, 8, R`

    ## Fix safety
    Safe: a space is inserted after each bare comma.
    """

    code = "T003"
    name = "bare-comma"
    severity = Severity.WARNING
    message = "comma not followed by whitespace: the official 2018 scorer ignores this line"
    fix_title = "Add a space after each comma"
    scope = Scope.TRUTH

    def check(self, document: TruthDocument, ctx: Context) -> Iterator[Diagnostic]:
        for line in document.lines:
            if line.bare_commas:
                # a comma that ends the line gets no space: it would be trailing whitespace,
                # which X004 removes again (two fixes undoing each other)
                inner = [c for c in line.bare_commas if line.text[c + 1:].strip()]
                edits = tuple(TextEdit(Span.on_line(line.row, c + 1, c + 1), " ")
                              for c in inner)
                first = line.bare_commas[0]
                yield self.report(Span.on_line(line.row, first, first + 1),
                                  fix=Fix(self.fix_title, edits) if edits else None)


class AnswerWithSpace(Rule):
    """Reports a correction (answer) that contains whitespace.

    ## What it does
    Flags correction fields with a space or tab inside.

    ## Why is this bad?
    The official 2018-2021 scorer splits lines on whitespace after commas and compares
    corrections as split: an answer with a space is cut in two and never matches.

    ## Example
    `1001, 9, 10, S, 附 件`

    ## Use instead
    `1001, 9, 10, S, 附件`

    ## Fix safety
    No automatic fix: the space may be part of the intended correction.
    """

    code = "T004"
    name = "answer-with-space"
    severity = Severity.WARNING
    message = "correction {answer!r} contains whitespace: the official 2018 scorer splits it"
    scope = Scope.TRUTH

    def check(self, document: TruthDocument, ctx: Context) -> Iterator[Diagnostic]:
        for line in document.lines:
            for index, answer in enumerate(line.answers, start=4):
                value = answer.strip(" \t")
                if any(ch.isspace() for ch in value):
                    yield self.report(line.span(index), answer=answer)


class CorrectWithErrors(Rule):
    """Reports a sentence marked `correct` that also has error lines.

    ## What it does
    Flags the `correct` line of an id that also appears with offsets, and the errors as
    related information.

    ## Why is this bad?
    The detection level asks whether a sentence has errors: the file answers both ways, and
    the tools count whichever line they read last.

    ## Example
    ```
    A2-0904, correct
    A2-0904, 5, 6, Missing
    ```

    ## Use instead
    One of the two.

    ## Fix safety
    No automatic fix.
    """

    code = "T005"
    name = "correct-with-errors"
    severity = Severity.ERROR
    message = "sentence {sid!r} is marked correct but has {count} error line(s)"
    scope = Scope.TRUTH

    def check(self, document: TruthDocument, ctx: Context) -> Iterator[Diagnostic]:
        errors: dict[str, list[TruthLine]] = {}
        for line in document.lines:
            if not line.correct:
                errors.setdefault(line.sid, []).append(line)
        for line in document.lines:
            others = errors.get(line.sid, [])
            if line.correct and others:
                related = tuple(Related(o.span(), "error line") for o in others)
                yield self.report(line.span(), sid=line.sid, count=len(others), related=related)


class DuplicateTruthLine(Rule):
    """Reports a line that repeats an earlier line.

    ## What it does
    Flags a line with the same id, offsets and type (or `correct`) as an earlier one.

    ## Why is this bad?
    Duplicates are counted twice at the identification and position levels, distorting
    precision and recall.

    ## Example
    ```
    A2-0087, 12, 13, Missing
    A2-0087, 12, 13, Missing
    ```

    ## Use instead
    One line.

    ## Fix safety
    Safe: the repeated line is removed.
    """

    code = "T006"
    name = "duplicate-truth-line"
    severity = Severity.WARNING
    message = "repeats an earlier line for sentence {sid!r}"
    fix_title = "Remove the repeated line"
    scope = Scope.TRUTH

    def check(self, document: TruthDocument, ctx: Context) -> Iterator[Diagnostic]:
        seen: dict[tuple, TruthLine] = {}
        for line in document.lines:
            key = (line.sid, line.correct, line.start, line.end, line.kind or line.type,
                   tuple(a.strip() for a in line.answers))
            first = seen.setdefault(key, line)
            if first is not line:
                fix = Fix(self.fix_title, (TextEdit(Span.whole_lines(line.row), ""),))
                yield self.report(line.span(), fix=fix, sid=line.sid,
                                  related=(Related(first.span(), "first"),))


class UnknownTruthType(Rule):
    """Reports an error type other than R, M, S, W (or their long names).

    ## What it does
    Flags the type field unless it is R, M, S, W, Redundant, Missing, Selection or
    Disorder.

    ## Why is this bad?
    The identification level compares types; an unknown type never matches.

    ## Example
    `A2-0087, 12, 13, Missed`

    ## Use instead
    `A2-0087, 12, 13, Missing`

    ## Fix safety
    No automatic fix.
    """

    code = "T007"
    name = "truth-unknown-type"
    severity = Severity.ERROR
    message = "unknown error type {type!r}"
    scope = Scope.TRUTH

    def check(self, document: TruthDocument, ctx: Context) -> Iterator[Diagnostic]:
        for line in document.lines:
            if not line.correct and line.kind is None:
                yield self.report(line.span(line.type_index), type=line.type)


class TruthStartAfterEnd(Rule):
    """Reports a line whose start offset is after its end offset, or below 1.

    ## What it does
    Flags `sid, start, end, type` with `start > end` or `start < 1` (offsets are 1-based and
    inclusive).

    ## Why is this bad?
    The position level can never match such an error.

    ## Example
    `A2-0087, 13, 12, Missing`

    ## Use instead
    `A2-0087, 12, 13, Missing`

    ## Fix safety
    No automatic fix.
    """

    code = "T008"
    name = "truth-bad-offsets"
    severity = Severity.ERROR
    message = "offsets {start}, {end}: {problem}"
    scope = Scope.TRUTH

    def check(self, document: TruthDocument, ctx: Context) -> Iterator[Diagnostic]:
        for line in document.lines:
            if line.correct or line.start is None or line.end is None:
                continue
            if line.start < 1:
                yield self.report(line.span(1), start=line.start, end=line.end,
                                  problem="offsets start at 1")
            elif line.start > line.end:
                yield self.report(line.span(1), start=line.start, end=line.end,
                                  problem="start is after end")


class TruthCrlfLineEndings(CrlfLineEndings):
    """Reports a truth or result file whose lines end in CRLF (or CR).

    ## What it does
    Flags the first line of a truth or result file that ends in anything but LF.

    ## Why is this bad?
    The official CGED 2018-2021 scorer (`evaluation.pl`) cuts only the LF off each line, so
    a truth answer written without a comma keeps the CR (`影响\\r`) while a result's answers
    are split at whitespace and lose it: no correction ever matches, and the correction
    level (a quarter of the composite score) is 0 even for a perfect system.  The CGED 2018
    test truth is such a file.

    ## Example
    A truth file saved by a Windows editor.

    ## Use instead
    LF line endings (`dos2unix truth.txt`).

    ## Fix safety
    Safe: only line breaks change.
    """

    code = "T009"
    name = "truth-crlf-line-endings"
    severity = Severity.WARNING
    message = "{count} line(s) end in CRLF or CR: the official 2018 scorer then matches no correction"  # noqa: E501
    formats = frozenset({Format.TRUTH})


class LeadingBlanks(Rule):
    """Reports spaces or tabs before a line's sentence id.

    ## What it does
    Flags truth and result lines that start with blanks (the NLP-TEA 2014 toy files do).

    ## Why is this bad?
    The official Java tools trim each line, but `evaluation.pl` (2018-2021) and other
    scripts read the blanks as part of the id, which then matches no sentence.

    ## Example
    `\tB1-0201-1, Missing`

    ## Use instead
    `B1-0201-1, Missing`

    ## Fix safety
    Safe: only the blanks before the id are removed.
    """

    code = "T010"
    name = "truth-leading-blanks"
    severity = Severity.WARNING
    message = "blanks before the sentence id {sid!r}"
    fix_title = "Remove the blanks before the id"
    scope = Scope.TRUTH

    def check(self, document: TruthDocument, ctx: Context) -> Iterator[Diagnostic]:
        for line in document.lines:
            if line.lead:
                where = Span.on_line(line.row, 0, line.lead)
                yield self.report(where, sid=line.sid,
                                  fix=Fix(self.fix_title, (TextEdit(where, ""),)))


_FORMS = {True: "2014 `sid, type`", False: "`sid, start, end, type`"}


class MixedTruthForms(Rule):
    """Reports NLP-TEA 2014 `sid, type` lines in a file of positioned lines, or the reverse.

    ## What it does
    Flags the lines of the less used form when a file mixes `sid, type` (2014: the error
    type of a sentence) with `sid, start, end, type` (2015 on: an error at offsets).

    ## Why is this bad?
    No official tool reads both: the 2014 tool stops on a line without two fields, the
    later ones on a line without four, and m2lsp's scoring would count the two kinds of
    line at different levels.

    ## Example
    ```
    A2-0001, 3, 4, Selection
    A2-0002, Missing
    ```

    ## Use instead
    One form in a file: `A2-0002, 5, 5, Missing` here.

    ## Fix safety
    No automatic fix: the offsets are not known.
    """

    code = "T011"
    name = "mixed-truth-forms"
    severity = Severity.ERROR
    message = "a {form} line in a file of {other} lines: no official tool reads both"
    scope = Scope.TRUTH

    def check(self, document: TruthDocument, ctx: Context) -> Iterator[Diagnostic]:
        errors = [line for line in document.lines if not line.correct]
        level = sum(1 for line in errors if line.sentence_level)
        if not 0 < level < len(errors):
            return
        minority = level <= len(errors) - level  # the sentence-level lines are fewer
        for line in errors:
            if line.sentence_level == minority:
                yield self.report(line.span(), form=_FORMS[minority], other=_FORMS[not minority])
