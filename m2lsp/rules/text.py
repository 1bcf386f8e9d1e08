"""Rules about the bytes and lines of a file, whatever its format (X)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from m2lsp.diagnostic import Applicability, Diagnostic, Fix, Severity, TextEdit
from m2lsp.model import Span
from m2lsp.parsing.source import SourceText
from m2lsp.rules.base import Context, Format, LineRange, Rule, Scope

_BREAK_NAMES = {"\r\n": "CRLF", "\n": "LF", "\r": "CR"}
_TRAILING = " \t\u3000\xa0"  # what X004 removes from line ends
_TRAILING_SET = frozenset(_TRAILING)


class InvalidEncoding(Rule):
    """Reports a file that is not valid in its encoding (UTF-8 unless `--encoding` says
    otherwise).

    ## What it does
    Reports, once per file, the byte offset of the first byte sequence that does not
    decode, how many there are, and an encoding that decodes the whole file when one does
    (GB18030, Big5, Shift-JIS, EUC-KR, cp1252 are tried).

    ## Why is this bad?
    The NUS M2 scorer, ERRANT and the NLP-TEA tools read UTF-8.  A GB18030 file (as the
    CGED 2020 release is) makes them crash or silently compare mojibake; a file with a few
    corrupted bytes shifts character offsets.

    ## Example
    A CGED file saved as GB18030: `not valid UTF-8 at byte 7; the whole file decodes as
    gb18030: pass --encoding gb18030`.

    ## Use instead
    Convert the file to UTF-8 (`iconv -f GB18030 -t UTF-8`), or say its encoding with
    `--encoding`.

    ## Fix safety
    No automatic fix: m2lsp cannot know which bytes were meant.
    """

    code = "X001"
    name = "invalid-encoding"
    severity = Severity.ERROR
    message = "{detail}"
    scope = Scope.TEXT

    def check(self, source: SourceText, ctx: Context) -> Iterator[Diagnostic]:
        problem = source.problem
        if problem is None:
            return
        line, col = problem_position(source, problem.offset)
        yield self.report(Span.on_line(line, col, col + 1), detail=problem.describe())


def problem_position(source: SourceText, byte_offset: int) -> tuple[int, int]:
    """Approximate (line, column) of a byte offset, by re-encoding the decoded text."""
    encoding = source.problem.used if source.problem else source.encoding
    seen = 0
    for row, line in enumerate(source.lines):
        size = len((line + "\n").encode(encoding, errors="replace"))
        if seen + size > byte_offset:
            prefix = line.encode(encoding, errors="replace")[: byte_offset - seen]
            return row, len(prefix.decode(encoding, errors="ignore"))
        seen += size
    return max(len(source.lines) - 1, 0), 0


class ByteOrderMark(Rule):
    """Reports a UTF-8 byte-order mark at the start of the file.

    ## What it does
    Flags a file that starts with the bytes EF BB BF.

    ## Why is this bad?
    The NUS M2 scorer reads the mark as part of the first line: a gold file's first `S` line
    no longer starts with `S ` and the scorer stops with an assertion error; in a system
    file the first token gains an invisible character and never matches.

    ## Example
    `\\ufeffS This is a sentence .`

    ## Use instead
    `S This is a sentence .`

    ## Fix safety
    Safe: removing the mark changes no character of the content.
    """

    code = "X002"
    name = "byte-order-mark"
    severity = Severity.WARNING
    message = "file starts with a UTF-8 byte-order mark"
    fix_title = "Remove the byte-order mark"
    scope = Scope.TEXT

    def check(self, source: SourceText, ctx: Context) -> Iterator[Diagnostic]:
        if source.bom:
            fix = Fix(self.fix_title, (), Applicability.SAFE, removes_bom=True)
            yield self.report(Span.on_line(0, 0, 0), fix=fix)


class MixedLineEndings(Rule):
    """Reports a file whose lines end in different ways (CRLF, LF, CR).

    ## What it does
    Counts the line breaks of each kind and reports the first line whose break differs from
    the most common one.

    ## Why is this bad?
    Tools disagree on what a line is: the NUS scorer keeps a `\\r` on a line ending in CRLF,
    so a blank line there is not a block separator; diffs show every such line as changed.

    ## Example
    An M2 file edited on two systems: most lines end in LF, a pasted block in CRLF.

    ## Use instead
    One kind of line break throughout (LF for M2).

    ## Fix safety
    Safe: only line breaks change, to the file's most common kind.
    """

    code = "X003"
    name = "mixed-line-endings"
    severity = Severity.WARNING
    message = "mixed line endings: {counts}; this line ends in {this}"
    fix_title = "Use {majority} line endings throughout"
    scope = Scope.TEXT

    def check(self, source: SourceText, ctx: Context) -> Iterator[Diagnostic]:
        kinds = {k: n for k, n in source.line_breaks.items() if n}
        if len(kinds) < 2:
            return
        majority = max(kinds, key=lambda k: (kinds[k], k == "\n"))
        edits = []
        first = None
        for row in range(len(source.lines) - 1):
            brk = source.line_break(row)
            if brk != majority:
                first = row if first is None else first
                col = len(source.lines[row])
                edits.append(TextEdit(Span(row, col, row + 1, 0), majority))
        counts = ", ".join(f"{n} {_BREAK_NAMES[k]}" for k, n in sorted(kinds.items()))
        if first is None:
            return
        fix = Fix(self.fix_title.format(majority=_BREAK_NAMES[majority]), tuple(edits))
        col = len(source.lines[first])
        yield self.report(Span(first, col, first, col), fix=fix, counts=counts,
                          this=_BREAK_NAMES[source.line_break(first)])


class TrailingWhitespace(Rule):
    """Reports spaces or tabs at the end of a line.

    ## What it does
    Flags whitespace after the last visible character of an M2 or truth-file line
    (whitespace-only lines have their own rule, M008).

    ## Why is this bad?
    It is invisible and changes meaning in some tools: the NLP-TEA 2018 scorer compares the
    last field of a truth line as written, so `S ` is not `S`; in M2 files it makes diffs
    noisy and hides real changes.

    ## Example
    `A 3 4|||Prep|||on|||REQUIRED|||-NONE-|||0␠␠`

    ## Use instead
    `A 3 4|||Prep|||on|||REQUIRED|||-NONE-|||0`

    ## Fix safety
    Safe: the NUS scorer strips S lines and reads annotator ids with `int()`, so no score
    changes; truth files are read as intended.
    """

    code = "X004"
    name = "trailing-whitespace"
    severity = Severity.WARNING
    message = "trailing whitespace"
    fix_title = "Remove trailing whitespace"
    scope = Scope.LINE
    formats = frozenset({Format.M2, Format.TRUTH})

    def check(self, lines: LineRange, ctx: Context) -> Iterator[Diagnostic]:
        first, text = lines.first, lines.lines
        for k in [k for k, line in enumerate(text) if line[-1:] in _TRAILING_SET]:
            line = text[k]
            if not line.isspace():
                span = Span(first + k, len(line.rstrip(_TRAILING)), first + k, len(line))
                yield self.report(span, fix=Fix(self.fix_title, (TextEdit(span, ""),)))


# A NUL or a UTF-16 surrogate code point as a character, and in JSON as an escape (`\\\\`
# first, so that an escaped backslash before `u0000` is read as what it is).
_INVALID = re.compile("[\x00\ud800-\udfff]")
_JSON_ESCAPE = re.compile(r"\\(?:\\|u([0-9a-fA-F]{4}))")


class InvalidCharacter(Rule):
    """Reports a NUL character or a lone UTF-16 surrogate: one finding a line, at its first.

    ## What it does
    Flags U+0000 (NUL) and the surrogate code points U+D800-U+DFFF, written as characters
    or, in BEA-2019 JSON, as escapes (`\\u0000`, a `\\ud800` not followed by its low
    half). A file read as UTF-8 cannot hold a surrogate, but an editor's text, a JSON
    escape or a file read with `--encoding unicode_escape` can.

    ## Why is this bad?
    A NUL ends a string in C tools and shows as nothing in most editors: two sentences that
    look the same are not. A lone surrogate is no character at all: no UTF-8 file can
    hold it, so every tool that writes the text out (the NUS scorer, ERRANT, m2lsp's own
    conversions) stops or writes something else. Both usually come from a broken
    conversion (UTF-16 read as UTF-8 gives a NUL after every ASCII letter).

    ## Example
    `S The cat\\x00 sat .` or, in JSON, `{"text": "The cat \\ud800 sat."}`

    ## Use instead
    `S The cat sat .`: remove the character, or decode the file with its real encoding.

    ## Fix safety
    No automatic fix: whether the character stands for a lost one is for a person to say.
    """

    code = "X005"
    name = "invalid-character"
    severity = Severity.ERROR
    message = "{what}{more}: no GEC tool reads it as a character"
    scope = Scope.TEXT

    def check(self, source: SourceText, ctx: Context) -> Iterator[Diagnostic]:
        json = ctx.format is Format.BEA_JSON and "\\" in source.text
        if _INVALID.search(source.text) is None and not json:
            return
        for row, line in enumerate(source.lines):
            found = _invalid_in(line, json)
            if found:
                (col, width, what), more = found[0], len(found) - 1
                yield self.report(Span.on_line(row, col, col + width), what=what,
                                  more=f" (and {more:,} more on this line)" if more else "")


def _invalid_in(line: str, json: bool) -> list[tuple[int, int, str]]:
    """(column, width, what) of each NUL or lone surrogate of a line, as a character and,
    in JSON, as an escape."""
    found = [(m.start(), 1, _named(ord(m.group()))) for m in _INVALID.finditer(line)]
    if json and "\\u" in line:
        found.extend(_json_escapes(line))
        found.sort()
    return found


def _json_escapes(line: str) -> Iterator[tuple[int, int, str]]:
    escapes = [(m.start(), int(m.group(1), 16)) for m in _JSON_ESCAPE.finditer(line)
               if m.group(1) is not None]
    paired: set[int] = set()
    for (at, value), (after, low) in itertools.pairwise(escapes):
        if 0xD800 <= value < 0xDC00 and after == at + 6 and 0xDC00 <= low < 0xE000:
            paired |= {at, after}
    for at, value in escapes:
        if at not in paired and (value == 0 or 0xD800 <= value < 0xE000):
            yield at, 6, f"the escape \\u{value:04x}, {_named(value)}"


def _named(value: int) -> str:
    if value == 0:
        return "a NUL character (U+0000)"
    return f"a lone surrogate U+{value:04X} (half of a UTF-16 pair)"
