"""Bytes to text: decoding that never fails, and the line structure of the result.

Lines end at LF, CRLF or a lone CR, as in LSP.  Decoding is strict UTF-8 unless an encoding
is given; bytes that do not decode are reported once (byte offset of the first bad
sequence, and an encoding that decodes the whole file when one does) and the text is
decoded anyway so that checking can go on.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Hashable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

_LINE_BREAK = re.compile(r"\r\n|\r|\n")

# Tried in this order when a file is not UTF-8; the first that decodes the whole file is
# named as the likely encoding.  GB18030 first: the CGED 2020 data uses it, and it decodes
# any GBK/GB2312 file too.
CANDIDATE_ENCODINGS = ("utf-16", "gb18030", "big5", "shift_jis", "euc_kr", "cp1252")


@dataclass(frozen=True)
class DecodeProblem:
    """The first undecodable byte sequence of a file."""

    encoding: str  # the encoding that failed
    offset: int  # byte offset of the first bad sequence
    bad_sequences: int  # how many bad sequences in all
    likely: str | None  # an encoding that decodes the whole file, if one does
    used: str  # what the text was finally decoded with

    def describe(self) -> str:
        """One sentence for a diagnostic or an error message."""
        text = f"not valid {self.encoding} at byte {self.offset}"
        if self.bad_sequences > 1:
            text += f" ({self.bad_sequences} invalid sequences)"
        if self.likely:
            return f"{text}; the whole file decodes as {self.likely}: pass --encoding {self.likely}"
        return f"{text}; no common encoding decodes it all: the file may be corrupted or mixed"


@dataclass(frozen=True)
class SourceText:
    """Decoded text with its line structure.

    `text` keeps the original line breaks (so fixes can be applied byte-exactly); `lines`
    are the lines without their breaks.  A BOM is removed from `text` and recorded.
    """

    text: str
    encoding: str = "utf-8"
    bom: bool = False
    problem: DecodeProblem | None = None

    @cached_property
    def lines(self) -> list[str]:
        if "\r" not in self.text:
            return self.text.split("\n")
        return _LINE_BREAK.split(self.text)

    @cached_property
    def normalized(self) -> str:
        """The text with every line break as LF (same lines and columns as `text`)."""
        if "\r" not in self.text:
            return self.text
        return _LINE_BREAK.sub("\n", self.text)

    @cached_property
    def line_breaks(self) -> dict[str, int]:
        """How many lines end with each kind of break."""
        crlf = self.text.count("\r\n")
        return {"\r\n": crlf, "\n": self.text.count("\n") - crlf,
                "\r": self.text.count("\r") - crlf}

    @cached_property
    def line_offsets(self) -> list[int]:
        """Character offset in `text` where each line starts."""
        offsets = [0]
        if "\r" not in self.text:
            pos = 0
            for line in self.lines[:-1]:
                pos += len(line) + 1
                offsets.append(pos)
            return offsets
        offsets.extend(m.end() for m in _LINE_BREAK.finditer(self.text))
        return offsets

    def line_break(self, line: int) -> str:
        """The break that ends `line` ('' for the last line)."""
        if line + 1 >= len(self.line_offsets):
            return ""
        end = self.line_offsets[line] + len(self.lines[line])
        return self.text[end:self.line_offsets[line + 1]]

    def offset(self, line: int, col: int) -> int:
        """Character offset of a (line, column) position, clamped to the text."""
        if line >= len(self.line_offsets):
            return len(self.text)
        return self.line_offsets[line] + min(col, len(self.lines[line]))


def decode(data: bytes, encoding: str | None = None) -> SourceText:
    """Decode `data`; never raises for bad bytes (see `SourceText.problem`)."""
    if encoding is not None:
        return _decode_declared(data, encoding)
    if data.startswith(codecs.BOM_UTF8):
        return _with_bom(decode(data[len(codecs.BOM_UTF8):]))
    try:
        return SourceText(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return _decode_fallback(data, exc)


def _with_bom(source: SourceText) -> SourceText:
    return SourceText(source.text, source.encoding, True, source.problem)


def _decode_declared(data: bytes, encoding: str) -> SourceText:
    bom = encoding.replace("_", "-").lower() in ("utf-8", "utf8") and data.startswith(
        codecs.BOM_UTF8)
    if bom:
        data = data[len(codecs.BOM_UTF8):]
    try:
        return SourceText(data.decode(encoding), encoding, bom)
    except UnicodeDecodeError as exc:
        problem = DecodeProblem(encoding, exc.start, _count_bad(data, encoding), None, encoding)
        return SourceText(data.decode(encoding, errors="replace"), encoding, bom, problem)


def _decode_fallback(data: bytes, exc: UnicodeDecodeError) -> SourceText:
    likely = _likely_encoding(data)
    used = likely or "utf-8"
    problem = DecodeProblem("UTF-8", exc.start, _count_bad(data, "utf-8"), likely, used)
    text = data.decode(likely) if likely else data.decode("utf-8", errors="replace")
    return SourceText(text, used, False, problem)


def _likely_encoding(data: bytes) -> str | None:
    """The first candidate encoding that decodes all of `data` into plausible text."""
    for candidate in CANDIDATE_ENCODINGS:
        if candidate == "utf-16" and not data.startswith((codecs.BOM_UTF16_LE,
                                                          codecs.BOM_UTF16_BE)):
            continue
        try:
            text = data.decode(candidate)
        except UnicodeDecodeError:
            continue
        if _plausible(text):
            return candidate
    return None


def _plausible(text: str) -> bool:
    """Few control characters: rules out encodings that decode anything into noise."""
    controls = sum(1 for ch in text if ch < " " and ch not in "\t\r\n")
    return controls <= len(text) // 1000


def _count_bad(data: bytes, encoding: str) -> int:
    """Number of undecodable sequences (each becomes one U+FFFD when replaced)."""
    replaced = data.decode(encoding, errors="replace").count("\ufffd")
    return replaced - data.decode(encoding, errors="ignore").count("\ufffd")


@dataclass(frozen=True, eq=False)
class Text:
    """An input given in memory (the API's list or text, the editor's open document): its
    decoded text and the name a message gives it ("the system (a list of 20 sentences)").
    It reads as a file would (`read_source`), so a metric takes it where it takes a path;
    `str()` is its name, as a path's is.  Compared and hashed by identity: a gold kept
    for many scores is one object."""

    name: str
    source: SourceText

    @classmethod
    def of(cls, name: str, text: str) -> Text:
        return cls(name, SourceText(text))

    @classmethod
    def of_lines(cls, name: str, lines: list[str] | tuple[str, ...]) -> Text:
        """Sentences, one a line (each line ends with LF, as a file of them would)."""
        return cls(name, SourceText("".join(f"{line}\n" for line in lines)))

    @property
    def text(self) -> str:
        return self.source.text

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, eq=False)
class Held(Text):
    """A `Text` kept for many uses (a `Scorer`'s gold): what each reading makes of it
    (`files.kept`) is kept with it, for as long as it is held, not among the process's
    few kept readings, which other files push out."""

    readings: dict[Hashable, Any] = field(default_factory=dict, repr=False, kw_only=True)


Input = Path | Text  # what a metric reads: a file, or a text given in memory


def file_option(value: str | Path | Text) -> str | Text:
    """A file option's value (`--source`, `--ref`) as a metric's options keep it: a path
    as the command line gives it (a str), a text given in memory as it is."""
    return value if isinstance(value, Text) else str(value)


def read_source(path: Input, what: str, encoding: str | None = None) -> SourceText:
    """A file's text for a job that needs it whole, or an InputError that says what is wrong
    with it (`what`: the file's role, e.g. "gold"); a `Text`'s own, read already."""
    from m2lsp.errors import InputError
    from m2lsp.files.reading import read_bytes

    if isinstance(path, Text):
        return path.source
    try:
        data = read_bytes(path)
    except OSError as exc:
        raise InputError(f"cannot read {what} file {path}: {exc.strerror or exc}") from exc
    source = decode(data, encoding)
    if source.problem is not None:
        raise InputError(f"{what} file {path} is {source.problem.describe()}")
    return source
