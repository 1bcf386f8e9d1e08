"""From a corrected sentence to an annotator's edits (the editor's "Annotate from a
correction…"), with the engine `m2lsp annotate` uses where it applies:

- English: ERRANT's edits and types (the extra `m2lsp[errant]` and a spaCy pipeline);
- char-level Chinese (every token of the `S` line one character): ChERRANT's char-level
  edits and types (the extra `m2lsp[zh]` and ChERRANT's tables), the first cheapest
  alignment, the correction as typed (no Traditional-to-Simplified conversion);
- otherwise, or where that engine is not installed: the plain token alignment (difflib,
  no junk heuristics), each edit given a default type, with a note that the types need
  checking.

Whatever the engine, the edits applied to the source give the corrected sentence (tokens
split at whitespace): `tests/annotation/test_from_correction.py` holds that as a property.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from m2lsp.errors import InputError, M2lspError
from m2lsp.model import Block

DEFAULT_TYPE = "UNK"
PLAIN = "alignment"
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True)
class Annotation:
    """The edit lines (whole `A` lines, with the annotator) and what made them."""

    lines: tuple[str, ...]
    engine: str  # errant-3.0.2 …, cherrant-char, or alignment
    note: str | None = None  # why the types need checking, where they do


@dataclass(frozen=True)
class Engines:
    """How to get each language's engine (None where it cannot be had: no extra, no model,
    no tables); the server keeps them loaded."""

    english: Callable[[], Any] | None = None
    chinese: Callable[[], Any] | None = None
    default_type: str = DEFAULT_TYPE


def language_of(tokens: Sequence[str]) -> str:
    """`zh` for char-level Chinese (Han characters, every token one character), `zh-words`
    for Chinese in longer tokens, else `en`."""
    if not any(_HAN.search(t) for t in tokens):
        return "en"
    return "zh" if all(len(t) == 1 for t in tokens) else "zh-words"


def annotate_correction(tokens: Sequence[str], corrected: str, annotator: str,
                        engines: Engines = Engines()) -> Annotation:
    """`annotator`'s edit lines turning `tokens` into `corrected` (a noop where they are
    the same)."""
    if corrected.split() == list(tokens):
        return Annotation((noop_line(annotator),), "same")
    language = language_of(tokens)
    why = None
    try:
        if language == "en" and engines.english is not None:
            return _english(engines.english(), tokens, corrected, annotator)
        if language == "zh" and engines.chinese is not None:
            return _chinese(engines.chinese(), tokens, corrected, annotator)
    except M2lspError as exc:
        why = str(exc)
    return plain_annotation(tokens, corrected, annotator, engines.default_type,
                            why or _no_engine(language))


def _no_engine(language: str) -> str:
    if language == "en":
        return "ERRANT is not installed (pip install 'm2lsp[errant]' and a spaCy pipeline)"
    if language == "zh":
        return ("ChERRANT's tables are not set (the setting cherrant-data) or "
                "pip install 'm2lsp[zh]' is missing")
    return "word-level Chinese has no typing engine here (ChERRANT types char-level M2)"


def noop_line(annotator: str) -> str:
    return f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{annotator}"


def edit_line(start: int, end: int, kind: str, correction: str, annotator: str) -> str:
    return f"A {start} {end}|||{kind}|||{correction}|||REQUIRED|||-NONE-|||{annotator}"


def plain_annotation(tokens: Sequence[str], corrected: str, annotator: str,
                     kind: str = DEFAULT_TYPE, why: str | None = None) -> Annotation:
    """The alignment's edits, each of type `kind`."""
    target = corrected.split()
    matcher = difflib.SequenceMatcher(None, list(tokens), target, autojunk=False)
    lines = tuple(edit_line(i1, i2, kind, " ".join(target[j1:j2]), annotator)
                  for op, i1, i2, j1, j2 in matcher.get_opcodes() if op != "equal")
    note = f"the types are {kind}: check them ({why})" if why else \
        f"the types are {kind}: check them"
    return Annotation(lines or (noop_line(annotator),), PLAIN, note)


def _renumbered(lines: Sequence[str], annotator: str) -> tuple[str, ...]:
    return tuple(line.rsplit("|||", 1)[0] + f"|||{annotator}" for line in lines
                 if line.startswith("A "))


def _english(annotator_engine: Any, tokens: Sequence[str], corrected: str,
             annotator: str) -> Annotation:
    [block] = annotator_engine.blocks([(" ".join(tokens), [" ".join(corrected.split())])])
    lines = _renumbered((block or "").splitlines(), annotator)
    engine = " ".join(annotator_engine.versions.values())
    return Annotation(lines or (noop_line(annotator),), engine)


def _chinese(annotator_engine: Any, tokens: Sequence[str], corrected: str,
             annotator: str) -> Annotation:
    from m2lsp.annotation.chinese import split

    if not corrected.split():
        raise InputError("ChERRANT does not annotate an empty sentence")
    target = split("".join(corrected.split()))
    found = annotator_engine.edit_sets(list(tokens), target)
    lines = tuple(edit.line(annotator) for edit in found[0]) if found else ()
    return Annotation(lines or (noop_line(annotator),), "cherrant-char")


def _target_annotator(label: str) -> str:
    """`T1-A0` and `T1` are annotator 1's target lines."""
    return label[1:].split("-", 1)[0]


def annotator_at(block: Block, row: int) -> str:
    """Whose edits the action replaces: the annotator of the `A` line at `row`, else the
    block's first annotator, else 0."""
    for edit in block.edits:
        if edit.row == row:
            return edit.annotator.strip()
    first = next(iter(block.by_annotator), None)
    return first if first is not None else "0"


def rewritten_block(block: Block, annotator: str, new: Sequence[str]) -> list[str]:
    """The block's lines after its `S` line with `annotator`'s `A` lines (and, in a
    ChERRANT file, its `T` lines) replaced by `new`, the other lines as they are.  The new
    lines go where that annotator's first line was, else before the first line of a
    higher-numbered annotator, else after the last line."""
    own = {e.row for e in block.edits if e.annotator.strip() == annotator}
    own |= {t.row for t in block.targets if _target_annotator(t.label) == annotator}
    rest = [(row, line) for row, line in enumerate(block.lines) if row and row not in own]
    at = min(own) if own else _insertion_row(block, annotator)
    before = [line for row, line in rest if row < at]
    return before + list(new) + [line for row, line in rest if row >= at]


def _insertion_row(block: Block, annotator: str) -> int:
    if annotator.isdigit():
        later = [e.row for e in block.edits if e.annotator.strip().isdigit()
                 and int(e.annotator) > int(annotator)]
        later += [t.row for t in block.targets if _target_annotator(t.label).isdigit()
                  and int(_target_annotator(t.label)) > int(annotator)]
        if later:
            return min(later)
    return len(block.lines)


def target_lines(annotation: Annotation, corrected: str, annotator: str) -> tuple[str, ...]:
    """The `T` line a ChERRANT file gives the new edits (`T<k>-A0 …`, or `T<k> 没有错误`)."""
    from m2lsp.annotation.chinese import NO_ERROR, split

    if all(line.startswith("A -1 -1|||noop") for line in annotation.lines):
        return (f"T{annotator} {NO_ERROR}",)
    return (f"T{annotator}-A0 {' '.join(split(''.join(corrected.split())))}",)
