"""Conversions between CGED (SGML, truth files) and char-level M2, through CGED sentences
(`CharSentence`; `writer.py` writes them as SGML or a truth file).

Offsets.  CGED counts characters from 1 and includes both ends: an R, S or W error at
`start_off`..`end_off` is the M2 span `start-1 end` (one token per character); an M
(missing) error at k marks the character before which something is missing, the M2
insertion point `k-1 k-1`; M2 back to CGED writes `k..k`, as CGED 2016-2021 do.  (CGED 2015
writes some M errors as wide as the missing word, `13..14` for two characters: M2 keeps only
the insertion point, so they come back as `13..13`.)

Corrections.  An error's own answer (the `answer`/`correction` attribute of 2016-2021 data)
is the edit's correction.  Where the data gives only the corrected sentence (2014-2016
`<CORRECTION>`), a sentence with one error has its correction read off the difference.
An error with no known correction is not an M2 edit: it is reported as unconvertible, or,
when asked for (`detection_only`), written under ERRANT's convention for errors marked but
not corrected: type `UNK`, the correction the text it covers (`-NONE-` for M), so applying it
changes nothing and scorers count it for detection only (its CGED type is lost; back in CGED
it is an S).  R errors correct to `-NONE-`.  M2 cannot hold overlapping or repeated edits of
one annotator nor offsets outside the sentence: an error that lies outside, or repeats or
overlaps an earlier one of its sentence, is reported and left out.  Edits are written in
offset order.

Round trips.  M2 -> CGED -> M2 is exact for char-level M2 with one annotator and R/M/S/W
types.  CGED -> M2 -> CGED keeps every error (type, offsets, answers); M2 has no sentence
ids, so ids come back numbered unless `ids` are given.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from m2lsp.errors import UsageError
from m2lsp.formats.cged.model import CgedDoc, CgedDocument, cged_type
from m2lsp.formats.m2.sentences import sentence_blocks, sentence_tokens
from m2lsp.formats.unconverted import Problems, Unconverted
from m2lsp.model import Block, Edit, M2Document, corrected_sentence

NONE = "-NONE-"


@dataclass(frozen=True)
class CharError:
    """One CGED error in 1-based inclusive character offsets."""

    start: int
    end: int
    type: str  # R M S W
    answer: str | None = None


@dataclass(frozen=True)
class CharSentence:
    id: str
    text: str
    errors: tuple[CharError, ...]
    correction: str | None = None  # the whole corrected sentence, if the data has it


# -- reading ------------------------------------------------------------------------------

def from_cged(document: CgedDocument, problems: Problems = None) -> list[CharSentence]:
    """The sentences of parsed CGED SGML; errors with unreadable offsets or types are left
    out and reported to `problems` (`m2lsp check` says what is wrong with them)."""
    out = []
    for doc in document.docs:
        errors = []
        for err in doc.errors:
            error = _error(err)
            if error is not None:
                errors.append(error)
            elif problems is not None:
                problems.append(Unconverted(
                    doc.id, f"error {err.type!r} has no readable type or offsets; it is left "
                    "out", err.span.line))
        out.append(CharSentence(doc.id, doc.text, tuple(errors), _sentence_correction(doc)))
    return out


def _sentence_correction(doc: CgedDoc) -> str | None:
    """The corrected sentence: `<CORRECTION>`, or (2014-2016) the one MISTAKE's."""
    if doc.correction is not None:
        return doc.correction
    own = [e.correction for e in doc.errors if e.correction is not None]
    return own[0] if len(own) == 1 and len(doc.errors) == 1 else None


def _error(err: Any) -> CharError | None:
    kind = cged_type(err.type)
    if kind is None or err.start is None or err.end is None:
        return None
    return CharError(err.start, err.end, kind.value, err.answer or None)


def from_m2(document: M2Document, annotator: str | None = None, problems: Problems = None
            ) -> list[CharSentence]:
    """Char-level Chinese M2 as CGED sentences: one annotator's edits (default: each
    block's first).  CGED positions are characters of Chinese text: other M2 (English,
    Chinese cut into words) is a UsageError (`char_level_problem`).  An edit that is no
    span of its sentence (past its end, backwards) or repeats an earlier one cannot be a
    CGED error: it is reported to `problems` and left out."""
    problem = char_level_problem(document)
    if problem is not None:
        raise UsageError(problem)
    out = []
    for number, (block, start) in enumerate(sentence_blocks(document), 1):
        tokens = sentence_tokens(block)
        chosen = annotator if annotator is not None else _first_annotator(block)
        edits = _convertible([e for e in block.edits if e.annotator.strip() == chosen
                              and not e.is_noop], len(tokens), str(number), start, problems)
        errors = tuple(_char_error(e, tokens) for e in edits)
        text = "".join(tokens)
        out.append(CharSentence(str(number), text, errors,
                                _joined(corrected_sentence(block, chosen)) if edits else None))
    return out


def char_level_problem(document: M2Document) -> str | None:
    """Why M2 cannot be CGED (None: it is char-level Chinese, each token one character)."""
    from m2lsp.scripts import CHARS, script, segmentation

    lines = [b.sentence.text for b, _ in sentence_blocks(document) if b.sentence is not None]
    found = script("\n".join(lines[:200]))
    if found not in (None, "Chinese"):
        return (f"the M2 is {found} text; CGED positions are characters of Chinese text, "
                "so its token offsets would become wrong character offsets")
    cut = segmentation(lines)
    if cut not in (None, CHARS):
        return ("the M2 is Chinese cut into words; CGED positions are characters: convert "
                "char-level M2 (one character a token, as MuCGEC's .char files are)")
    return None


def _convertible(edits: list[Edit], length: int, sentence: str, start: int,
                 problems: Problems) -> list[Edit]:
    """The edits that are spans of the sentence, each once; the others reported."""
    kept, seen = [], set()
    for edit in edits:
        key = (edit.start, edit.end, edit.type.strip(), edit.canonical)
        why = (f"edit {edit.start} {edit.end} ends before it starts"
               if edit.start > edit.end else
               f"edit {edit.start} {edit.end} lies outside the sentence of {length} "
               "characters" if not 0 <= edit.start <= edit.end <= length else
               f"edit {edit.start} {edit.end} repeats an earlier edit" if key in seen
               else None)
        if why is None:
            kept.append(edit)
            seen.add(key)
        elif problems is not None:
            problems.append(Unconverted(sentence, why, start + edit.row))
    return kept


def _first_annotator(block: Block) -> str:
    return block.edits[0].annotator.strip() if block.edits else "0"


def _joined(text: str | None) -> str | None:
    return None if text is None else "".join(text.split())


def _char_error(edit: Edit, tokens: Sequence[str]) -> CharError:
    kind = _m2_type(edit.type)
    original = "".join(tokens[edit.start:edit.end])
    first = edit.canonical[0] if edit.canonical else ""
    answer = "".join(first.split())
    if edit.start == edit.end:
        return CharError(edit.start + 1, edit.start + 1, kind or "M", answer or None)
    known = answer != original and kind != "R"
    return CharError(edit.start + 1, edit.end, kind or "S", answer if known else None)


def _m2_type(text: str) -> str | None:
    """R M S W, from a CGED type or an ERRANT operation (M: missing, U: unnecessary,
    R: replacement)."""
    kind = cged_type(text)
    if kind is not None:
        return kind.value
    return {"M": "M", "U": "R", "R": "S"}.get(text.split(":", 1)[0])


# -- writing ------------------------------------------------------------------------------

def to_m2(sentences: Iterable[CharSentence], detection_only: bool = False,
          problems: Problems = None) -> str:
    """Char-level M2 (annotator 0; a sentence without errors gets a noop).  What M2 cannot
    carry goes to `problems` and is left out (see the module's doc)."""
    blocks = []
    for sentence in sentences:
        chars = list(sentence.text.replace(" ", "").replace("\t", ""))
        lines = ["S " + " ".join(chars)]
        lines += _edit_lines(sentence, chars, detection_only, problems)
        if not sentence.errors:
            lines.append("A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n" if blocks else ""


def _edit_lines(sentence: CharSentence, chars: list[str], detection_only: bool,
                problems: Problems) -> list[str]:
    """The sentence's A lines in offset order, without what M2 cannot hold."""
    lines: list[str] = []
    kept: list[CharError] = []
    pairs = sorted(zip(sentence.errors, _corrections(sentence), strict=True),
                   key=lambda pair: _span(pair[0]))
    for error, answer in pairs:
        start, end = _span(error)
        why = _unconvertible(error, answer, (start, end), kept, detection_only, len(chars))
        if why is not None:
            if problems is not None:
                problems.append(Unconverted(sentence.id, f"{_named(error)} {why}; it is "
                                            "left out"))
            continue
        kept.append(error)
        kind, text = error.type, _correction_text(error, answer, " ".join(chars[start:end]))
        if answer is None and error.type != "R":
            kind = "UNK"
        lines.append(f"A {start} {end}|||{kind}|||{text}|||REQUIRED|||-NONE-|||0")
    return lines


def _unconvertible(error: CharError, answer: str | None, span: tuple[int, int],
                   kept: list[CharError], detection_only: bool, length: int) -> str | None:
    """Why an error cannot be an M2 edit beside the edits `kept` before it, or None."""
    if not 0 <= span[0] <= span[1] <= length:
        return f"lies outside the sentence of {length} characters"
    if answer is None and error.type != "R" and not detection_only:
        return ("has no correction (the data gives none for it), so it is no M2 edit; "
                "--detection-only writes it as an UNK edit")
    for earlier in kept:
        if _span(earlier) == span:
            return f"has the span of {_named(earlier)} before it"
        if _overlap(_span(earlier), span):
            return (f"overlaps {_named(earlier)}: M2 cannot hold overlapping edits of one "
                    "annotator")
    return None


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two spans overlap as M401 judges them (an insertion inside a span too)."""
    if a[0] == a[1] or b[0] == b[1]:
        return a[0] < b[0] < a[1] or b[0] < a[0] < b[1]
    return a[0] < b[1] and b[0] < a[1]


def _named(error: CharError) -> str:
    return f"error {error.type} at {error.start}..{error.end}"


def _correction_text(error: CharError, answer: str | None, original: str) -> str:
    if error.type == "R":
        return NONE
    if answer is not None:
        return " ".join(answer) or NONE
    return original or NONE


def _span(error: CharError) -> tuple[int, int]:
    if error.type == "M":
        return error.start - 1, error.start - 1
    return error.start - 1, error.end


def _corrections(sentence: CharSentence) -> list[str | None]:
    """Each error's correction: its answer, else (one error and a corrected sentence) the
    difference, else None."""
    answers = [e.answer for e in sentence.errors]
    if len(sentence.errors) == 1 and answers[0] is None and sentence.correction:
        answers[0] = _difference(sentence.text, sentence.correction, *_span(sentence.errors[0]))
    return answers


def _difference(text: str, corrected: str, start: int, end: int) -> str | None:
    prefix, suffix = text[:start], text[end:]
    if (corrected.startswith(prefix) and corrected.endswith(suffix)
            and len(prefix) + len(suffix) <= len(corrected)):
        return corrected[len(prefix):len(corrected) - len(suffix)]
    return None
