"""Core results to LSP types, and LSP positions to code-point columns.

Core columns count code points; LSP columns count UTF-16 code units unless the client and
server agreed on UTF-8 or UTF-32.  Lines that are ASCII, or BMP-only under UTF-16, need no
conversion (the common case, checked first).
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

from lsprotocol import types

from m2lsp.diagnostic import Diagnostic, Fix, capped
from m2lsp.model import Span

RULES_URL = "https://github.com/m2lsp/m2lsp/blob/main/docs/rules.md#{anchor}"


class Units:
    """A line's code-point columns and the agreed units, converted by bisection over the
    characters wider than one unit (found once: a feature that converts every token of a
    line converts in time linear in the line, not quadratic in it).  Built by `units`,
    which keeps the last few lines' tables."""

    __slots__ = ("cols", "ends", "length")

    def __init__(self, line: str, encoding: str) -> None:
        wide = _WIDE[encoding]
        self.length = len(line)
        self.cols: list[int] = []  # the columns of the wide characters
        self.ends: list[int] = []  # the extra units up to and including each
        extra = 0
        for match in wide.finditer(line):
            for offset, ch in enumerate(match.group()):
                extra += (len(ch.encode("utf-8", "surrogatepass")) - 1 if encoding == "utf-8"
                          else 1)
                self.cols.append(match.start() + offset)
                self.ends.append(extra)

    def to_units(self, col: int) -> int:
        k = bisect.bisect_left(self.cols, col)  # wide characters before `col`
        return col + (self.ends[k - 1] if k else 0)

    def to_col(self, units: int) -> int:
        low, high = 0, len(self.cols)  # the wide characters that start before `units`
        while low < high:
            mid = (low + high) // 2
            start = self.cols[mid] + (self.ends[mid - 1] if mid else 0)
            if start < units:
                low = mid + 1
            else:
                high = mid
        col = units - (self.ends[low - 1] if low else 0)
        if low and col <= self.cols[low - 1]:  # inside the last wide character: after it
            col = self.cols[low - 1] + 1
        return min(col, self.length)


# the characters wider than one unit: beyond ASCII in UTF-8, beyond the BMP in UTF-16
_WIDE = {"utf-8": re.compile("[^\x00-\x7f]+"), "utf-16": re.compile("[\U00010000-\U0010ffff]+")}


def units(line: str, encoding: str) -> Units | None:
    """The line's table, or None where columns are units (UTF-32, ASCII).  `encoding` is
    the agreed one, compared by value: lsprotocol's PositionEncodingKind equals its str
    but does not hash as it."""
    kind = "utf-32" if encoding == "utf-32" else "utf-8" if encoding == "utf-8" else "utf-16"
    return None if kind == "utf-32" else _table(line, kind)


@lru_cache(maxsize=8)
def _table(line: str, kind: str) -> Units | None:
    """The table of a line that is not ASCII (kept for the last few lines: the same string
    object is found again without hashing or comparing its text, for a str keeps its hash
    and a dict compares by identity first)."""
    if line.isascii():
        return None
    table = Units(line, kind)
    return table if table.cols else None


def to_units(line: str, col: int, encoding: str) -> int:
    """A code-point column of `line` in the agreed units (past the end: counted on)."""
    table = units(line, encoding)
    return col if table is None else table.to_units(col)


def to_col(line: str, units_: int, encoding: str) -> int:
    """Units of the agreed encoding to a code-point column of `line` (clamped; a position
    inside a character is the column after it)."""
    table = units(line, encoding)
    return min(units_, len(line)) if table is None else table.to_col(units_)


def _line(lines: list[str], row: int) -> str:
    return lines[row] if 0 <= row < len(lines) else ""


def position(lines: list[str], row: int, col: int, encoding: str) -> types.Position:
    return types.Position(line=row, character=to_units(_line(lines, row), col, encoding))


def position_in(lines: list[str], where: types.Position, encoding: str) -> tuple[int, int]:
    """An LSP position as (line, code-point column)."""
    return where.line, to_col(_line(lines, where.line), where.character, encoding)


def range_of(span: Span, lines: list[str], encoding: str) -> types.Range:
    return types.Range(start=position(lines, span.line, span.col, encoding),
                       end=position(lines, span.end_line, span.end_col, encoding))


def rule_url(code: str) -> str:
    """Where the rule's documentation is (docs/rules.md, generated from the docstrings)."""
    return RULES_URL.format(anchor=code.lower())


def diagnostic(found: Diagnostic, lines: list[str], uri: str, encoding: str,
               source: str = "m2lsp") -> types.Diagnostic:
    related = [types.DiagnosticRelatedInformation(
        location=types.Location(uri=uri, range=range_of(r.span, lines, encoding)),
        message=r.message) for r in found.related] or None
    description = None
    if source == "m2lsp":
        description = types.CodeDescription(href=rule_url(found.code))
    return types.Diagnostic(
        range=range_of(found.span, lines, encoding), message=capped(found.message),
        severity=types.DiagnosticSeverity(int(found.severity)), code=found.code,
        code_description=description, source=source, related_information=related,
        data={"fix": found.fix is not None})


def limit_note(hidden: int, total: int, limit: int, uri: str) -> types.Diagnostic:
    """The note on line 1 when `max-diagnostics` holds some back."""
    path = uri.rsplit("/", 1)[-1]
    return types.Diagnostic(
        range=types.Range(start=types.Position(line=0, character=0),
                          end=types.Position(line=0, character=0)),
        message=f"{hidden:,} more of {total:,} findings are not shown here (the "
        f"max-diagnostics setting shows {limit:,}: the most severe, then those nearest your "
        f"last edit); `m2lsp check {path}` lists them all",
        severity=types.DiagnosticSeverity.Information, source="m2lsp", code="max-diagnostics")


def budget_note(unchecked: tuple[str, ...], seconds: float, uri: str) -> types.Diagnostic:
    """The note on line 1 when a pass of the rules ran out of time (`LINT_SECONDS`)."""
    path = uri.rsplit("/", 1)[-1]
    shown = ", ".join(unchecked[:8]) + (", ..." if len(unchecked) > 8 else "")
    return types.Diagnostic(
        range=types.Range(start=types.Position(line=0, character=0),
                          end=types.Position(line=0, character=0)),
        message=f"checking this document took over {seconds:g} s, so the editor did not run "
        f"rules {shown}; `m2lsp check {path}` runs them all",
        severity=types.DiagnosticSeverity.Warning, source="m2lsp", code="lint-budget")


def workspace_edit(fix: Fix, uri: str, lines: list[str], encoding: str, version: int
                   ) -> types.WorkspaceEdit:
    """A fix as an edit of the document's `version`: a client whose text has moved on
    refuses it rather than apply it to other lines."""
    edits = [types.TextEdit(range=range_of(e.span, lines, encoding), new_text=e.new_text)
             for e in fix.edits]
    if fix.removes_bom:
        edits.append(types.TextEdit(range=types.Range(start=types.Position(line=0, character=0),
                                                      end=types.Position(line=0, character=1)),
                                    new_text=""))
    return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
        text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version),
        edits=list(edits))])
