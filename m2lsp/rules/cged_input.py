"""CGED test input files (I0xx): the sentences systems are run on, `ID<TAB>sentence`."""

from __future__ import annotations

from collections.abc import Iterator

from m2lsp.diagnostic import Diagnostic, Related, Severity
from m2lsp.formats.cged.model import InputDocument
from m2lsp.model import Span
from m2lsp.rules.base import Context, Rule, Scope


class InputSyntaxError(Rule):
    """Reports an input line that is not `ID<TAB>sentence` or `(sid=ID)<TAB>sentence`.

    ## What it does
    Flags lines of a CGED test input file without a sentence id and a tab before the
    sentence (`grammar/cged_input.lark`), saying where and what was expected.

    ## Why is this bad?
    Systems and scorers read the id up to the tab: such a line is skipped, or its sentence
    is taken for an id, and every truth line about it goes unmatched.

    ## Example
    `A2-0003-1 我先恭喜妳` (a space, not a tab, after the id)

    ## Use instead
    `A2-0003-1<TAB>我先恭喜妳`

    ## Fix safety
    No automatic fix.
    """

    code = "I001"
    name = "input-syntax-error"
    severity = Severity.ERROR
    message = "{detail}"
    scope = Scope.INPUT

    def check(self, document: InputDocument, ctx: Context) -> Iterator[Diagnostic]:
        for problem in document.problems:
            yield self.report(Span.on_line(problem.row, 0, len(problem.text)),
                              detail=problem.message)


class DuplicateInputId(Rule):
    """Reports a sentence id that an earlier line of the input already used.

    ## What it does
    Flags the second and later lines with the same id.

    ## Why is this bad?
    Truth and result lines name sentences by id: two sentences with one id cannot both be
    scored, and the official tools count the id once.

    ## Example
    ```
    12345<TAB>在不正常的家庭
    12345<TAB>孩子的心理上
    ```

    ## Use instead
    A distinct id for each sentence.

    ## Fix safety
    No automatic fix.
    """

    code = "I002"
    name = "duplicate-input-id"
    severity = Severity.ERROR
    message = "sentence id {sid!r} is used again (first on line {first})"
    scope = Scope.INPUT

    def check(self, document: InputDocument, ctx: Context) -> Iterator[Diagnostic]:
        seen: dict[str, int] = {}
        for line in document.lines:
            first = seen.setdefault(line.sid, line.row)
            if first != line.row:
                yield self.report(line.span("id"), sid=line.sid, first=first + 1,
                                  related=(Related(Span.on_line(first, 0, 0), "first"),))


class EmptyInputSentence(Rule):
    """Reports an input line whose sentence is empty.

    ## What it does
    Flags `ID<TAB>` with nothing (or only blanks) after the tab.

    ## Why is this bad?
    A system has nothing to diagnose, and any truth line with offsets for it points outside
    the sentence.

    ## Example
    `12345<TAB>`

    ## Use instead
    The sentence after the tab, or no line for the id.

    ## Fix safety
    No automatic fix.
    """

    code = "I003"
    name = "empty-input-sentence"
    severity = Severity.WARNING
    message = "sentence {sid!r} is empty"
    scope = Scope.INPUT

    def check(self, document: InputDocument, ctx: Context) -> Iterator[Diagnostic]:
        for line in document.lines:
            if not line.sentence.strip():
                yield self.report(line.span(), sid=line.sid)


class TabInSentence(Rule):
    """Reports a tab inside an input sentence.

    ## What it does
    Flags sentences that hold a tab after the one that ends the id (the first line of the
    NLP-TEA 2014 inputs repeats its id so: `(sid=C1-1711-1)<TAB>(sid=C1-1711-1)<TAB>...`).

    ## Why is this bad?
    Systems count offsets in characters of the sentence: whatever comes before the second
    tab shifts every offset, or is read as part of the sentence by one tool and not by
    another.

    ## Example
    `(sid=C1-1711-1)<TAB>(sid=C1-1711-1)<TAB>全球產齡婦女`

    ## Use instead
    `(sid=C1-1711-1)<TAB>全球產齡婦女`

    ## Fix safety
    No automatic fix: which part is the sentence is a judgement.
    """

    code = "I004"
    name = "tab-in-sentence"
    severity = Severity.WARNING
    message = "the sentence of {sid!r} holds a tab: offsets counted in it are ambiguous"
    scope = Scope.INPUT

    def check(self, document: InputDocument, ctx: Context) -> Iterator[Diagnostic]:
        for line in document.lines:
            if "\t" in line.sentence:
                tab = line.text.index("\t", line.sentence_column)
                yield self.report(Span.on_line(line.row, tab, tab + 1), sid=line.sid)


class MixedIdStyles(Rule):
    """Reports `(sid=ID)` and bare `ID` lines in one input file.

    ## What it does
    Flags the lines of the less used style when a file mixes the 2014-2016 style
    (`(sid=ID)<TAB>...`) with the later one (`ID<TAB>...`).

    ## Why is this bad?
    A tool reads one style: the other's ids come out as `(sid=ID)` or are not found, and
    their sentences are scored as missing.

    ## Example
    ```
    (sid=A2-0003-1)<TAB>我先恭喜妳
    A2-0008-1<TAB>我們家
    ```

    ## Use instead
    One style in a file.

    ## Fix safety
    No automatic fix.
    """

    code = "I005"
    name = "mixed-id-styles"
    severity = Severity.WARNING
    message = "a {style} id in a file of {other_style} ids"
    scope = Scope.INPUT

    def check(self, document: InputDocument, ctx: Context) -> Iterator[Diagnostic]:
        wrapped = sum(1 for line in document.lines if line.wrapped)
        if not 0 < wrapped < len(document.lines):
            return
        minority = wrapped <= len(document.lines) - wrapped
        for line in document.lines:
            if line.wrapped == minority:
                yield self.report(line.span("id"), style=_STYLES[minority],
                                  other_style=_STYLES[not minority])


_STYLES = {True: "`(sid=ID)`", False: "bare"}
