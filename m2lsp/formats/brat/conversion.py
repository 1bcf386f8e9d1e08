"""brat standoff (REALEC and other learner corpora annotate in brat): a `.txt` and the
`.ann` beside it.

Written from M2 (`m2lsp convert gold.m2 --to brat -o DIR`): the `.txt` holds one sentence a
line (each S line's text as written); each A line becomes a text-bound annotation labelled
with its error type over the characters of the tokens it covers (an insertion: an empty span
at the insertion point; a noop: the whole sentence, labelled `noop`), its corrections a
note (`#n	AnnotatorNotes Tn	dog||cat`, `-NONE-` for none) and its annotator an attribute
(`An	Annotator Tn 1`), with `Required` and `Comment` attributes where those fields are not
REQUIRED and -NONE-; `annotation.conf` and `visual.conf` beside them declare the types and
attributes used, so that brat shows them.  Read back (`m2lsp convert X.ann --to m2`), it
gives the same M2: every line of the `.txt` a sentence, each annotation an A line in the
order of its number, each annotator's edits in offset order (as `check` wants them, M304).

Read from other brat files: a span must lie on the tokens (whitespace-separated) of one line
of the `.txt`, carry its correction in a note and its annotator in an attribute; what does
not (a span inside a token, a discontinuous span, no note, no annotator, an offset of more
digits than any text has) is reported by annotation id, never guessed."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from m2lsp.errors import InputError
from m2lsp.formats.m2.sentences import m2_sentences
from m2lsp.formats.unconverted import Unconverted
from m2lsp.model import Edit, M2Document

_ID = re.compile(r"^(?:[TARENM]\d+|#\d*)\t")
_SPAN = re.compile(r"^(\S+) (\d+) (\d+)$")
_MOST_DIGITS = 18  # an offset longer is beyond any text (and int() refuses 4,300 digits)


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


def configurations(ann: str) -> dict[str, str]:
    """brat's two configuration files for a written .ann (`annotation.conf`: the types
    and attributes it uses, so that brat shows them rather than an error; `visual.conf`:
    their labels and colours), by file name: written beside the .ann."""
    kinds, values = _used(ann)
    return {"annotation.conf": _annotation_conf(kinds, values),
            "visual.conf": _visual_conf(kinds)}


def _used(ann: str) -> tuple[list[str], dict[str, list[str]]]:
    """The annotation types of a .ann and the values of each attribute, in order of first
    use."""
    kinds: dict[str, None] = {}
    values: dict[str, dict[str, None]] = {"Annotator": {}, "Required": {}, "Comment": {}}
    for line in ann.splitlines():
        head, _, rest = line.partition("\t")
        if head.startswith("T"):
            kinds.setdefault(rest.split(" ", 1)[0], None)
        elif head.startswith("A"):
            name, _, tail = rest.partition(" ")
            values.setdefault(name, {}).setdefault(tail.partition(" ")[2], None)
    return list(kinds), {name: list(found) for name, found in values.items() if found}


def _annotation_conf(kinds: list[str], values: dict[str, list[str]]) -> str:
    lines = ["# written by m2lsp convert --to brat: the types and attributes of the .ann",
             "[entities]", *kinds, "", "[relations]",
             "# edits of different annotators overlap",
             "<OVERLAP>\tArg1:<ENTITY>, Arg2:<ENTITY>, <OVL-TYPE>:<ANY>", "", "[events]", "",
             "[attributes]"]
    lines += [f"{name}\tArg:<ENTITY>, Value:{'|'.join(found)}"
              for name, found in values.items()]
    return "\n".join(lines) + "\n"


# colours by ERRANT's operation: missing, replacement, unnecessary
_COLOURS = {"M": "#b3e6b3", "R": "#ffe699", "U": "#f4b6b6", "noop": "#dddddd"}


def _visual_conf(kinds: list[str]) -> str:
    lines = ["[labels]", *(f"{kind} | {kind}" for kind in kinds), "", "[drawing]",
             "SPAN_DEFAULT\tfgColor:black, bgColor:#cce0ff, borderColor:darken",
             "ARC_DEFAULT\tcolor:black, arrowHead:triangle-5",
             "ATTRIBUTE_DEFAULT\tglyph:*"]
    for kind in kinds:
        colour = _COLOURS.get(kind.split(":", 1)[0])
        if colour is not None:
            lines.append(f"{kind}\tbgColor:{colour}")
    return "\n".join(lines) + "\n"


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
    if ignored:
        problems.append(Unconverted(ignored[0], f"{len(ignored)} relation, event or "
                                    "normalisation line(s) have no place in M2: left out",
                                    unit="annotation"))
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    starts, at = [], 0
    for line in lines:
        starts.append(at)
        at += len(line) + 1
    edits: dict[int, list[_Placed]] = {}
    for t, mark in sorted(marks.items(), key=lambda kv: _number(kv[0])):
        placed = _placed(mark, t, lines, starts)
        if isinstance(placed, str):
            problems.append(Unconverted(t, placed, unit="annotation"))
        else:
            edits.setdefault(placed.sentence, []).append(placed)
    return "".join(f"S {line}\n" + "".join(f"{e.line}\n" for e in _in_order(edits.get(k, [])))
                   + "\n" for k, line in enumerate(lines))


def _number(head: str) -> tuple[int, str]:
    """A sort key putting `T2` before `T10` without int() (an id may be any length)."""
    digits = head[1:]
    return (len(digits), digits) if digits.isdigit() else (1 << 30, digits)


@dataclass(frozen=True)
class _Placed:
    """An annotation read as an A line of one sentence."""

    sentence: int
    annotator: str
    start: int
    end: int
    line: str


def _in_order(edits: list[_Placed]) -> list[_Placed]:
    """A sentence's edits with each annotator's in offset order (as M2 wants them, M304),
    each annotator keeping the places its edits had: the order of annotation ids is kept
    where it already was that order."""
    slots: dict[str, list[int]] = {}
    for position, edit in enumerate(edits):
        slots.setdefault(edit.annotator, []).append(position)
    out = list(edits)
    for positions in slots.values():
        ordered = sorted((edits[p] for p in positions), key=lambda e: (e.start, e.end))
        for position, edit in zip(positions, ordered, strict=True):
            out[position] = edit
    return out


def _marks(ann: str, name: str, problems: list[Unconverted]
           ) -> tuple[dict[str, _Mark], list[str]]:
    """The text-bound annotations with their notes and attributes, and the ids of the
    lines M2 has no place for (relations, events, normalisations)."""
    marks: dict[str, _Mark] = {}
    later: list[tuple[int, str]] = []
    ignored: list[str] = []
    for row, line in enumerate(ann.splitlines()):
        if not line.strip():
            continue
        head, _, rest = line.partition("\t")
        if head.startswith("T"):
            span = _SPAN.match(rest.partition("\t")[0])
            if span is None:
                problems.append(Unconverted(head, f"{name}:{row + 1}: a discontinuous or "
                                            "malformed span has no place in M2", row,
                                            "annotation"))
                continue
            if max(len(span.group(2)), len(span.group(3))) > _MOST_DIGITS:
                problems.append(Unconverted(head, f"{name}:{row + 1}: an offset of "
                                            f"{max(len(span.group(2)), len(span.group(3))):,} "
                                            "digits is beyond any text", row, "annotation"))
                continue
            marks[head] = _Mark(span.group(1), int(span.group(2)), int(span.group(3)))
        elif head.startswith(("A", "M", "#")):
            later.append((row, line))
        elif head[:1] in "REN":
            ignored.append(head)
        else:
            problems.append(Unconverted(head, f"{name}:{row + 1}: not a brat annotation",
                                        row, "annotation"))
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
                                    "text-bound annotation", row, "annotation"))


def _placed(mark: _Mark, t: str, lines: Sequence[str], starts: Sequence[int]
            ) -> _Placed | str:
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
    noop = mark.kind == "noop" and (first, last) == (0, len(line))
    span = (-1, -1) if noop else _tokens(columns, first, last, len(line))
    if span is None:
        return (f"span {mark.start}-{mark.end} ({line[first:last]!r}) does not start and end "
                f"at token boundaries of line {k + 1}")
    annotator = attributes.get("Annotator")
    if annotator is None:
        return (f"no Annotator attribute (a line `A1<TAB>Annotator {t} 0`): whose edit it "
                "is is not guessed")
    tail = (f"|||{mark.kind}|||{mark.note}|||{attributes.get('Required', 'REQUIRED')}|||"
            f"{attributes.get('Comment', '-NONE-')}|||{annotator}")
    return _Placed(k, annotator, span[0], span[1], f"A {span[0]} {span[1]}{tail}")


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
