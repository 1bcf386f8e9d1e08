"""Diagnostics and spans moved down a file: the fast constructors equal the dataclasses'."""

from __future__ import annotations

import dataclasses

import pytest

from m2lsp.diagnostic import Applicability, Diagnostic, Fix, Related, Severity, TextEdit
from m2lsp.model import Span

SPAN = Span(1, 2, 3, 4)
FIX = Fix("fix it", (TextEdit(Span(1, 2, 1, 5), ""), TextEdit(Span(3, 0, 4, 0), "x")),
          Applicability.UNSAFE)


@pytest.mark.parametrize("diagnostic", [
    Diagnostic("X004", "trailing", SPAN, Severity.WARNING),
    Diagnostic("M402", "repeat", SPAN, Severity.ERROR, FIX, (Related(Span(0, 0, 0, 9), "first"),)),
])
@pytest.mark.parametrize("lines", [0, 7, -1])
def test_shifted_equals_the_dataclass_way(diagnostic: Diagnostic, lines: int) -> None:
    def moved(span: Span) -> Span:
        return Span(span.line + lines, span.col, span.end_line + lines, span.end_col)

    expected = dataclasses.replace(
        diagnostic, span=moved(diagnostic.span),
        fix=None if diagnostic.fix is None else dataclasses.replace(
            diagnostic.fix, edits=tuple(TextEdit(moved(e.span), e.new_text)
                                        for e in diagnostic.fix.edits)),
        related=tuple(Related(moved(r.span), r.message) for r in diagnostic.related))
    shifted = diagnostic.shifted(lines)
    assert shifted == expected and hash(shifted) == hash(expected)
    assert repr(shifted) == repr(expected)
    with pytest.raises(dataclasses.FrozenInstanceError):
        shifted.code = "X"  # type: ignore[misc]
