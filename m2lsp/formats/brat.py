"""brat standoff (REALEC and other learner corpora annotate in brat): a `.txt` and the
`.ann` beside it.

Written from M2 (`m2lsp convert gold.m2 --to brat -o DIR`): the `.txt` holds one sentence a
line (each S line's text as written); each A line becomes a text-bound annotation labelled
with its error type over the characters of the tokens it covers (an insertion: an empty span
at the insertion point; a noop: the whole sentence, labelled `noop`), its corrections a
note (`#n	AnnotatorNotes Tn	dog||cat`, `-NONE-` for none) and its annotator an attribute
(`An	Annotator Tn 1`), with `Required` and `Comment` attributes where those fields are not
REQUIRED and -NONE-.  Read back (`m2lsp convert X.ann --to m2`), it gives the same M2: every
line of the `.txt` a sentence, each annotation an A line in the order of its number.

Read from other brat files: a span must lie on the tokens (whitespace-separated) of one line
of the `.txt`, and carry its correction in a note; what does not (a span inside a token, a
discontinuous span, no note) is reported, never guessed."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from m2lsp.conversion import Unconverted
from m2lsp.errors import InputError
from m2lsp.formats.m2_sentences import m2_sentences
from m2lsp.model import Edit, M2Document

_ID = re.compile(r"^(?:[TARENM]\d+|#\d*)\t")
_SPAN = re.compile(r"^(\S+) (\d+) (\d+)$")


def is_brat(text: str) -> bool:
    """Whether a text is brat standoff: its first non-blank lines are annotations (`T1\\t`,
    `A1\\t`, `R1\\t`, `#1\\t`, `E1\\t`, `N1\\t`, `M1\\t`)."""
    lines = [line for line in text[:1 << 16].lstrip("\ufeff").splitlines() if line.strip()]
    return bool(lines) and all(_ID.match(line) for line in lines[:20])


# -- writing ------------------------------------------------------------------------------

def to_brat(document: M2Document, problems: list[Unconverted]) -> tuple[str, str]:
    """(the .txt, the .ann) of an M2 document; what cannot be written is reported."""
    text_lines: list[str] = []
    ann: list[str] = []
    offset = 0
    counters = {"T": 0, "A": 0, "#": 0}
    for found in m2_sentences(document, problems):
        number, start, block = found.number, found.start, found.block
        if block.targets:
            problems.append(Unconverted(str(number), "ChERRANT's target lines (T...) have "
                                        "no place in brat", start))
        sentence = block.sentence
        for edit in block.edits:
            written = _annotation(edit, sentence.text, found.columns, offset, counters)
            if isinstance(written, str):
                problems.append(Unconverted(str(number), written, start + edit.row))
            else:
                ann.extend(written)
        text_lines.append(sentence.text)
        offset += len(sentence.text) + 1
    return "".join(f"{line}\n" for line in text_lines), "".join(f"{line}\n" for line in ann)


def _annotation(edit: Edit, text: str, columns: list[tuple[int, int]], offset: int,
                counters: dict[str, int]) -> list[str] | str:
    fields = edit.text.rstrip("\r\n").split("|||")
    if len(fields) != 6 or fields[0] != f"A {edit.start} {edit.end}":
        return f"an A line not as M2 writes one: {edit.text[:60]!r}"
    kind, corrections, required, comment, annotator = fields[1:]
    if any(not value or " " in value or "\t" in value
           for value in (kind, required, comment, annotator)):
        return (f"a type, annotator, required or comment field with a space or empty "
                f"({edit.text[:60]!r}): brat's labels and attribute values are one word")
    if edit.is_noop and (edit.start, edit.end) == (-1, -1):
        first, last = 0, len(text)
    elif not 0 <= edit.start <= edit.end <= len(columns):
        return f"edit {edit.start} {edit.end} is no span of the sentence's {len(columns)} tokens"
    else:
        first, last = _chars(columns, edit.start, edit.end, len(text))
    counters["T"] += 1
    t = f"T{counters['T']}"
    lines = [f"{t}\t{kind} {offset + first} {offset + last}\t{text[first:last]}"]
    counters["#"] += 1
    lines.append(f"#{counters['#']}\tAnnotatorNotes {t}\t{corrections}")
    for name, value, default in (("Annotator", annotator, None), ("Required", required,
                                                                  "REQUIRED"),
                                 ("Comment", comment, "-NONE-")):
        if value != default:
            counters["A"] += 1
            lines.append(f"A{counters['A']}\t{name} {t} {value}")
    return lines


def _chars(columns: list[tuple[int, int]], start: int, end: int, length: int
           ) -> tuple[int, int]:
    """The characters of tokens start..end (an insertion: the point before token start)."""
    if start == end:
        at = columns[start][0] if start < len(columns) else length
        return at, at
    return columns[start][0], columns[end - 1][1]


# -- reading ------------------------------------------------------------------------------

@dataclass
class _Mark:
    kind: str
    start: int
    end: int
    note: str | None = None
    attributes: dict[str, str] = field(default_factory=dict)


def companion_text(path: Path) -> Path:
    """The .txt beside a .ann, or an InputError naming it."""
    text = path.with_suffix(".txt")
    if not text.is_file():
        raise InputError(f"{path}: brat standoff reads its text from {text}, which is not "
                         "there")
    return text


def from_brat(text: str, ann: str, name: str, problems: list[Unconverted]) -> str:
    """The M2 of a brat document (see the module's docstring); what cannot be read as an
    M2 edit is reported to `problems` and left out."""
    marks, ignored = _marks(ann, name, problems)
    if ignored and problems is not None:
        problems.append(Unconverted("-", f"{ignored} relation, event or normalisation "
                                    "line(s) have no place in M2: left out"))
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    starts, at = [], 0
    for line in lines:
        starts.append(at)
        at += len(line) + 1
    edits: dict[int, list[str]] = {}
    for t, mark in sorted(marks.items(), key=lambda kv: int(kv[0][1:])):
        placed = _placed(mark, t, lines, starts)
        if isinstance(placed, str):
            problems.append(Unconverted(t, placed))
        else:
            edits.setdefault(placed[0], []).append(placed[1])
    return "".join(f"S {line}\n" + "".join(f"{e}\n" for e in edits.get(k, [])) + "\n"
                   for k, line in enumerate(lines))


def _marks(ann: str, name: str, problems: list[Unconverted]) -> tuple[dict[str, _Mark], int]:
    marks: dict[str, _Mark] = {}
    later: list[tuple[int, str]] = []
    ignored = 0
    for row, line in enumerate(ann.splitlines()):
        if not line.strip():
            continue
        head, _, rest = line.partition("\t")
        if head.startswith("T"):
            span = _SPAN.match(rest.partition("\t")[0])
            if span is None:
                problems.append(Unconverted(head, f"{name}:{row + 1}: a discontinuous or "
                                            "malformed span has no place in M2", row))
                continue
            marks[head] = _Mark(span.group(1), int(span.group(2)), int(span.group(3)))
        elif head.startswith(("A", "M", "#")):
            later.append((row, line))
        elif head[:1] in "REN":
            ignored += 1
        else:
            problems.append(Unconverted(head, f"{name}:{row + 1}: not a brat annotation",
                                        row))
    for row, line in later:
        _attach(line, marks, name, row, problems)
    return marks, ignored


def _attach(line: str, marks: dict[str, _Mark], name: str, row: int,
            problems: list[Unconverted]) -> None:
    head, _, rest = line.partition("\t")
    if head.startswith("#"):
        what, _, note = rest.partition("\t")
        target = what.split(" ")[-1]
        if target in marks:
            marks[target].note = note
        return
    parts = rest.split(" ")
    if len(parts) >= 2 and parts[1] in marks:
        marks[parts[1]].attributes[parts[0]] = parts[2] if len(parts) > 2 else "true"
    else:
        problems.append(Unconverted(head, f"{name}:{row + 1}: an attribute of no "
                                    "text-bound annotation", row))


def _placed(mark: _Mark, t: str, lines: Sequence[str], starts: Sequence[int]
            ) -> tuple[int, str] | str:
    """(the sentence, the A line) of an annotation, or why it has none."""
    import bisect

    k = bisect.bisect_right(starts, mark.start) - 1
    if k < 0 or mark.end > starts[k] + len(lines[k]) or mark.start > mark.end:
        return f"span {mark.start}-{mark.end} is not within one line of the text"
    line, base = lines[k], starts[k]
    columns = [(m.start(), m.end()) for m in re.finditer(r"\S+", line)]
    first, last = mark.start - base, mark.end - base
    if mark.note is None:
        return "no correction (an AnnotatorNotes note) for it"
    attributes = mark.attributes
    tail = (f"|||{mark.kind}|||{mark.note}|||{attributes.get('Required', 'REQUIRED')}|||"
            f"{attributes.get('Comment', '-NONE-')}|||{attributes.get('Annotator', '0')}")
    if mark.kind == "noop" and (first, last) == (0, len(line)):
        return k, "A -1 -1" + tail
    span = _tokens(columns, first, last, len(line))
    if span is None:
        return (f"span {mark.start}-{mark.end} ({line[first:last]!r}) does not start and end "
                f"at token boundaries of line {k + 1}")
    return k, f"A {span[0]} {span[1]}" + tail


def _tokens(columns: list[tuple[int, int]], first: int, last: int, length: int
            ) -> tuple[int, int] | None:
    starts = [a for a, _ in columns]
    ends = [b for _, b in columns]
    if first == last:  # an insertion: before a token, or at the end
        if first in starts:
            return starts.index(first), starts.index(first)
        return (len(columns), len(columns)) if first == length else None
    if first in starts and last in ends:
        return starts.index(first), ends.index(last) + 1
    return None
