"""Reading hypothesis and reference M2 files the way `errant_compare` 3.0.2 reads them.

errant_compare strips the whole text, splits it into blocks at every "\\n\\n", takes each
block's first line as the sentence and reads *every* later line as an edit: the two
characters before the offsets are skipped whatever they are, fields are split at "|||", the
correction is the third field exactly as written (not stripped, `||` alternatives not split)
and the annotator is the last field, read with Python's `int()`.  m2lsp reads the same
values, with three differences, each where errant_compare would stop with a traceback:

- ChERRANT's target lines (`T0-A0 ...`, `T0 没有错误`, MuCGEC / ChERRANT files) are skipped,
  as ChERRANT's own scorer skips them; every other line is read as errant_compare reads it;
- CRLF line ends are read as LF;
- a line that errant_compare cannot read as an edit (a line of spaces, two empty lines
  between blocks, too few fields, offsets that are not integers) is a clear error naming
  the file and line, instead of a traceback.

Sentences are compared between the two files: different counts, or a sentence whose number
of tokens differs (offsets then mean different things), are errors naming the first line
where the files stop lining up.  Sources with the same number of tokens that differ in some
token (MuCGEC's demo writes `：` in one file and `:` in the other) are scored as
errant_compare scores them, with a warning.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from m2lsp.errors import InputError


class ErrantEdit(NamedTuple):
    """One edit line, as errant_compare reads it (a tuple: thousands are made per file)."""

    start: int
    end: int
    type: str
    correction: str  # the third field, as written
    coder: int
    line: int  # 0-based line in its file


@dataclass(frozen=True)
class ErrantBlock:
    """One sentence block: the sentence line and its edits."""

    line: int  # 0-based line of the sentence line
    text: str  # the block as errant_compare would see it (target lines left out)
    edits: tuple[ErrantEdit, ...]

    @property
    def sentence(self) -> str:
        return self.text.partition("\n")[0]

    @property
    def original(self) -> str:
        """What errant_compare -v prints as the original sentence."""
        return self.text[2:].split("\nA")[0]

    @property
    def tokens(self) -> list[str]:
        return self.sentence[2:].split()


class ErrantReadError(InputError):
    """A file errant_compare would stop on; the message names the file and line."""


def read_blocks(text: str, path: str,
                known: Mapping[tuple[str, int], ErrantBlock] | None = None,
                kept: dict[tuple[str, int], ErrantBlock] | None = None,
                cherrant: bool = False) -> list[ErrantBlock]:
    """The blocks of an M2 file, in errant_compare's reading.  `known`: blocks read before,
    by (text, first line), reused where unchanged (the editor's live score); `kept` receives
    this reading's blocks by the same key.  `cherrant`: a reference in ChERRANT's reading,
    which takes only `A ` lines as edits, so that a second blank line after a block (a
    chunk that starts with a line break) changes nothing; a third still makes an empty
    sentence, an error."""
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    body = text.strip()
    line = text[:len(text) - len(text.lstrip())].count("\n")
    blocks = []
    for index, chunk in enumerate(body.split("\n\n")):
        if cherrant and index and chunk[:1] == "\n" and chunk[1:2] not in ("", "\n"):
            chunk, line = chunk[1:], line + 1
        if index and chunk.partition("\n")[0] == "":
            raise ErrantReadError(_empty_lines(path, line, cherrant))
        block = (known.get((chunk, line)) if known else None) or _block(chunk, line, path)
        if kept is not None:
            kept[(chunk, line)] = block
        blocks.append(block)
        line += chunk.count("\n") + 2
    return blocks


def _empty_lines(path: str, line: int, cherrant: bool) -> str:
    if cherrant:
        return (f"{path}:{line + 1}: three or more empty lines between blocks; ChERRANT's "
                "compare_m2_for_evaluation.py would read an empty sentence there")
    return (f"{path}:{line + 1}: two or more empty lines between blocks; errant_compare "
            "would read them as a sentence of their own or the next sentence line as an edit")


def _block(chunk: str, line: int, path: str) -> ErrantBlock:
    lines = chunk.split("\n")
    try:
        edits, targets = _edits(lines, line)
    except (IndexError, ValueError):
        for row, text in enumerate(lines[1:], line + 1):  # the slow way, to name the line
            if not _is_target(text):
                _edit(text, row, path)
        raise
    if targets:
        chunk = "\n".join([lines[0], *(x for x in lines[1:] if not _is_target(x))])
    return ErrantBlock(line, chunk, tuple(edits))


_SMALL = {str(number): number for number in range(-1, 1000)}
_new_edit = tuple.__new__


def _edits(lines: list[str], line: int) -> tuple[list[ErrantEdit], bool]:
    """The block's edits (the hot loop of reading: `_edit` inlined, small numbers looked up
    rather than parsed) and whether it has target lines."""
    small, edits, targets = _SMALL, [], False
    for row, text in enumerate(lines[1:], line + 1):
        if text[:1] == "T" and text[1:2].isdigit():
            targets = True
            continue
        fields = text[2:].split("|||")
        span = fields[0].split()
        start, end, coder = span[0], span[1], fields[-1]
        edits.append(_new_edit(ErrantEdit, (
            small[start] if start in small else int(start),
            small[end] if end in small else int(end), fields[1], fields[2],
            small[coder] if coder in small else int(coder), row)))
    return edits, targets


def _is_target(text: str) -> bool:
    """A ChERRANT target line: `T0-A0 ...`, `T1 ...`."""
    return text[:1] == "T" and text[1:2].isdigit()


def _edit(text: str, row: int, path: str) -> ErrantEdit:
    fields = text[2:].split("|||")
    span = fields[0].split()
    try:
        return ErrantEdit(int(span[0]), int(span[1]), fields[1], fields[2], int(fields[-1]),
                          row)
    except (IndexError, ValueError):
        raise ErrantReadError(f"{path}:{row + 1}: {_why(text)}; errant_compare reads every "
                              "line after a block's first as `A start end|||type|||correction"
                              "|||...|||annotator`") from None


def _why(text: str) -> str:
    if not text.strip():
        return "a line of only spaces inside a block (blocks end at an empty line)"
    if text.count("|||") < 2:
        return f"`{_short(text)}` has fewer than three `|||`-separated fields"
    return f"`{_short(text)}` has no integer offsets or annotator where they belong"


def _short(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass(frozen=True)
class SourceMismatch:
    """A sentence whose tokens differ between the two files."""

    index: int
    hyp_line: int
    ref_line: int
    same_length: bool


def mismatches(hyp: Sequence[ErrantBlock], ref: Sequence[ErrantBlock]) -> list[SourceMismatch]:
    """Sentences whose source tokens differ, in order."""
    out = []
    for index, (h, r) in enumerate(zip(hyp, ref, strict=False)):
        if h.sentence != r.sentence:
            a, b = h.tokens, r.tokens
            if a != b:
                out.append(SourceMismatch(index, h.line, r.line, len(a) == len(b)))
    return out


def check_pair(hyp: Sequence[ErrantBlock], ref: Sequence[ErrantBlock], hyp_path: str,
               ref_path: str, hyp_by_sentence: bool = False,
               scorer: str = "errant_compare") -> str | None:
    """Raise where the files cannot be compared; return a warning where they differ only
    in some tokens' text, else None.  `hyp_by_sentence`: the hypothesis was annotated from
    a plain-text file named `hyp_path` (one sentence a line), so its places are that file's
    lines, not the M2 text's; `scorer`: whose numbers these are, for the warning."""
    found = mismatches(hyp, ref)
    line = _hyp_line if hyp_by_sentence else _m2_line
    if len(hyp) != len(ref):
        raise ErrantReadError(_count_message(hyp, ref, found, hyp_path, ref_path, line))
    hard = [m for m in found if not m.same_length]
    if hard:
        m = hard[0]
        raise ErrantReadError(
            f"sentence {m.index + 1} differs between {hyp_path}:{line(m)} and "
            f"{ref_path}:{m.ref_line + 1} (a different number of tokens, so the edit offsets "
            f"do not refer to the same tokens)")
    if found:
        m = found[0]
        return (f"{len(found)} sentence(s) differ in some tokens between the files, first "
                f"{hyp_path}:{line(m)} and {ref_path}:{m.ref_line + 1}; scored as "
                f"{scorer} scores them (by token offsets)")
    return None


def _m2_line(m: SourceMismatch) -> int:
    return m.hyp_line + 1


def _hyp_line(m: SourceMismatch) -> int:
    return m.index + 1


def _count_message(hyp: Sequence[ErrantBlock], ref: Sequence[ErrantBlock],
                   found: list[SourceMismatch], hyp_path: str, ref_path: str,
                   line: Callable[[SourceMismatch], int] = _m2_line) -> str:
    counts = (f"hypothesis file {hyp_path} {_size(hyp)} but reference file {ref_path} "
              f"{_size(ref)}")
    if not (_empty(hyp) or _empty(ref)) and found:
        m = found[0]
        return (f"{counts}; they stop lining up at sentence {m.index + 1} "
                f"({hyp_path}:{line(m)}, {ref_path}:{m.ref_line + 1})")
    if _empty(hyp) or _empty(ref):
        return counts
    shorter = min(len(hyp), len(ref))
    extra = (hyp if len(hyp) > shorter else ref)[shorter]
    where = hyp_path if len(hyp) > shorter else ref_path
    return f"{counts}; the first extra sentence is {where}:{extra.line + 1}"


def _empty(blocks: Sequence[ErrantBlock]) -> bool:
    """An empty file, which errant_compare reads as one empty sentence."""
    return len(blocks) == 1 and not blocks[0].text.strip()


def _size(blocks: Sequence[ErrantBlock]) -> str:
    if _empty(blocks):
        return "is empty"
    return f"has {len(blocks)} sentence{'s' if len(blocks) != 1 else ''}"
