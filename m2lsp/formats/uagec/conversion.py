"""UA-GEC's annotated texts to M2 and to parallel text, over the corpus's own tokenised
sentences (`source-sentences-tokenized/DOC.src.txt`, `target-sentences-tokenized/DOC.aN.txt`
beside `annotated/DOC.aN.ann`).

Each annotation becomes one M2 edit where it stands: the source tokens its source text
touches, corrected into the target tokens its correction touches (found by reading each
token's place in the source and target texts), typed with its `error_type`; annotations
that touch the same token make one edit.  A document starts with a heading sentence
`# DOC` (no edits), as UA-GEC's own M2 files have it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from m2lsp.errors import InputError
from m2lsp.formats.uagec.model import AnnotatedText, Annotation

_NAME = re.compile(r"(?P<doc>[^.]+)\.a(?P<annotator>\d+)\.ann$")
NOOP = "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{coder}"


@dataclass(frozen=True)
class Tokens:
    """A text's tokenised sentences, each token's character span in the text."""

    sentences: tuple[tuple[str, ...], ...]
    spans: tuple[tuple[tuple[int, int], ...], ...]


def located(text: str, sentences: Sequence[Sequence[str]], what: str) -> Tokens:
    """Each token's place in `text`, read in order (a token not found there is an
    InputError naming it: the tokenised file is not of this text)."""
    at = 0
    spans = []
    for number, sentence in enumerate(sentences, 1):
        row = []
        for token in sentence:
            start = text.find(token, at)
            if start < 0:
                raise InputError(f"{what}: sentence {number}'s token {token!r} is not in the "
                                 f"text after character {at}: the tokenised sentences are "
                                 "not of this document")
            row.append((start, start + len(token)))
            at = start + len(token)
        spans.append(tuple(row))
    rest = [line for line in text[at:].splitlines() if line.strip()]
    if rest:
        lines = sum(1 for line in text.splitlines() if line.strip())
        raise InputError(f"{what}: its tokenised file has {len(sentences)} sentence(s), but "
                         f"the text has {lines} non-empty line(s) and goes on after them "
                         f"({len(rest)} more, first {rest[0][:60]!r}): every sentence of "
                         "the text, with its edits, must be in the tokenised file")
    return Tokens(tuple(tuple(s) for s in sentences), tuple(spans))


def target_spans(document: AnnotatedText) -> list[tuple[int, int]]:
    """Where each annotation's correction stands in the target text."""
    shift, out = 0, []
    for a in document.annotations:
        start = a.start + shift
        out.append((start, start + len(a.target)))
        shift += len(a.target) - (a.end - a.start)
    return out


def _touched(spans: Sequence[tuple[int, int]], start: int, end: int) -> tuple[int, int]:
    """The token range a character range touches (an empty one: the token it stands
    before, or the end)."""
    inside = [k for k, (a, b) in enumerate(spans) if a < end and start < b] if end > start \
        else []
    if inside:
        return inside[0], inside[-1] + 1
    point = next((k for k, (a, _) in enumerate(spans) if a >= start), len(spans))
    return point, point


@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    correction: tuple[str, ...]
    type: str


def sentence_edits(document: AnnotatedText, source: Tokens, target: Tokens
                   ) -> list[list[Edit]]:
    """Each source sentence's edits, from the annotations inside it."""
    targets = target_spans(document)
    bounds = [(s[0][0], s[-1][1]) if s else (-1, -1) for s in source.spans]
    found: list[list[tuple[int, int, int, int, str]]] = [[] for _ in source.spans]
    for annotation, (t_start, t_end) in zip(document.annotations, targets, strict=True):
        index = _sentence_of(bounds, annotation)
        if index is None:
            continue
        o_start, o_end = _touched(source.spans[index], annotation.start, annotation.end)
        found[index].append((o_start, o_end, t_start, t_end,
                             annotation.error_type or "Other"))
    flat_target = [(span, token) for spans, tokens in zip(target.spans, target.sentences,
                                                          strict=True)
                   for span, token in zip(spans, tokens, strict=True)]
    return [_merged(edits, flat_target) for edits in found]


def _sentence_of(bounds: Sequence[tuple[int, int]], annotation: Annotation) -> int | None:
    for index, (start, end) in enumerate(bounds):
        if start <= annotation.start <= end and annotation.end <= end + 1:
            return index
    return None


def _merged(edits: list[tuple[int, int, int, int, str]],
            target: list[tuple[tuple[int, int], str]]) -> list[Edit]:
    """Edits touching the same tokens (or inserting at the same point) made one; each
    correction the target tokens its correction's characters touch."""
    edits.sort()
    merged: list[list] = []
    for o_start, o_end, t_start, t_end, kind in edits:
        if merged and (o_start < merged[-1][1]
                       or o_start == o_end == merged[-1][0] == merged[-1][1]):
            last = merged[-1]
            last[1], last[3] = max(last[1], o_end), max(last[3], t_end)
            continue
        merged.append([o_start, o_end, t_start, t_end, kind])
    return [Edit(o_start, o_end, _within(target, t_start, t_end), kind)
            for o_start, o_end, t_start, t_end, kind in merged]


def _within(target: list[tuple[tuple[int, int], str]], start: int, end: int
            ) -> tuple[str, ...]:
    if end <= start:
        return ()
    return tuple(token for (a, b), token in target if a < end and start < b)


def m2_blocks(doc_id: str, annotators: Sequence[tuple[int, AnnotatedText, Tokens, Tokens]]
              ) -> str:
    """A document's M2: its heading sentence, then each source sentence with every
    annotator's edits (a noop for an annotator with none)."""
    coders = [coder for coder, *_ in annotators]
    blocks = [f"S # {doc_id}\n" + "".join(NOOP.format(coder=c) + "\n" for c in coders)]
    source = annotators[0][2]
    per_coder = [sentence_edits(doc, src, tgt) for _, doc, src, tgt in annotators]
    for index, tokens in enumerate(source.sentences):
        lines = [f"S {' '.join(tokens)}"]
        for coder, edits in zip(coders, per_coder, strict=True):
            mine = edits[index]
            lines += [f"A {e.start} {e.end}|||{e.type}|||{' '.join(e.correction)}|||REQUIRED|||"
                      f"-NONE-|||{coder}" for e in mine] or [NOOP.format(coder=coder)]
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks) + "\n"


def document_of(path: Path) -> tuple[str, int]:
    """(document id, annotator: a1 is 0) of `DOC.aN.ann`."""
    match = _NAME.search(path.name)
    if match is None:
        raise InputError(f"{path}: a UA-GEC annotated file is named DOC.aN.ann")
    return match.group("doc"), int(match.group("annotator")) - 1


def tokenised(path: Path, folder: str, name: str) -> list[list[str]]:
    """The tokenised sentences of a document beside its annotated file (one a line)."""
    where = path.parent.parent / folder / name
    try:
        text = where.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read {where} ({exc.strerror or exc}): converting "
                         f"{path.name} reads the corpus's tokenised sentences beside its "
                         "annotated/ folder") from None
    return [line.split() for line in text.splitlines()]


@dataclass(frozen=True)
class Annotated:
    """A document's annotators: (coder, its annotated text, the source's and its target's
    tokenised sentences), coder 0 first."""

    doc_id: str
    annotators: tuple[tuple[int, AnnotatedText, Tokens, Tokens], ...]


def documents(path: Path, encoding: str | None = None) -> list[Annotated]:
    """The documents of a .ann file, or of every .ann file of a folder (by id, the
    annotators of each together)."""
    from m2lsp.formats.uagec.parser import parse_ann
    from m2lsp.parsing.source import read_source

    files = sorted(path.glob("*.ann")) if path.is_dir() else [path]
    if not files:
        raise InputError(f"{path}: no UA-GEC annotated text (DOC.aN.ann) in it")
    grouped: dict[str, list[tuple[int, Path]]] = {}
    for file in files:
        doc_id, coder = document_of(file)
        grouped.setdefault(doc_id, []).append((coder, file))
    out = []
    for doc_id, items in sorted(grouped.items()):
        annotators = []
        for coder, file in sorted(items):
            parsed = parse_ann(read_source(file, "annotated text", encoding))
            if parsed.problems:
                first = parsed.problems[0]
                raise InputError(f"{file}:{first.span.line + 1}:{first.span.col + 1}: "
                                 f"{first.message} (`m2lsp check` lists every problem)")
            src = located(parsed.source, tokenised(file, "source-sentences-tokenized",
                                                   f"{doc_id}.src.txt"), f"{file} (source)")
            tgt = located(parsed.target, tokenised(file, "target-sentences-tokenized",
                                                   f"{doc_id}.a{coder + 1}.txt"),
                          f"{file} (target)")
            annotators.append((coder, parsed, src, tgt))
        out.append(Annotated(doc_id, tuple(annotators)))
    return out
