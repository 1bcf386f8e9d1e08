"""Conversions between CGED SGML, CGED truth files, char-level M2 and parallel text.

Offsets.  CGED counts characters from 1 and includes both ends: an R, S or W error at
`start_off`..`end_off` is the M2 span `start-1 end` (one token per character); an M
(missing) error at k marks the character before which something is missing, the M2
insertion point `k-1 k-1`; M2 back to CGED writes `k..k`, as CGED 2016-2021 do.  (CGED 2015
writes some M errors as wide as the missing word, `13..14` for two characters: M2 keeps only
the insertion point, so they come back as `13..13`.)

Corrections.  An error's own answer (the `answer`/`correction` attribute of 2016-2021 data)
is the edit's correction.  Where the data gives only the corrected sentence (2014-2016
`<CORRECTION>`), a sentence with one error has its correction read off the difference.
An error with no known correction becomes a *detection-only* edit whose correction is the
text it covers (`-NONE-` for M), so applying it changes nothing; converting back writes no
answer for it.  R errors correct to `-NONE-`.

Round trips.  M2 -> CGED -> M2 is exact for char-level M2 with one annotator and R/M/S/W
types.  CGED -> M2 -> CGED keeps every error (type, offsets, answers); M2 has no sentence
ids, so ids come back numbered unless `ids` are given.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from m2lsp.model import Block, CgedDoc, CgedDocument, M2Document, cged_type, corrected_sentence

NONE = "-NONE-"


@dataclass(frozen=True)
class CharError:
    """One CGED error in 1-based inclusive character offsets."""

    start: int
    end: int
    type: str  # R M S W
    answer: str | None = None


@dataclass(frozen=True)
class Unconverted:
    """Something a conversion could not carry over: where (a sentence id, or the M2 block's
    number and first line) and why."""

    where: str
    reason: str


Problems = list[Unconverted] | None  # where a conversion reports what it could not carry


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
                    f"sentence {doc.id} (line {err.span.line + 1})",
                    f"error {err.type!r} has no readable type or offsets; it is left out"))
        out.append(CharSentence(doc.id, doc.text, tuple(errors), _sentence_correction(doc)))
    return out


def _sentence_correction(doc: CgedDoc) -> str | None:
    """The corrected sentence: `<CORRECTION>`, or (2014-2016) the one MISTAKE's."""
    if doc.correction is not None:
        return doc.correction
    own = [e.correction for e in doc.errors if e.correction is not None]
    return own[0] if len(own) == 1 and len(doc.errors) == 1 else None


def _error(err) -> CharError | None:
    kind = cged_type(err.type)
    if kind is None or err.start is None or err.end is None:
        return None
    return CharError(err.start, err.end, kind.value, err.answer or None)


def from_m2(document: M2Document, annotator: str | None = None) -> list[CharSentence]:
    """Char-level M2 as CGED sentences: one annotator's edits (default: each block's first).
    Every edit is carried over with its offsets, even one outside the sentence (as CGED
    data has them too: `m2lsp check` reports both)."""
    out = []
    for number, block in enumerate((b for b in document.blocks if b.sentence is not None), 1):
        chosen = annotator if annotator is not None else _first_annotator(block)
        edits = [e for e in block.edits if e.annotator.strip() == chosen and not e.is_noop]
        errors = tuple(_char_error(e, block) for e in edits)
        text = "".join(block.sentence.tokens)
        out.append(CharSentence(str(number), text, errors,
                                _joined(corrected_sentence(block, chosen)) if edits else None))
    return out


def _sentences(document: M2Document) -> Iterable[tuple[Block, int]]:
    """The blocks that have a sentence, with their first line (0-based)."""
    return ((b, start) for b, start in zip(document.blocks, document.starts, strict=True)
            if b.sentence is not None)


def _block_name(number: int, start: int) -> str:
    return f"sentence {number} (line {start + 1})"


def _first_annotator(block: Block) -> str:
    return block.edits[0].annotator.strip() if block.edits else "0"


def _joined(text: str | None) -> str | None:
    return None if text is None else "".join(text.split())


def _char_error(edit, block: Block) -> CharError:
    kind = _m2_type(edit.type)
    original = "".join(block.sentence.tokens[edit.start:edit.end])
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

def to_m2(sentences: Iterable[CharSentence]) -> str:
    """Char-level M2 (annotator 0; a sentence without errors gets a noop)."""
    blocks = []
    for sentence in sentences:
        chars = list(sentence.text.replace(" ", "").replace("\t", ""))
        lines = ["S " + " ".join(chars)]
        corrections = _corrections(sentence)
        for error, answer in zip(sentence.errors, corrections, strict=True):
            start, end = _span(error)
            original = " ".join(chars[start:end])
            if error.type == "R":
                text = NONE
            elif answer is not None:
                text = " ".join(answer) or NONE
            else:
                text = original or NONE
            lines.append(f"A {start} {end}|||{error.type}|||{text}|||REQUIRED|||-NONE-|||0")
        if not sentence.errors:
            lines.append("A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n" if blocks else ""


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


def to_cged(sentences: Iterable[CharSentence], ids: Sequence[str] | None = None) -> str:
    """CGED SGML in the 2016-2021 `<TEXT>`/`<ERROR>` style."""
    out = []
    for number, sentence in enumerate(sentences):
        sid = ids[number] if ids is not None and number < len(ids) else sentence.id
        out += ["<DOC>", f"<TEXT id={quoteattr(sid)}>", escape(sentence.text), "</TEXT>"]
        if sentence.correction is not None:
            out += ["<CORRECTION>", escape(sentence.correction), "</CORRECTION>"]
        for error in sentence.errors:
            answer = "" if error.answer is None else f" answer={quoteattr(error.answer)}"
            out.append(f'<ERROR start_off="{error.start}" end_off="{error.end}" '
                       f'type="{error.type}"{answer}></ERROR>')
        out.append("</DOC>")
    return "\n".join(out) + "\n" if out else ""


def to_truth(sentences: Iterable[CharSentence]) -> str:
    """A CGED truth file: `id, start, end, TYPE[, answer]`, or `id, correct`."""
    lines = []
    for sentence in sentences:
        if not sentence.errors:
            lines.append(f"{sentence.id}, correct")
        for error in sentence.errors:
            answer = f", {error.answer}" if error.answer and error.type in "SM" else ""
            lines.append(f"{sentence.id}, {error.start}, {error.end}, {error.type}{answer}")
    return "\n".join(lines) + "\n" if lines else ""


def to_parallel(document: M2Document, spaces: bool = True, problems: Problems = None) -> str:
    """One line per sentence: the source, then each annotator's corrected sentence, tab
    separated (annotators in order of first appearance; none -> the source again).  An
    annotator whose edits cannot be applied (overlapping, outside the sentence) gets the
    source, and is reported to `problems`."""
    lines = []
    for number, (block, start) in enumerate(_sentences(document), 1):
        source = " ".join(block.sentence.tokens)
        annotators = list(dict.fromkeys(e.annotator.strip() for e in block.edits)) or ["0"]
        fields = [source]
        for annotator in annotators:
            corrected = corrected_sentence(block, annotator)
            if corrected is None and problems is not None:
                problems.append(Unconverted(
                    _block_name(number, start), f"annotator {annotator}'s edits overlap or "
                    "lie outside the sentence; the source stands in for the correction"))
            fields.append(source if corrected is None else corrected)
        if not spaces:
            fields = ["".join(f.split()) for f in fields]
        lines.append("\t".join(_tabless(f) for f in fields))
    return "\n".join(lines) + "\n" if lines else ""


def _tabless(text: str) -> str:
    return re.sub(r"[\t\n]", " ", text)

