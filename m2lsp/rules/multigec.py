"""MultiGEC-2025 essay files (G0xx): `### essay_id = N` headers, each essay's text after its
header; original (`-orig-`), reference (`-refN-`) and hypothesis files of one corpus are
aligned by essay id."""

from __future__ import annotations

from collections.abc import Iterator

from m2lsp.diagnostic import Diagnostic, Related, Severity
from m2lsp.formats.multigec.model import EssayDocument
from m2lsp.model import Span
from m2lsp.rules.base import Context, Rule, Scope, listed


class EssayHeaderSyntax(Rule):
    """Reports a line that starts with `###` but is not an essay header.

    ## What it does
    Flags a line beginning with `###` that is not `### essay_id = ID`
    (`grammar/multigec.lark`), saying where and what was expected.

    ## Why is this bad?
    The shared task's scripts cut a file at each `### essay_id = `: a header spelled
    otherwise does not start an essay, and its essay's text is read as the end of the
    essay before it.

    ## Example
    `### essay_id=2`

    ## Use instead
    `### essay_id = 2`

    ## Fix safety
    No automatic fix.
    """

    code = "G001"
    name = "essay-header-syntax"
    severity = Severity.ERROR
    message = "{detail}"
    scope = Scope.ESSAYS

    def check(self, document: EssayDocument, ctx: Context) -> Iterator[Diagnostic]:
        for problem in document.problems:
            yield self.report(Span.on_line(problem.row, 0, len(problem.text)),
                              detail=problem.message)


class TextBeforeFirstEssay(Rule):
    """Reports text before the first essay header.

    ## What it does
    Flags the lines of text that come before the file's first `### essay_id = ` line.

    ## Why is this bad?
    They belong to no essay: the shared task's scripts drop them, so a correction or an
    essay written there is never scored.

    ## Example
    ```
    My first essay.
    ### essay_id = 1
    ...
    ```

    ## Use instead
    ```
    ### essay_id = 1
    My first essay.
    ```

    ## Fix safety
    No automatic fix.
    """

    code = "G002"
    name = "text-before-first-essay"
    severity = Severity.WARNING
    message = "text before the first essay header belongs to no essay"
    scope = Scope.ESSAYS

    def check(self, document: EssayDocument, ctx: Context) -> Iterator[Diagnostic]:
        if document.preamble is not None:
            first, end = document.preamble
            last = ctx.source.lines[end - 1]
            yield self.report(Span(first, 0, end - 1, len(last)))


class DuplicateEssayId(Rule):
    """Reports an essay id that an earlier header already used.

    ## What it does
    Flags the second and later headers with the same `essay_id`.

    ## Why is this bad?
    Files are aligned by id: the shared task's scripts keep one essay per id, so the other
    is never scored, and a hypothesis or reference cannot say which one it corrects.

    ## Example
    ```
    ### essay_id = 7
    ...
    ### essay_id = 7
    ```

    ## Use instead
    A distinct id for each essay.

    ## Fix safety
    No automatic fix.
    """

    code = "G003"
    name = "duplicate-essay-id"
    severity = Severity.ERROR
    message = "essay id {essay_id!r} is used again (first on line {first})"
    scope = Scope.ESSAYS

    def check(self, document: EssayDocument, ctx: Context) -> Iterator[Diagnostic]:
        seen: dict[str, int] = {}
        for essay in document.essays:
            first = seen.setdefault(essay.id, essay.header)
            if first != essay.header:
                yield self.report(essay.id_span, essay_id=essay.id, first=first + 1,
                                  related=(Related(Span.on_line(first, 0, 0),
                                                   "the first essay with this id"),))


class EssayIdsNotIncreasing(Rule):
    """Reports an essay whose numeric id is not above the id before it.

    ## What it does
    In a file whose ids are numbers, flags an id lower than (or equal to) the previous
    essay's.

    ## Why is this bad?
    MultiGEC's files list essays by increasing id, and tools that pair files by position
    rather than by id (one essay a line, as the shared task's evaluation wrote them) pair
    the wrong essays when one file's order differs.

    ## Example
    ```
    ### essay_id = 3
    ...
    ### essay_id = 2
    ```

    ## Use instead
    The essays in increasing order of id.

    ## Fix safety
    No automatic fix.
    """

    code = "G004"
    name = "essay-ids-not-increasing"
    severity = Severity.WARNING
    message = "essay id {essay_id} comes after essay id {before}: ids should increase"
    scope = Scope.ESSAYS

    def check(self, document: EssayDocument, ctx: Context) -> Iterator[Diagnostic]:
        numbers = [e.numeric for e in document.essays]
        if any(n is None for n in numbers):
            return
        for previous, essay in zip(document.essays, document.essays[1:], strict=False):
            if essay.numeric is not None and previous.numeric is not None and \
                    essay.numeric <= previous.numeric and essay.id != previous.id:
                yield self.report(essay.id_span, essay_id=essay.id, before=previous.id)


class EmptyEssay(Rule):
    """Reports an essay with no text.

    ## What it does
    Flags a header followed by nothing but blank lines before the next header (or the end
    of the file).

    ## Why is this bad?
    An empty original has nothing to correct, and an empty reference or hypothesis deletes
    the whole essay: GLEU and ERRANT then score a sentence of no words.

    ## Example
    ```
    ### essay_id = 4

    ### essay_id = 5
    ```

    ## Use instead
    The essay's text under its header, or no header.

    ## Fix safety
    No automatic fix.
    """

    code = "G005"
    name = "empty-essay"
    severity = Severity.ERROR
    message = "essay {essay_id} has no text"
    scope = Scope.ESSAYS

    def check(self, document: EssayDocument, ctx: Context) -> Iterator[Diagnostic]:
        for essay in document.essays:
            if not essay.text.strip():
                yield self.report(essay.id_span, essay_id=essay.id)


class EssayNotInOriginal(Rule):
    """Reports an essay of a reference file whose id is not in the original file.

    ## What it does
    In a `-refN-` file, flags an essay id that the corpus's `-orig-` file (beside it, same
    language, corpus and split) does not have.

    ## Why is this bad?
    A reference corrects the original essay of the same id: one without an original is
    never used, and it usually means a wrong id.

    ## Example
    `cs-natform-orig-dev.md` has essays 1 to 20; `cs-natform-ref2-dev.md` has
    `### essay_id = 21`.

    ## Use instead
    The id of the original essay it corrects (a reference file may leave essays out).

    ## Fix safety
    No automatic fix.
    """

    code = "G006"
    name = "essay-not-in-original"
    severity = Severity.ERROR
    message = "essay {essay_id} is not in the original file {orig}"
    scope = Scope.ESSAYS

    def check(self, document: EssayDocument, ctx: Context) -> Iterator[Diagnostic]:
        if ctx.essay_role != "ref" or ctx.known_ids is None:
            return
        for essay in document.essays:
            if essay.id not in ctx.known_ids:
                yield self.report(essay.id_span, essay_id=essay.id, orig=ctx.essay_original)


class HypothesisEssaysDiffer(Rule):
    """Reports a hypothesis file whose essays are not the original file's.

    ## What it does
    In a hypothesis file (neither `-orig-` nor `-refN-`), flags the first header when
    essays of the original are missing, and each essay whose id the original does not
    have.

    ## Why is this bad?
    The shared task scored a missing essay as the one-character text "!" (and only
    warned): the scores are then lower than the system's output deserves.

    ## Example
    The original has essays 1 to 20, the hypothesis 1 to 19.

    ## Use instead
    A corrected essay for every original essay, with its id.

    ## Fix safety
    No automatic fix.
    """

    code = "G007"
    name = "hypothesis-essays-differ"
    severity = Severity.WARNING
    message = "{detail}"
    scope = Scope.ESSAYS

    def check(self, document: EssayDocument, ctx: Context) -> Iterator[Diagnostic]:
        if ctx.essay_role != "hyp" or ctx.known_ids is None:
            return
        ids = {e.id for e in document.essays}
        missing = sorted(ctx.known_ids - ids, key=_order)
        if missing and document.essays:
            yield self.report(document.essays[0].id_span,
                              detail=f"essays of the original {ctx.essay_original} are "
                                     f"missing: {listed(missing)} (the shared task scored "
                                     f"each as '!')")
        for essay in document.essays:
            if essay.id not in ctx.known_ids:
                yield self.report(essay.id_span,
                                  detail=f"essay {essay.id} is not in the original "
                                         f"{ctx.essay_original}")


def _order(essay_id: str) -> tuple[int, int | str]:
    return (0, int(essay_id)) if essay_id.isdigit() else (1, essay_id)
