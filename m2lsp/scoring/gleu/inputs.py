"""GLEU's inputs: plain text files of one sentence a line (source, references, hypothesis), as
JFLEG ships them, or an M2 file whose annotators are the references.

Lines are read as `gleu.py` reads them (a text file's lines: `\\n`, `\\r\\n` or `\\r` end one)
and split on whitespace.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from m2lsp.errors import InputError
from m2lsp.parsing.source import Input, read_source

if TYPE_CHECKING:
    from m2lsp.model import Block, M2Document

LINE_END = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class GleuInputs:
    """Token lists: `references[i][r]` is sentence i's r-th reference."""

    sources: tuple[tuple[str, ...], ...]
    references: tuple[tuple[tuple[str, ...], ...], ...]
    hypotheses: tuple[tuple[str, ...], ...]
    reference_texts: tuple[str, ...]  # what the references were read from, for the signature


def lines(text: str) -> list[str]:
    """A text file's lines as Python's file iteration yields them, without their ends."""
    out = LINE_END.split(text)
    if out and out[-1] == "":
        out.pop()
    return out


def _tokens(path: Input, what: str, encoding: str | None) -> tuple[list[tuple[str, ...]], str]:
    text = read_source(path, what, encoding).text
    return [tuple(line.split()) for line in lines(text)], text


def read_plain(hypothesis: Input, source: Input, references: Sequence[Input],
               encoding: str | None = None, warn: Callable[[str], None] | None = None
               ) -> GleuInputs:
    """Hypothesis, source and reference files of one sentence a line, the same count each;
    or MultiGEC-2025's essay files (recognised by content), one essay a line as the shared
    task made them (`formats.multigec.parser.aligned`)."""
    essays = read_essays(hypothesis, source, references, encoding, warn)
    if essays is not None:
        return essays
    hyp, _ = _tokens(hypothesis, "hypothesis", encoding)
    src, _ = _tokens(source, "source", encoding)
    refs, texts = read_references(references, source, len(src), encoding)
    _same_count(hypothesis, len(hyp), source, len(src))
    return GleuInputs(tuple(src), refs, tuple(hyp), texts)


def read_essays(hypothesis: Input, source: Input, references: Sequence[Input],
                encoding: str | None = None, warn: Callable[[str], None] | None = None
                ) -> GleuInputs | None:
    """MultiGEC essay files as GLEU's lines (None: the source is not one); what the
    shared task's evaluation would fill in (a missing essay) is said through `warn`."""
    from m2lsp.formats.multigec.parser import aligned, is_essays

    orig = read_source(source, "source", encoding).text
    if not is_essays(orig):
        return None
    texts = [read_source(p, "reference", encoding).text for p in references]
    hyp_text = read_source(hypothesis, "hypothesis", encoding).text
    for path, text in ((hypothesis, hyp_text), *zip(references, texts, strict=True)):
        if not is_essays(text):
            raise InputError(f"{path} is not in MultiGEC's essay format, but the source "
                             f"{source} is: give every file in it (### essay_id = N)")
    _, src, hyp, columns, notes = aligned(orig, hyp_text, texts, [str(p) for p in references])
    for note in notes:
        if warn is not None:
            warn(f"warning: {hypothesis}: {note}")
    refs = tuple(zip(*(tuple(tuple(line.split()) for line in c) for c in columns), strict=True))
    return GleuInputs(tuple(tuple(s.split()) for s in src), refs,
                      tuple(tuple(h.split()) for h in hyp), tuple(texts))


def read_references(paths: Sequence[Input], source: Input | str, count: int,
                    encoding: str | None = None
                    ) -> tuple[tuple[tuple[tuple[str, ...], ...], ...], tuple[str, ...]]:
    """Reference files of `count` lines each (as many as the source has): per sentence its
    references' tokens, and the files' texts."""
    columns, texts = [], []
    for path in paths:
        tokens, text = _tokens(path, "reference", encoding)
        _same_count(path, len(tokens), source, count)
        columns.append(tokens)
        texts.append(text)
    return (tuple(zip(*columns, strict=True)) if columns else ()), tuple(texts)


def _same_count(path: Input, count: int, source: Input | str, expected: int) -> None:
    if count != expected:
        raise InputError(f"{path} has {count} lines but the source {source} has {expected}; "
                         "GLEU pairs them line by line")


def read_m2(hypothesis: Input, gold: Input, source: Input | None = None,
            encoding: str | None = None) -> GleuInputs:
    """References from an M2 file: each annotator's corrected sentence (first alternative of
    each edit); an annotator with no line in a sentence leaves it as it is (M2: no edit).  The
    source is the S lines unless `source` is given."""
    from m2lsp.parsing.m2 import parse_m2

    text = read_source(gold, "gold", encoding)
    blocks, corrections = m2_references(parse_m2(text), gold)
    references = tuple(tuple(tuple(r.split()) for r in refs) for refs in corrections)
    src = [tuple(b.sentence.text.split()) if b.sentence is not None else () for b in blocks]
    if source is not None:
        src, _ = _tokens(source, "source", encoding)
        _same_count(gold, len(blocks), source, len(src))
    hyp, _ = _tokens(hypothesis, "hypothesis", encoding)
    if len(hyp) != len(blocks):
        raise InputError(f"hypothesis file {hypothesis} has {len(hyp)} lines but gold file "
                         f"{gold} has {len(blocks)} sentences")
    return GleuInputs(tuple(src), references, tuple(hyp), (text.text,))


def m2_references(document: M2Document, gold: Input) -> tuple[list[Block], list[list[str]]]:
    """The blocks with a sentence of an M2 gold, and each one's references: every
    annotator's corrected sentence (an annotator with no line in a sentence leaves it as it
    is; no annotator at all: the sentence itself)."""
    found = [(start, b) for start, b in zip(document.starts, document.blocks, strict=True)
             if b.sentence is not None]
    annotators = list(dict.fromkeys(e.annotator.strip() for _, b in found for e in b.edits)) \
        or ["0"]
    return ([b for _, b in found],
            [[corrected(b, start, a, gold) for a in annotators] for start, b in found])


def corrected(block: Block, start: int, annotator: str, gold: Input) -> str:
    """An annotator's corrected sentence, or an InputError naming the block."""
    from m2lsp.model import corrected_sentence

    sentence = corrected_sentence(block, annotator)
    if sentence is None:
        raise InputError(f"{gold}:{start + 1}: annotator {annotator}'s edits overlap or "
                         "lie outside the sentence, so its corrected sentence is unknown; "
                         f"`m2lsp check {gold}` names the edits")
    return sentence
