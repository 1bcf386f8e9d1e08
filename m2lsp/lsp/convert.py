"""Core results to LSP types, and LSP positions to code-point columns.

Core columns count code points; LSP columns count UTF-16 code units unless the client and
server agreed on UTF-8 or UTF-32.  Lines that are ASCII, or BMP-only under UTF-16, need no
conversion (the common case, checked first).
"""

from __future__ import annotations

from lsprotocol import types

from m2lsp.diagnostic import Diagnostic, Fix
from m2lsp.model import Span

RULES_URL = "https://github.com/m2lsp/m2lsp/blob/main/docs/rules.md#{anchor}"


def _width(text: str, encoding: str) -> int:
    if encoding == "utf-32" or text.isascii():
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def to_units(line: str, col: int, encoding: str) -> int:
    """A code-point column of `line` in the agreed units."""
    if encoding == "utf-32" or line.isascii():
        return col
    return _width(line[:col], encoding) + max(0, col - len(line))  # past the end: as is


def to_col(line: str, units: int, encoding: str) -> int:
    """Units of the agreed encoding to a code-point column of `line` (clamped)."""
    if encoding == "utf-32" or line.isascii():
        return min(units, len(line))
    used = 0
    for index, ch in enumerate(line):
        if used >= units:
            return index
        used += _width(ch, encoding)
    return len(line)


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
        range=range_of(found.span, lines, encoding), message=found.message,
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


def workspace_edit(fix: Fix, uri: str, lines: list[str], encoding: str) -> types.WorkspaceEdit:
    edits = [types.TextEdit(range=range_of(e.span, lines, encoding), new_text=e.new_text)
             for e in fix.edits]
    if fix.removes_bom:
        edits.append(types.TextEdit(range=types.Range(start=types.Position(line=0, character=0),
                                                      end=types.Position(line=0, character=1)),
                                    new_text=""))
    return types.WorkspaceEdit(changes={uri: edits})
