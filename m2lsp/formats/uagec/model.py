"""UA-GEC's annotated texts as data: the source text, its annotations at character
offsets, and what could not be read."""

from __future__ import annotations

from dataclasses import dataclass, field

from m2lsp.model import Span


@dataclass(frozen=True)
class Annotation:
    """One correction: where it stands in the file (`span`), the source text it replaces
    (at `start`..`end` of the source text), its alternatives and its fields."""

    span: Span
    start: int  # in the source text (annotations read as their source)
    end: int
    source: str
    suggestions: tuple[str, ...]  # empty: NO_SUGGESTIONS
    meta: tuple[tuple[str, str], ...] = ()

    @property
    def error_type(self) -> str | None:
        return dict(self.meta).get("error_type")

    @property
    def target(self) -> str:
        """The first alternative (the one the target text has), or the source."""
        return self.suggestions[0] if self.suggestions else self.source


@dataclass(frozen=True)
class AnnProblem:
    """What cannot be read: an unbalanced brace, a malformed annotation."""

    span: Span
    message: str


@dataclass(frozen=True)
class AnnotatedText:
    source: str  # the text with each annotation read as its source
    annotations: tuple[Annotation, ...]
    problems: tuple[AnnProblem, ...] = field(default=())

    @property
    def target(self) -> str:
        """The text with each annotation read as its first alternative."""
        out, at = [], 0
        for a in self.annotations:
            out.append(self.source[at:a.start])
            out.append(a.target)
            at = a.end
        out.append(self.source[at:])
        return "".join(out)
