"""Reading CGED truth and result files the way the NLP-TEA evaluation jars read them.

The jars read lines (split at LF, CR or CRLF, a UTF-8 byte-order mark dropped), strip each
line of characters up to U+0020 (Java's `trim`), skip empty lines and lines starting with
`#`, and split the rest at every comma, dropping empty fields at the end (Java's
`String.split`).  Four fields are `sid, start, end, type`; two are `sid, correct` (or any
other word: it is the type).  Each field is trimmed; the position is kept as the text
`start, end`, so `04` and `4` are different positions, as they are to the jars.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from m2lsp.errors import InputError

_LINES = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class CgedItem:
    """One line of a truth or result file."""

    sid: str
    position: str  # "start, end" as written (trimmed), "" for a two-field line
    type: str
    line: int  # 0-based line in its file
    answers: tuple[str, ...] = ()  # fields after the type (CGED 2020-2021 corrections)

    @property
    def correct(self) -> bool:
        return self.type.lower() == "correct"


class CgedReadError(InputError):
    """A line the official tool would refuse (or crash on); the message names it."""


def java_trim(text: str) -> str:
    """Java's String.trim: characters up to U+0020 off both ends."""
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    return text[start:end]


def java_split(text: str, separator: str = ",") -> list[str]:
    """Java's String.split with a one-character separator: empty trailing fields dropped."""
    parts = text.split(separator)
    while parts and parts[-1] == "":
        parts.pop()
    return parts if text else [""]


def read_items(text: str, path: str, what: str, positions: bool = True,
               strict: bool = True) -> list[CgedItem]:
    """Every item of a truth or result file, in file order.  Without `positions` (the 2014
    tool) only `sid, type` lines are read, and ids are lower-cased as that tool does.  Not
    `strict` (m2lsp's own scoring), fields after the type are answers instead of an error."""
    if text.startswith("\ufeff"):
        text = text[1:]
    items = []
    for row, raw in enumerate(_LINES.split(text)):
        line = java_trim(raw)
        if not line or line.startswith("#"):
            continue
        fields = java_split(line)
        if not positions and len(fields) != 2:
            raise CgedReadError(f"{path}:{row + 1}: `{line}` has {len(fields)} comma-separated "
                                f"fields; a 2014 {what} line is `sid, type` (the official tool "
                                "stops here)")
        answers: tuple[str, ...] = ()
        if not strict and len(fields) > 4:
            fields, answers = fields[:4], tuple(a for a in map(java_trim, fields[4:]) if a)
        item = _item(fields, row, path, what, line)
        if answers:
            item = CgedItem(item.sid, item.position, item.type, row, answers)
        items.append(item if positions else CgedItem(item.sid.lower(), "", item.type, row))
    return items


def _item(fields: list[str], row: int, path: str, what: str, line: str) -> CgedItem:
    if len(fields) == 4:
        return CgedItem(java_trim(fields[0]), java_trim(fields[1]) + ", "
                        + java_trim(fields[2]), java_trim(fields[3]), row)
    if len(fields) == 2:
        return CgedItem(java_trim(fields[0]), "", java_trim(fields[1]), row)
    raise CgedReadError(f"{path}:{row + 1}: `{line}` has {len(fields)} comma-separated "
                        f"fields; a {what} line is `sid, start, end, type` or `sid, correct` "
                        "(the official tool stops here)")


def items_from_sgml(document: Any) -> list[CgedItem]:
    """A parsed CGED SGML document (`CgedDocument`) as truth items: each error (its type as
    written, offsets, answer) on its element's line; a sentence without errors `correct`
    on its text's line."""
    items = []
    for doc in document.docs:
        if not doc.errors:
            items.append(CgedItem(doc.id, "", "correct", doc.text_span.line))
        for error in doc.errors:
            start, end = error.attribute("start_off"), error.attribute("end_off")
            position = (f"{java_trim(start.value)}, {java_trim(end.value)}"
                        if start is not None and end is not None else "")
            answers = (error.answer,) if error.answer else ()
            items.append(CgedItem(doc.id, position, java_trim(error.type), error.span.line,
                                  answers))
    return items
