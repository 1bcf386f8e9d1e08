"""UA-GEC's annotated texts (U0xx): `{SOURCE=>TARGET:::error_type=TYPE}` where a correction
applies, in the text it corrects."""

from __future__ import annotations

from collections.abc import Iterator

from m2lsp.diagnostic import Diagnostic, Severity
from m2lsp.formats.uagec.model import AnnotatedText
from m2lsp.rules.base import Context, Rule, Scope, listed
from m2lsp.spelling import closest

# UA-GEC's error types (its guidelines; the gec-only layer has the G/ and the first two,
# the gec-fluency layer adds the F/ ones)
TYPES = ("Spelling", "Punctuation", "G/Case", "G/Gender", "G/Number", "G/Aspect", "G/Tense",
         "G/VerbVoice", "G/PartVoice", "G/VerbAForm", "G/Prep", "G/Participle",
         "G/UngrammaticalStructure", "G/Comparison", "G/Conjunction", "G/Particle",
         "G/Other", "F/Style", "F/Calque", "F/Collocation", "F/PoorFlow", "F/Repetition",
         "F/Other")


class AnnotationSyntax(Rule):
    """Reports a brace that opens or closes no annotation, or a malformed annotation.

    ## What it does
    Flags a `{` that no `}` closes on its line, a `}` that closes nothing, and an
    annotation that is not `{SOURCE=>TARGET:::key=value}` (`grammar/uagec.lark`).

    ## Why is this bad?
    UA-GEC's reader takes every `{...=>...}` for a correction: an unbalanced brace makes
    the text around it part of the next annotation, or leaves braces in the text.

    ## Example
    `Я {пишу=>пишу листа:::error_type=G/Other листа`

    ## Use instead
    `Я {пишу=>пишу листа:::error_type=G/Other} листа`

    ## Fix safety
    No automatic fix.
    """

    code = "U001"
    name = "annotation-syntax"
    severity = Severity.ERROR
    message = "{detail}"
    scope = Scope.ANNOTATED

    def check(self, document: AnnotatedText, ctx: Context) -> Iterator[Diagnostic]:
        for problem in document.problems:
            yield self.report(problem.span, detail=problem.message)


class EmptyEdit(Rule):
    """Reports an annotation that changes nothing.

    ## What it does
    Flags an annotation whose correction is its source text (`{у=>у}`), or whose source
    and correction are both empty (`{=>}`).

    ## Why is this bad?
    It is an edit of nothing: an M2 file made from it gets an edit that every scorer
    counts, and no system can be right or wrong about it.

    ## Example
    `ранку {рівно=>рівно:::error_type=Spelling} о`

    ## Use instead
    `ранку рівно о` (no annotation), or the correction meant.

    ## Fix safety
    No automatic fix.
    """

    code = "U002"
    name = "edit-changes-nothing"
    severity = Severity.WARNING
    message = "the annotation changes nothing ({source!r} => {target!r})"
    scope = Scope.ANNOTATED

    def check(self, document: AnnotatedText, ctx: Context) -> Iterator[Diagnostic]:
        for annotation in document.annotations:
            if annotation.suggestions and annotation.target == annotation.source:
                yield self.report(annotation.span, source=annotation.source,
                                  target=annotation.target)


class UnknownErrorType(Rule):
    """Reports an error type that is not one of UA-GEC's.

    ## What it does
    Flags an annotation whose `error_type` is missing or is not among UA-GEC's types
    (Spelling, Punctuation, G/Case, ..., F/Style, ...).

    ## Why is this bad?
    Scores per error type and the corpus's statistics count by type: a misspelled type is
    a type of its own, and a missing one is counted nowhere.

    ## Example
    `{пишу=>пишу:::error_type=G/Tens}`

    ## Use instead
    `{пишу=>писав:::error_type=G/Tense}`

    ## Fix safety
    No automatic fix.
    """

    code = "U003"
    name = "unknown-ua-gec-type"
    severity = Severity.WARNING
    message = "{detail}"
    scope = Scope.ANNOTATED

    def check(self, document: AnnotatedText, ctx: Context) -> Iterator[Diagnostic]:
        for annotation in document.annotations:
            found = annotation.error_type
            if found is None:
                yield self.report(annotation.span, detail="the annotation has no "
                                  "error_type (UA-GEC's types: " + listed(TYPES, 5) + ")")
            elif found not in TYPES:
                close = closest(found, TYPES)
                hint = f" (did you mean {close!r}?)" if close else ""
                yield self.report(annotation.span, detail=f"{found!r} is not an error type "
                                  f"of UA-GEC{hint}")
