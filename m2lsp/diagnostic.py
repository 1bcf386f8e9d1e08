"""The one diagnostic type every rule produces and every renderer and the server consume."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from operator import attrgetter

from m2lsp.model import Span
from m2lsp.severity import Severity

_setattr = object.__setattr__


class Applicability(StrEnum):
    """How sure a fix is (ruff's terms): `--fix` applies only safe fixes."""

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


# The hot classes set their fields in one assignment, not through a setattr per field as a
# frozen dataclass's __init__ does: a file can have a hundred thousand findings.

@dataclass(frozen=True, init=False)
class TextEdit:
    """Replace the text in `span` with `new_text`."""

    span: Span
    new_text: str

    def __init__(self, span: Span, new_text: str) -> None:
        _setattr(self, "__dict__", {"span": span, "new_text": new_text})

    def shifted(self, lines: int) -> TextEdit:
        return TextEdit(self.span.shifted(lines), self.new_text)


@dataclass(frozen=True, init=False)
class Fix:
    """A change that resolves a diagnostic; its edits never overlap."""

    title: str
    edits: tuple[TextEdit, ...]
    applicability: Applicability = Applicability.SAFE
    removes_bom: bool = False  # the one change that is not a text edit (X002)

    def __init__(self, title: str, edits: tuple[TextEdit, ...],
                 applicability: Applicability = Applicability.SAFE,
                 removes_bom: bool = False) -> None:
        _setattr(self, "__dict__", {"title": title, "edits": edits,
                                    "applicability": applicability,
                                    "removes_bom": removes_bom})

    def shifted(self, lines: int) -> Fix:
        return Fix(self.title, tuple([e.shifted(lines) for e in self.edits]),
                   self.applicability, self.removes_bom)


@dataclass(frozen=True, init=False)
class Related:
    """Another place that explains a diagnostic (e.g. the other edit of an overlapping pair)."""

    span: Span
    message: str

    def __init__(self, span: Span, message: str) -> None:
        _setattr(self, "__dict__", {"span": span, "message": message})

    def shifted(self, lines: int) -> Related:
        return Related(self.span.shifted(lines), self.message)




@dataclass(frozen=True, init=False)
class Diagnostic:
    """A finding: which rule, what, where, how bad, and how to fix it if a fix is known."""

    code: str
    message: str
    span: Span
    severity: Severity
    fix: Fix | None = None
    related: tuple[Related, ...] = ()

    def __init__(self, code: str, message: str, span: Span, severity: Severity,
                 fix: Fix | None = None, related: tuple[Related, ...] = ()) -> None:
        _setattr(self, "__dict__", {"code": code, "message": message, "span": span,
                                    "severity": severity, "fix": fix, "related": related})

    def shifted(self, lines: int) -> Diagnostic:
        """The same diagnostic `lines` lines further down (block-relative to absolute)."""
        if not lines:
            return self
        fix, related = self.fix, self.related
        return Diagnostic(self.code, self.message, self.span.shifted(lines), self.severity,
                          None if fix is None else fix.shifted(lines),
                          tuple([r.shifted(lines) for r in related]) if related else related)

    @property
    def sort_key(self) -> tuple[int, int, str]:
        return (self.span.line, self.span.col, self.code)


position_order = attrgetter("span.line", "span.col", "code")
"""A sort key putting diagnostics in position order (Diagnostic.sort_key, read in C)."""


MESSAGE_CHARS = 1000  # a message's length at most (an editor shows it in a tooltip)


def capped(message: str, most: int = MESSAGE_CHARS) -> str:
    """The message, or its first `most` characters and how many more there were."""
    if len(message) <= most:
        return message
    return f"{message[:most]}… ({len(message) - most:,} more characters)"
