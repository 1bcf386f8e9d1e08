"""BEA-2019 JSON essays (J0xx): one JSON object a line, character offsets into its text;
what the release's `json_to_m2.py` cannot convert, or converts by dropping edits."""

from __future__ import annotations

from collections.abc import Iterator

from m2lsp.diagnostic import Diagnostic, Related, Severity
from m2lsp.formats.bea_json.model import BeaDocument, CharEdit, Essay
from m2lsp.rules.base import Context, Rule, Scope


class EssayStructure(Rule):
    """Reports a line that is not an essay in BEA-2019 JSON.

    ## What it does
    Flags a line that is not JSON, or not an object with a string `text` and a list
    `edits` of `[annotator, [[start, end, correction], ...]]` (a correction is a string,
    or null for an error detected, not corrected; FCE adds the error type), pointing at
    the value that is wrong; and a blank line.

    ## Why is this bad?
    `json_to_m2.py` reads every line as one essay: it stops at the first line it cannot
    read, and an edit of another shape stops it too or is read as something it is not.

    ## Example
    `{"text": "She go home.", "edits": [[0, [[4, 6, 3]]]]}`

    ## Use instead
    `{"text": "She go home.", "edits": [[0, [[4, 6, "goes"]]]]}`

    ## Fix safety
    No automatic fix.
    """

    code = "J001"
    name = "json-essay-structure"
    severity = Severity.ERROR
    message = "{detail}"
    scope = Scope.BEA_JSON

    def check(self, document: BeaDocument, ctx: Context) -> Iterator[Diagnostic]:
        for problem in document.problems:
            yield self.report(problem.span, detail=problem.message)


class EditOutsideText(Rule):
    """Reports an edit whose offsets are not a span of its essay's text.

    ## What it does
    Flags an edit whose start is negative, whose end is before its start, or whose end
    is past the text's last character (offsets count characters from 0, the end
    exclusive).

    ## Why is this bad?
    The edit corrects text that is not there: `json_to_m2.py` drops it silently or puts
    it on the wrong tokens.

    ## Example
    `{"text": "She go.", "edits": [[0, [[4, 60, "goes"]]]]}`

    ## Use instead
    `{"text": "She go.", "edits": [[0, [[4, 6, "goes"]]]]}`

    ## Fix safety
    No automatic fix.
    """

    code = "J002"
    name = "edit-outside-text"
    severity = Severity.ERROR
    message = "edit {start}-{end} is not a span of the essay's text of {size} characters"
    scope = Scope.BEA_JSON

    def check(self, document: BeaDocument, ctx: Context) -> Iterator[Diagnostic]:
        for essay in document.essays:
            for annotator in essay.annotators:
                for edit in annotator.edits:
                    if not 0 <= edit.start <= edit.end <= len(essay.text):
                        yield self.report(edit.span, start=edit.start, end=edit.end,
                                          size=len(essay.text))


class OverlappingEdits(Rule):
    """Reports two corrections of one annotator that overlap.

    ## What it does
    Flags a correction of an annotator that shares characters with another of the same
    annotator, or is an insertion strictly inside it.  A detection edit (null correction)
    around corrections is FCE's convention, and two insertions at one point are applied in
    turn: neither is flagged.

    ## Why is this bad?
    The two cannot both be applied to the text: `json_to_m2.py` builds the corrected
    sentence by applying them in turn, and the result is neither annotator's intent.

    ## Example
    `[[4, 11, "goes home"], [7, 11, "house"]]`

    ## Use instead
    One edit per span: `[[4, 11, "goes home"]]`.

    ## Fix safety
    No automatic fix.
    """

    code = "J003"
    name = "overlapping-json-edits"
    severity = Severity.WARNING
    message = "edit {start}-{end} overlaps edit {other} of annotator {annotator}"
    scope = Scope.BEA_JSON

    def check(self, document: BeaDocument, ctx: Context) -> Iterator[Diagnostic]:
        for essay in document.essays:
            for annotator in essay.annotators:
                for edit, other in _overlaps([
                        e for e in annotator.edits if e.correction is not None
                        and 0 <= e.start <= e.end <= len(essay.text)]):
                    yield self.report(edit.span, start=edit.start, end=edit.end,
                                      other=f"{other.start}-{other.end}",
                                      annotator=annotator.id,
                                      related=(Related(other.span, "the other edit"),))


def _overlaps(edits: list[CharEdit]) -> Iterator[tuple[CharEdit, CharEdit]]:
    """Each edit that overlaps one before it in order of position, with that one."""
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    reach: CharEdit | None = None  # the edit reaching furthest so far
    previous: CharEdit | None = None
    for edit in ordered:
        if previous is not None and edit.start < edit.end and \
                (edit.start, edit.end) == (previous.start, previous.end):
            yield edit, previous
        elif reach is not None and (edit.start < reach.end and edit.start >= reach.start
                                    and (edit.start > reach.start or edit.end > edit.start)):
            yield edit, reach
        if reach is None or edit.end > reach.end:
            reach = edit
        previous = edit


class EditAcrossParagraphs(Rule):
    """Reports an edit that crosses a line break of its essay, or lies between two.

    ## What it does
    Flags an edit whose span holds a line break (`\\n`), or that stands on a blank line.

    ## Why is this bad?
    `json_to_m2.py` cuts an essay into paragraphs at line breaks and keeps an edit only
    in the paragraph that holds it whole: this edit is dropped from the M2 file, with
    nothing said.

    ## Example
    An edit that joins two paragraphs (`"end.\\nStart"` to `"end. Start"`).

    ## Use instead
    An edit within a paragraph; or one edit in each.

    ## Fix safety
    No automatic fix.
    """

    code = "J004"
    name = "edit-across-paragraphs"
    severity = Severity.WARNING
    message = "edit {start}-{end} is in no paragraph ({why}): json_to_m2.py drops it"
    scope = Scope.BEA_JSON

    def check(self, document: BeaDocument, ctx: Context) -> Iterator[Diagnostic]:
        for essay in document.essays:
            for annotator in essay.annotators:
                for edit in annotator.edits:
                    why = _outside_paragraphs(essay, edit)
                    if why:
                        yield self.report(edit.span, start=edit.start, end=edit.end,
                                          why=why)


def _outside_paragraphs(essay: Essay, edit: CharEdit) -> str | None:
    text = essay.text
    if not 0 <= edit.start <= edit.end <= len(text):
        return None  # J002's
    if "\n" in text[edit.start:edit.end]:
        return "it crosses a line break"
    before = edit.start == 0 or text[edit.start - 1] == "\n"
    after = edit.end == len(text) or text[edit.end] == "\n"
    if edit.start == edit.end and before and after:
        return "it stands on an empty line"
    return None


class EssayAnnotators(Rule):
    """Reports an essay without annotator 0, or with an annotator given twice.

    ## What it does
    Flags an essay whose `edits` list has no entry for annotator 0, or two entries for
    one annotator.

    ## Why is this bad?
    `json_to_m2.py` writes the sentences of annotator 0 and stops where it is missing; an
    annotator given twice has its sentences counted twice, and every later sentence of
    the file is paired with the wrong corrections.

    ## Example
    `"edits": [[1, [[4, 6, "goes"]]]]`

    ## Use instead
    `"edits": [[0, [[4, 6, "goes"]]]]` (annotators numbered from 0, each once).

    ## Fix safety
    No automatic fix.
    """

    code = "J005"
    name = "essay-annotators"
    severity = Severity.ERROR
    message = "{detail}"
    scope = Scope.BEA_JSON

    def check(self, document: BeaDocument, ctx: Context) -> Iterator[Diagnostic]:
        for essay in document.essays:
            seen: dict[int, object] = {}
            for annotator in essay.annotators:
                if annotator.id in seen:
                    yield self.report(annotator.span, detail=f"annotator {annotator.id} is "
                                      "given twice in this essay")
                seen.setdefault(annotator.id, annotator)
            if essay.annotators and 0 not in seen:
                yield self.report(essay.annotators[0].span, detail="the essay has no "
                                  "annotator 0, whose sentences json_to_m2.py writes")
            if not essay.annotators:
                yield self.report(essay.span, detail="the essay has no annotator: give "
                                  '[[0, []]] for one who made no edit')
