"""The inputs of the metrics that read whole sentences (GREEN and the learned metrics): the
system's output, one sentence a line; the sources (`--source`, or an M2 gold's S lines);
and, for the reference-based ones, the references (`--ref R0 R1 ...`, or each annotator's
corrected sentence of an M2 gold).  Lines are read as Python's file iteration gives them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from m2lsp.errors import InputError, UsageError
from m2lsp.parsing.source import Input, Text
from m2lsp.scoring.metric import EditorJob, Request


@dataclass(frozen=True)
class Sentences:
    """`references[i]` are sentence i's references (empty for a reference-free metric);
    `texts` are what the signature hashes (the references', else the sources')."""

    sources: list[str]
    references: list[list[str]]
    hypotheses: list[str]
    texts: tuple[str, ...]


def read(path: Path | Text | str, what: str, encoding: str | None) -> tuple[list[str], str]:
    from m2lsp.parsing.source import read_source
    from m2lsp.scoring.gleu.inputs import lines

    text = read_source(path if isinstance(path, Text) else Path(path), what, encoding).text
    return lines(text), text


def same(path: Input | str, count: int, other: Input | str, expected: int, name: str
         ) -> None:
    if count != expected:
        raise InputError(f"{path} has {count} lines but {other} has {expected}; {name} pairs "
                         "them line by line")


def with_references(request: Request, references: tuple[str | Text, ...],
                    source: str | Text | None,
                    name: str) -> Sentences:
    """Sources, references and hypotheses of a reference-based metric `name` (as its
    messages call it): `--ref ... --source`, or an M2 gold."""
    from m2lsp.scoring.system_text import check_order

    check_order(request.system, request.gold, request.usage)
    hypotheses, _ = read(request.system, "system", request.encoding)
    flag = f"--metric {name.lower()}"
    if references and request.gold is not None:
        raise UsageError(f"{flag} takes the references from --ref or from GOLD (M2), "
                         "not both")
    if references:
        if source is None:
            raise UsageError(f"{flag} with --ref needs --source")
        sources, _ = read(source, "source", request.encoding)
        columns = [read(r, "reference", request.encoding) for r in references]
        for path, (column, _) in zip(references, columns, strict=True):
            same(path, len(column), source, len(sources), name)
        rows = [list(refs) for refs in zip(*(c for c, _ in columns), strict=True)]
        texts = tuple(t for _, t in columns)
    elif request.gold is not None:
        sources, rows, texts = from_m2(request.gold, request.encoding)
        if source is not None:
            sources, _ = read(source, "source", request.encoding)
    else:
        raise UsageError(f"{flag} needs references: --source SRC --ref REF ..., or a "
                         "GOLD M2 file")
    same(request.system, len(hypotheses), request.gold or source or "", len(sources), name)
    return Sentences(sources, rows, hypotheses, texts)


def without_references(request: Request, source: str | Text | None, name: str
                       ) -> Sentences:
    """Sources and hypotheses of a reference-free metric: `SYSTEM --source SRC`, or the S
    lines of an M2 GOLD."""
    from m2lsp.scoring.system_text import check_order

    check_order(request.system, request.gold, request.usage)
    hypotheses, _ = read(request.system, "system", request.encoding)
    if source is not None:
        sources, text = read(source, "source", request.encoding)
    elif request.gold is not None:
        sources, _, texts = from_m2(request.gold, request.encoding)
        text = texts[0]
    else:
        raise UsageError(f"--metric {name.lower()} is reference-free and needs the sources: "
                         "SYSTEM --source SRC (one sentence a line), or an M2 GOLD")
    same(request.system, len(hypotheses), source or request.gold or "", len(sources), name)
    return Sentences(sources, [], hypotheses, (text,))


def from_m2(gold: Input, encoding: str | None
            ) -> tuple[list[str], list[list[str]], tuple[str, ...]]:
    """Sources (S lines) and references (each annotator's corrected sentence, as GLEU reads
    them from an M2 gold) of an M2 gold, and its text."""
    from m2lsp.parsing.m2 import parse_m2
    from m2lsp.parsing.source import read_source
    from m2lsp.scoring.gleu.inputs import m2_references

    text = read_source(gold, "gold", encoding)
    blocks, references = m2_references(parse_m2(text), gold)
    sources = [" ".join(b.sentence.tokens) for b in blocks if b.sentence is not None]
    return sources, references, (text.text,)


def in_editor(job: EditorJob, metric: str, label: str) -> tuple[list[int], Sentences]:
    """The open M2 gold's sentences in the editor -- its S lines the sources, each
    annotator's corrected sentence a reference, as `from_m2` reads a gold file -- with the
    system's, one a line, and each sentence's S line; a UsageError when the open document
    is no M2 gold, an InputError when the counts differ."""
    from m2lsp.parsing.m2 import M2Document
    from m2lsp.scoring.gleu.inputs import lines, m2_references

    document = job.document
    if not isinstance(document, M2Document):
        raise UsageError(f"{metric} in the editor scores a plain-text system against the "
                         f"open M2 gold; for other inputs run `m2lsp score --metric {metric}`")
    blocks, references = m2_references(document, Path(job.uri))
    starts = [start for start, b in zip(document.starts, document.blocks, strict=True)
              if b.sentence is not None]
    sources = [" ".join(b.sentence.tokens) for b in blocks if b.sentence is not None]
    hypotheses = lines(job.system_text)
    same("the system", len(hypotheses), "the gold's sentences", len(sources), label)
    return starts, Sentences(sources, references, hypotheses, (job.text,))
