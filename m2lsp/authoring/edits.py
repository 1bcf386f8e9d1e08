"""An annotator's edits made without counting tokens: an edit for a span of an S line's
tokens and a correction, typed by the engine `m2lsp annotate` uses (ERRANT for English,
ChERRANT's for char-level Chinese, else the plain alignment's default type); an edit typed
again; and an annotator's edits realigned to an edited correction, keeping what was set by
hand where the edit itself did not change.

Typing one edit: the engine annotates the whole sentence with that edit made; the type of
its edit with the same span is the edit's type (else the one type of the engine's edits
inside the span, else the default type, with a note).

Writing one edit: a correction typed as raw text (`a car.`) is tokenised by the language's
pipeline where the engine has one (English: spaCy's tokenizer, as `m2lsp annotate --tok`);
a deletion's correction is empty, as ERRANT and the NUS scorer's gold write it; and a span
whose correction only adds words (`car` -> `a car`), or only removes some, is written
minimal, as errant_parallel writes it (`A 3 3|||M:DET|||a`).

Realigning: the edits of the annotator that the change of the corrected sentence does not
touch (their corrected words and the words beside them unchanged) stay as they were, split
or typed by hand; the rest are the engine's."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from m2lsp.annotation.from_correction import Engines, annotate_correction, language_of
from m2lsp.authoring.lines import edit_line, in_order, with_lines
from m2lsp.errors import M2lspError, UsageError
from m2lsp.model import NONE_CORRECTION, Block, Edit


@dataclass(frozen=True)
class Typed:
    """An edit's type, the engine that gave it, and why it may need checking."""

    type: str
    engine: str
    note: str | None = None


@dataclass(frozen=True)
class Rewrite:
    """A block's new lines after its S line, and what typed the edits."""

    lines: list[str]
    engine: str
    note: str | None = None


def corrected_tokens(tokens: Sequence[str], start: int, end: int, correction: str
                     ) -> list[str]:
    return [*tokens[:start], *correction.split(), *tokens[end:]]


def typed(tokens: Sequence[str], start: int, end: int, correction: str,
          engines: Engines) -> Typed:
    """The type of the edit `start`..`end` -> `correction` (see the module's docstring)."""
    correction = "" if correction.strip() == NONE_CORRECTION else correction
    target = " ".join(corrected_tokens(tokens, start, end, correction))
    found = annotate_correction(tokens, target, "0", engines)
    spans = [_parts(line) for line in found.lines if not line.startswith("A -1 -1")]
    same = [kind for s, e, kind in spans if (s, e) == (start, end)]
    inside = {kind for s, e, kind in spans if start <= s and e <= end}
    if same:
        return Typed(same[0], found.engine, found.note)
    if len(inside) == 1:
        return Typed(inside.pop(), found.engine, found.note)
    default = engines.default_type
    return Typed(default, found.engine, f"the engine cut this edit otherwise: typed "
                 f"{default}, check it" if spans else found.note)


def _parts(line: str) -> tuple[int, int, str]:
    head, kind = line.split("|||")[:2]
    _, start, end = head.split()
    return int(start), int(end), kind


def check_span(block: Block, start: int, end: int) -> None:
    count = block.token_count
    if count is None:
        raise UsageError("the block has no S line")
    if not 0 <= start <= end <= count:
        raise UsageError(f"tokens {start}-{end} are not a span of the sentence's {count} "
                         "tokens")


def added(block: Block, start: int, end: int, correction: str, annotator: str,
          engines: Engines) -> Rewrite:
    """The block with an edit of `annotator` for tokens `start`..`end` (end exclusive)
    becoming `correction`, typed by the engine and placed among that annotator's lines in
    offset order (its noop, if any, removed)."""
    check_span(block, start, end)
    assert block.sentence is not None
    tokens = block.sentence.tokens
    words = tokenised(tokens, correction, engines).split()
    start, end, words = minimal(tokens, start, end, words)
    mine = block.by_annotator.get(annotator, [])
    _refuse_again(mine, start, end, " ".join(words))
    found = typed(tokens, start, end, " ".join(words), engines)
    line = edit_line(start, end, found.type, " ".join(words), annotator)
    notes = [n for n in (found.note, untokenised(tokens, " ".join(words), engines)) if n]
    return Rewrite(with_lines(block, annotator, in_order(mine, line, start, end)),
                   found.engine, "; ".join(notes) or None)


def _refuse_again(mine: Sequence[Edit], start: int, end: int, correction: str) -> None:
    """A UsageError where the annotator has this very edit already (its span and a
    correction alike): added twice, the linter would flag the copy."""
    wanted = correction or NONE_CORRECTION
    for edit in mine:
        if (edit.start, edit.end) == (start, end) and wanted in (
                c.strip() or NONE_CORRECTION for c in edit.corrections):
            raise UsageError(f"tokens {start}-{end} have this edit already "
                             f"({edit.text.rstrip()})")


def minimal(tokens: Sequence[str], start: int, end: int, words: Sequence[str]
            ) -> tuple[int, int, list[str]]:
    """The span and correction with the words both sides share at either end set apart,
    where what is left only adds words or only removes some (`car` -> `a car`: 3 3 `a`);
    else as given (a replacement keeps the span the annotator chose)."""
    old, new = list(tokens[start:end]), list(words)
    if NONE_CORRECTION in new:
        new = []
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    left, added = old[head:len(old) - tail], new[head:len(new) - tail]
    if bool(left) == bool(added):
        return start, end, new
    return start + head, end - tail, added


def tokenised(tokens: Sequence[str], text: str, engines: Engines) -> str:
    """`text` (a correction or a corrected sentence) in the tokens of the sentence's
    language: English by the engine's spaCy tokenizer (`a car.` -> `a car .`), where it
    is installed, else by spaCy's English tokenizer alone (a word that is one of
    `tokens` kept as it is); char-level Chinese in
    characters (`一个车。` -> `一 个 车 。`); otherwise split at whitespace (`untokenised`
    says where that may be wrong)."""
    words = " ".join(text.split())
    if words in ("", NONE_CORRECTION):
        return ""
    language = language_of(tokens)
    if language == "zh":
        from m2lsp.annotation.chinese import split

        return " ".join(split("".join(words.split())))
    nlp = _english_tokenizer(engines) if language == "en" else None
    if nlp is None:
        return words
    # the tokenizer cuts at whitespace first, so a word at a time is the same, and a word
    # that is one of the sentence's tokens stays one: a source tokenised otherwise ("5."
    # one token) gets no edit where the text typed is its own
    source = set(tokens)
    return " ".join(part for word in words.split(" ") for part in (
        [word] if word in source else
        [t.text for t in nlp.make_doc(word) if not t.is_space]))


def _english_tokenizer(engines: Engines) -> Any | None:
    """What cuts English text into tokens: the engine's spaCy pipeline, else spaCy's
    English tokenizer alone (the rules of the English pipelines' tokenizers, no model to
    load: typing off, or no model installed), else None (no spaCy)."""
    if engines.english is not None:
        try:
            return engines.english().nlp
        except (M2lspError, AttributeError):
            pass
    return _blank_english()


@cache
def _blank_english() -> Any | None:
    try:
        import spacy
    except ImportError:
        return None
    return spacy.blank("en")


# a word with punctuation stuck to it (`car.`, `"a`, `(the`): text a tokenizer would cut
_STUCK = re.compile(r"\w[.,!?;:\")\]]+(?:\s|$)|(?:^|\s)[\"(\[]+\w")


def untokenised(tokens: Sequence[str], written: str, engines: Engines) -> str | None:
    """Why `written` (a correction as it will be stored) may not be in the file's tokens:
    English words with punctuation stuck to them, kept as typed where spaCy is missing;
    else None."""
    if language_of(tokens) != "en" or not _STUCK.search(written) or \
            _english_tokenizer(engines) is not None:
        return None
    return (f"the correction \"{written}\" was kept as typed: without spaCy nothing split its "
            "punctuation from its words (install it: pip install 'm2lsp[errant]'), so "
            "check its tokens")


def retyped(block: Block, row: int, engines: Engines) -> Rewrite:
    """The block with the edit at `row` typed again by the engine (every other field as
    written)."""
    edit = next((e for e in block.edits if e.row == row), None)
    if edit is None or edit.is_noop or block.sentence is None:
        raise UsageError("no edit to type on this line")
    check_span(block, edit.start, edit.end)
    first = edit.canonical[0] if edit.canonical else ""
    found = typed(block.sentence.tokens, edit.start, edit.end, first, engines)
    fields = edit.text.split("|||")
    fields[1] = found.type
    lines = [("|||".join(fields) if e.row == row else e.text)
             for e in block.by_annotator[edit.annotator.strip()]]
    return Rewrite(with_lines(block, edit.annotator.strip(), lines), found.engine,
                   found.note)


def realigned(block: Block, annotator: str, corrected: str, engines: Engines) -> Rewrite:
    """The block with `annotator`'s edits made again from `corrected` (the whole corrected
    sentence), each new edit whose span and corrections an old edit of the annotator had
    keeping that edit's line as written (its hand-set type, REQUIRED/OPTIONAL field and
    comment)."""
    if block.sentence is None:
        raise UsageError("the block has no S line")
    tokens = block.sentence.tokens
    corrected = tokenised(tokens, corrected, engines)
    found = annotate_correction(tokens, corrected, annotator, engines)
    lines = untouched_kept(block, annotator, corrected.split(),
                           kept_by_hand(found.lines, block, annotator))
    return Rewrite(with_lines(block, annotator, lines), found.engine, found.note)


@dataclass(frozen=True)
class _Placed:
    """An edit of the annotator and the words its correction gives in the corrected
    sentence (`first`..`last`, end exclusive)."""

    edit: Edit
    first: int
    last: int


def untouched_kept(block: Block, annotator: str, target: Sequence[str],
                   lines: Sequence[str]) -> list[str]:
    """`lines` (the engine's edits of `annotator` for `target`) with the annotator's old
    edits that the change does not touch put back as they were, and the engine's edits
    that would clash with them left out; as given where the result would not make
    `target` (the engine merged a kept edit with a change) or nothing is kept."""
    assert block.sentence is not None
    tokens = block.sentence.tokens
    placed = _placed(tokens, block.by_annotator.get(annotator, []))
    if placed is None or not placed[0] or any(line.startswith("A -1 -1") for line in lines):
        return list(lines)
    edits, before = placed
    changed = [(i1, i2) for op, i1, i2, _, _ in difflib.SequenceMatcher(
        None, before, list(target), autojunk=False).get_opcodes() if op != "equal"]
    kept = [p.edit for p in edits
            if not any(max(p.first, i1) <= min(p.last, i2) for i1, i2 in changed)]
    if not kept:
        return list(lines)
    rest = [line for line in lines if not any(_clash(_parts(line)[:2], (e.start, e.end))
                                              for e in kept)]
    spans = sorted([(e.start, e.end, e.text.rstrip("\r\n"), e.canonical[0] if e.canonical
                     else "") for e in kept] +
                   [(*_parts(line)[:2], line, line.split("|||")[2]) for line in rest])
    made = _applied(tokens, [(s, e, c) for s, e, _, c in spans])
    return [text for _, _, text, _ in spans] if made == list(target) else list(lines)


def _placed(tokens: Sequence[str], edits: Sequence[Edit]
            ) -> tuple[list[_Placed], list[str]] | None:
    """The annotator's edits placed in the sentence they correct it to, and that sentence;
    None where they cannot be applied."""
    out: list[_Placed] = []
    words: list[str] = []
    at = 0
    for edit in sorted((e for e in edits if not e.is_noop), key=lambda e: (e.start, e.end)):
        if edit.start < at or edit.end > len(tokens) or edit.start > edit.end:
            return None
        words.extend(tokens[at:edit.start])
        first = len(words)
        words.extend((edit.canonical[0] if edit.canonical else "").split())
        out.append(_Placed(edit, first, len(words)))
        at = edit.end
    words.extend(tokens[at:])
    return out, words


def _clash(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two spans share a token, or insert at the same point."""
    return (a[0] < b[1] and b[0] < a[1]) or a[0] == a[1] == b[0] == b[1]


def _applied(tokens: Sequence[str], spans: Sequence[tuple[int, int, str]]
             ) -> list[str] | None:
    out: list[str] = []
    at = 0
    for start, end, correction in spans:
        if start < at:
            return None
        out.extend(tokens[at:start])
        out.extend(("" if correction == NONE_CORRECTION else correction).split())
        at = end
    return [*out, *tokens[at:]]


def kept_by_hand(lines: Sequence[str], block: Block, annotator: str) -> list[str]:
    """New A lines of `annotator`, each one whose span and corrections an old line of the
    annotator in `block` had replaced by that old line (its type, REQUIRED/OPTIONAL field
    and comment as set by hand)."""
    old = {(e.start, e.end, e.canonical): e for e in block.by_annotator.get(annotator, [])}
    return [_kept(line, old) for line in lines]


def _kept(line: str, old: dict[tuple, Edit]) -> str:
    if line.startswith("A -1 -1"):
        return line
    start, end, _ = _parts(line)
    correction = line.split("|||")[2]
    canonical = tuple("" if c == NONE_CORRECTION else c.strip()
                      for c in correction.split("||"))
    before = old.get((start, end, canonical))
    return before.text.rstrip("\r\n") if before is not None else line
