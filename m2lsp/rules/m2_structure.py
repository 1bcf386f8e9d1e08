"""M2 structure: lines that do not parse, blocks without sentences, separators (M0xx)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from m2lsp.diagnostic import Applicability, Diagnostic, Fix, Severity, TextEdit
from m2lsp.model import Block, LineProblem, M2Document, Span, shortened
from m2lsp.parsing.source import SourceText
from m2lsp.parsing.suspects import Suspect
from m2lsp.rules.base import BlockSet, Context, Format, Found, LineRange, Rule, Scope

_PROBLEM_MESSAGES = {
    "sentence-marker": "an S line starts with `S ` (S and one space) and the tokens",
    "edit-marker": "an A line starts with `A ` (A and one space) and two offsets",
    "target-marker": "a target line starts with a label T<n> or T<n>-A<m> and a space",
    "syntax": "line does not parse",
}


def _problems(view: BlockSet, *kinds: str) -> list[tuple[int, LineProblem]]:
    """(block index, problem) for the line problems of the given kinds."""
    return [(index, problem) for index, problem in view.problems if problem.kind in kinds]


class SyntaxError_(Rule):
    """Reports a line that starts like an M2 line but does not follow the grammar.

    ## What it does
    Flags S, A and T lines whose marker is malformed (`S` with no space, `A` followed by a
    tab, `T0x`), pointing at the column where the grammar (`grammar/m2.lark`) stopped and
    saying what it expected there.  Field counts (M003), offsets (M004) and unknown line
    kinds (M009) have their own rules.

    ## Why is this bad?
    The NUS scorer recognises lines by their first two characters: `S` without a space is
    not a sentence, and the block's edits are then read against the wrong sentence or the
    scorer stops with an assertion error.

    ## Example
    `S\\tThis is a sentence .`

    ## Use instead
    `S This is a sentence .`

    ## Fix safety
    No automatic fix.
    """

    code = "M001"
    name = "syntax-error"
    severity = Severity.ERROR
    message = "{what} ({detail})"
    scope = Scope.M2_BLOCK
    suspect = Suspect.PROBLEMS

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        for index, problem in _problems(view, *_PROBLEM_MESSAGES):
            col = min(problem.column, len(problem.text))
            yield index, self.report(
                Span.on_line(problem.row, col, max(col + 1, len(problem.text))),
                what=_PROBLEM_MESSAGES[problem.kind], detail=problem.detail or "unexpected text")


class EditBeforeSentence(Rule):
    """Reports edit lines that have no S line above them in their block.

    ## What it does
    Flags A or T lines at the start of the file or right after a blank line, where no S
    line says which sentence they annotate.

    ## Why is this bad?
    The edits belong to no sentence.  The NUS scorer stops with an assertion error on such a
    block; other tools attach the edits to the wrong sentence or drop them.

    ## Example
    ```
    S The cat sat .

    A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0
    ```

    ## Use instead
    ```
    S The cat sat .
    A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0
    ```

    ## Fix safety
    No automatic fix: the blank line may be the mistake, or the S line may be missing.
    """

    code = "M002"
    name = "edit-before-sentence"
    severity = Severity.ERROR
    message = "{count} edit line(s) with no S line above them in their block"
    scope = Scope.M2_BLOCK
    suspect = Suspect.SENTENCE

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        for index, block in enumerate(view.blocks):
            if block.sentence is None and block.lines[0][:1] in ("A", "T"):
                yield index, self.report(Span.on_line(0, 0, len(block.lines[0])),
                                         count=len(block.lines))


class FieldCount(Rule):
    """Reports an A line with fewer than six `|||`-separated fields.

    ## What it does
    Counts the fields of an A line: offsets, type, corrections, required flag, comment and
    annotator id.  A line with more than six has its own rule (M012).

    ## Why is this bad?
    The NUS scorer takes the annotator id from the sixth field: with five it stops with an
    IndexError.

    ## Example
    `A 3 4|||Prep|||on|||REQUIRED|||-NONE-`

    ## Use instead
    `A 3 4|||Prep|||on|||REQUIRED|||-NONE-|||0`

    ## Fix safety
    No automatic fix: which field is missing cannot be known.
    """

    code = "M003"
    name = "field-count"
    severity = Severity.ERROR
    message = "A line has {count} fields; expected 6 (offsets|||type|||corrections|||required|||comment|||annotator)"  # noqa: E501
    scope = Scope.M2_BLOCK
    suspect = Suspect.PROBLEMS

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        for index, problem in _problems(view, "field-count"):
            count = len(problem.text[2:].split("|||"))
            if count < 6:
                yield index, self.report(Span.on_line(problem.row, 0, len(problem.text)),
                                         count=count)


class ExtraFields(Rule):
    """Reports an A line with more than six `|||`-separated fields.

    ## What it does
    Flags an A line with a field after the annotator id, or one that ends in `|||`.

    ## Why is this bad?
    The NUS scorer reads the first six fields and never looks at the rest: the line is
    scored, and m2lsp scores it the same way, but whatever the extra fields say (a second
    annotator id, a note) is lost, and tools that take the annotator from the last field
    (ERRANT's `compare_m2`) read another id or stop.

    ## Example
    `A 3 4|||Prep|||on|||REQUIRED|||-NONE-|||0|||`

    ## Use instead
    `A 3 4|||Prep|||on|||REQUIRED|||-NONE-|||0`

    ## Fix safety
    No automatic fix: an extra field may be the annotator id that was meant.
    """

    code = "M012"
    name = "extra-fields"
    severity = Severity.WARNING
    message = "A line has {count} fields; the NUS scorer reads the first 6 and ignores {after!r}"
    scope = Scope.M2_BLOCK
    suspect = Suspect.PROBLEMS

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        for index, problem in _problems(view, "field-count"):
            fields = problem.text[2:].split("|||")
            if len(fields) > 6:
                start = len("|||".join(problem.text.split("|||")[:6]))
                yield index, self.report(
                    Span.on_line(problem.row, start, len(problem.text)),
                    count=len(fields), after=shortened("|||" + "|||".join(fields[6:])))


class NonIntegerOffset(Rule):
    """Reports A-line offsets that are not two integers.

    ## What it does
    Flags the span field of an A line (before the first `|||`) unless it is two integers
    separated by whitespace, each of at most 100 digits (no sentence has more tokens, and
    longer numbers cost quadratic time to read).

    ## Why is this bad?
    Offsets are token indices; the NUS scorer converts them with `int()` and stops on
    anything else.

    ## Example
    `A 3.0 4|||Prep|||on|||REQUIRED|||-NONE-|||0`

    ## Use instead
    `A 3 4|||Prep|||on|||REQUIRED|||-NONE-|||0`

    ## Fix safety
    No automatic fix.
    """

    code = "M004"
    name = "non-integer-offset"
    severity = Severity.ERROR
    message = "offsets must be two integers of at most 100 digits, found {found!r}"
    scope = Scope.M2_BLOCK
    suspect = Suspect.PROBLEMS

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        for index, problem in _problems(view, "offset"):
            end = problem.text.find("|||")
            end = len(problem.text) if end < 0 else end
            yield index, self.report(Span.on_line(problem.row, 2, max(end, 2)),
                                     found=shortened(problem.text[2:end].strip()))


class MissingBlankLine(Rule):
    """Reports an S line that follows the previous block without a blank line.

    ## What it does
    Flags an S line directly below an A, T or S line.

    ## Why is this bad?
    The NUS scorer splits blocks at blank lines only.  Without one, two sentences share a
    block: every edit of either is checked against both, with offsets counted across the
    two sentences, and the scores are wrong without any warning.

    ## Example
    ```
    S The cat sat .
    A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0
    S It was happy .
    ```

    ## Use instead
    ```
    S The cat sat .
    A 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0

    S It was happy .
    ```

    ## Fix safety
    Safe: a blank line is inserted and nothing else changes.
    """

    code = "M005"
    name = "missing-blank-line"
    severity = Severity.ERROR
    message = "no blank line before this S line: the NUS scorer merges it with the block above"
    fix_title = "Insert a blank line"
    scope = Scope.M2_DOCUMENT

    def check(self, doc: M2Document, ctx: Context) -> Iterator[Diagnostic]:
        for index in sorted(doc.unseparated):
            row = doc.starts[index]
            fix = Fix(self.fix_title, (TextEdit(Span.on_line(row, 0, 0), "\n"),))
            yield self.report(Span.on_line(row, 0, 1), fix=fix)


class EmptySentence(Rule):
    """Reports an S line with no tokens.

    ## What it does
    Flags `S ` followed by nothing (or only whitespace).

    ## Why is this bad?
    Every offset of the block is then out of range; usually a sentence was lost while
    converting.  (An empty source sentence is legal for the NUS scorer, which is why this is
    a warning.)

    ## Example
    `S `

    ## Use instead
    `S This is a sentence .`

    ## Fix safety
    No automatic fix.
    """

    code = "M006"
    name = "empty-sentence"
    severity = Severity.WARNING
    message = "S line has no tokens"
    scope = Scope.M2_BLOCK
    suspect = Suspect.SENTENCE

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        for index, block in enumerate(view.blocks):
            sentence = block.sentence
            if sentence is not None and not sentence.tokens:
                yield index, self.report(Span.on_line(0, 0, len(block.lines[0])))


_IRREGULAR = re.compile(r"^\s|\s(?=\s)|[^\S ]", re.UNICODE)


class IrregularTokenSeparator(Rule):
    """Reports tokens of an S line not separated by exactly one ASCII space.

    ## What it does
    Flags a leading space, two or more spaces in a row, tabs, and other Unicode whitespace
    (U+3000 IDEOGRAPHIC SPACE, U+00A0 NO-BREAK SPACE ...) inside an S line.

    ## Why is this bad?
    Token offsets depend on how the line is split.  The NUS scorer and ERRANT split on any
    run of whitespace, but tools that split on single spaces count an empty token at every
    double space, and Python 2 and 3 disagree on some Unicode spaces (U+180E): the same
    offsets then point at different tokens.

    ## Example
    `S This  is a sentence .`

    ## Use instead
    `S This is a sentence .`

    ## Fix safety
    Unsafe: if the offsets of the block were computed by a tool that counts empty tokens,
    collapsing the spaces moves them.
    """

    code = "M007"
    name = "irregular-token-separator"
    severity = Severity.WARNING
    message = "{what} in the sentence: tokens should be separated by single spaces"
    fix_title = "Separate tokens by single spaces"
    scope = Scope.M2_BLOCK
    suspect = Suspect.SENTENCE

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        for index, block in enumerate(view.blocks):
            sentence = block.sentence
            if sentence is None:
                continue
            text = sentence.text.rstrip(" \t")  # trailing whitespace is X004's
            if _regular(text):
                continue
            match = _IRREGULAR.search(text)
            if match is not None:
                yield index, self._report(block, text, match)

    def _report(self, block: Block, text: str, match: re.Match[str]) -> Diagnostic:
        col = 2 + match.start()
        fixed = "S " + " ".join(text.split())
        end_col = len(block.lines[0].rstrip(" \t"))
        fix = Fix(self.fix_title, (TextEdit(Span.on_line(0, 0, end_col), fixed),),
                  Applicability.UNSAFE)
        return self.report(Span.on_line(0, col, col + max(len(match.group()), 1)), fix=fix,
                           what=_describe_space(text, match.start()))


def _regular(text: str) -> bool:
    """Cheap test that `text` has only single ASCII spaces between tokens."""
    return (text.isascii() and "  " not in text and "\t" not in text
            and text[:1] != " " and text.isprintable())


def _describe_space(text: str, index: int) -> str:
    char = text[index]
    if index == 0:
        return "leading whitespace"
    if char == " ":
        return "several spaces in a row"
    if char == "\t":
        return "a tab"
    name = unicodedata.name(char, f"U+{ord(char):04X}")
    return f"U+{ord(char):04X} {name}"


class WhitespaceOnlyLine(Rule):
    """Reports a line that holds only whitespace.

    ## What it does
    Flags lines made of spaces or tabs only.

    ## Why is this bad?
    It looks like a blank line, but the NUS scorer separates blocks only at truly empty
    lines: a line with a space is read as part of the block, is neither an S nor an A line,
    and stops the scorer with an assertion error.

    ## Example
    A block separator that is `"  "` instead of `""`.

    ## Use instead
    An empty line.

    ## Fix safety
    Safe: the whitespace is removed and the line kept.
    """

    code = "M008"
    name = "whitespace-only-line"
    severity = Severity.ERROR
    message = "line holds only whitespace; the NUS scorer does not read it as a blank line"
    fix_title = "Empty the line"
    scope = Scope.LINE
    formats = frozenset({Format.M2})

    def check(self, lines: LineRange, ctx: Context) -> Iterator[Diagnostic]:
        first, text = lines.first, lines.lines
        for k in [k for k, line in enumerate(text) if line.isspace()]:
            span = Span.on_line(first + k, 0, len(text[k]))
            yield self.report(span, fix=Fix(self.fix_title, (TextEdit(span, ""),)))


class UnknownLineKind(Rule):
    """Reports a line that is none of S, A, T or blank.

    ## What it does
    Flags lines whose first character is not `S`, `A` or `T` (ChERRANT target lines), such
    as comments, stray text, or lines with leading spaces.

    ## Why is this bad?
    M2 has no comment syntax.  The NUS scorer asserts that every line of a block after the S
    line starts with `A `, and stops on anything else.

    ## Example
    `# annotated by Kim`

    ## Use instead
    Keep notes outside the M2 file, or in the comment field of an A line.

    ## Fix safety
    No automatic fix.
    """

    code = "M009"
    name = "unknown-line-kind"
    severity = Severity.ERROR
    message = "not an M2 line: lines start with `S `, `A ` or a target label `T<n>`"
    scope = Scope.M2_BLOCK
    suspect = Suspect.PROBLEMS

    def check(self, view: BlockSet, ctx: Context) -> Iterator[Found]:
        for index, problem in _problems(view, "unknown-line"):
            yield index, self.report(Span.on_line(problem.row, 0, len(problem.text)))


class CrlfLineEndings(Rule):
    """Reports an M2 file whose lines end in CRLF (or CR).

    ## What it does
    Flags the first line of an M2 file that ends in anything but LF.

    ## Why is this bad?
    The NUS M2 scorer 3.2 separates blocks at lines equal to `"\\n"`.  In a CRLF file a
    blank line is `"\\r\\n"`, so the whole file becomes one block: every edit is checked
    against every sentence and the score is meaningless, without any warning.

    ## Example
    A gold file saved by a Windows editor.

    ## Use instead
    LF line endings (`dos2unix gold.m2`).

    ## Fix safety
    Safe: only line breaks change.
    """

    code = "M010"
    name = "crlf-line-endings"
    severity = Severity.ERROR
    message = "{count} line(s) end in CRLF or CR: the NUS M2 scorer then reads the whole file as one block"  # noqa: E501
    fix_title = "Use LF line endings"
    scope = Scope.TEXT
    formats = frozenset({Format.M2})

    def check(self, source: SourceText, ctx: Context) -> Iterator[Diagnostic]:
        breaks = source.line_breaks
        count = breaks["\r\n"] + breaks["\r"]
        if not count:
            return
        edits = []
        for row in range(len(source.lines) - 1):
            if source.line_break(row) != "\n":
                col = len(source.lines[row])
                edits.append(TextEdit(Span(row, col, row + 1, 0), "\n"))
        first = edits[0].span
        yield self.report(Span.on_line(first.line, first.col, first.col), count=count,
                          fix=Fix(self.fix_title, tuple(edits)))


_LINE_BREAK_CHARS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


class UnicodeLineBreak(Rule):
    """Reports characters inside a line that Python's `splitlines()` treats as line breaks.

    ## What it does
    Flags U+000B, U+000C, U+001C-U+001E, U+0085, U+2028 and U+2029 inside a line.

    ## Why is this bad?
    Editors, LSP and m2lsp end lines only at LF, CR or CRLF, but the NUS scorer reads the
    gold file with `splitlines()`, which also breaks at these characters: it sees a
    different line (often a broken A line) than the one you see.

    ## Example
    `S The cat\\u2028sat .`

    ## Use instead
    `S The cat sat .`

    ## Fix safety
    Unsafe: the character is replaced by a space, which may split a token.
    """

    code = "M011"
    name = "unicode-line-break"
    severity = Severity.ERROR
    message = "U+{codepoint:04X} inside a line: the NUS scorer breaks the line here"
    fix_title = "Replace it with a space"
    scope = Scope.LINE
    formats = frozenset({Format.M2})

    def check(self, lines: LineRange, ctx: Context) -> Iterator[Diagnostic]:
        # no `isascii()` shortcut: U+000B, U+000C and U+001C-U+001E are ASCII
        if _LINE_BREAK_CHARS.search("\n".join(lines.lines)) is None:
            return
        for row, line in enumerate(lines.lines, lines.first):
            for match in _LINE_BREAK_CHARS.finditer(line):
                span = Span.on_line(row, match.start(), match.end())
                fix = Fix(self.fix_title, (TextEdit(span, " "),), Applicability.UNSAFE)
                yield self.report(span, fix=fix, codepoint=ord(match.group()))
