"""Checking an M2 file as a stream of chunks: the findings of `lint`, without the whole file
parsed at once.

M2 blocks are independent, so `m2lsp check` parses and checks a file a few thousand blocks
at a time (a *chunk*: whole blocks, cut where a block starts) and keeps only what it
reports.  Parsed whole, a 50 MB file took 1.8 GB; a chunk's blocks are freed before the
next is parsed.

What the block rules know of the whole file (the annotator ids in use, the taxonomy: see
`run.context_from_counts`) is counted first, in a pass that parses each chunk and keeps
only the counts; the second pass runs the rules.  Text-wide rules run once over the text;
line rules over each chunk's lines; the document-wide rules that can run chunk by chunk
are named in `STREAMED` (a file selecting any other is linted whole).  Every rule code
yields its findings in the same order as `lint`'s, so `RuleCap` keeps the same ones, and
`tests/linting/test_stream.py` holds the two equal in every output format and with fixes.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from m2lsp.config import LintSettings
from m2lsp.diagnostic import Applicability, Diagnostic, Fix, position_order
from m2lsp.linting.cap import RuleCap
from m2lsp.linting.fixes import FixOutcome, applicable, apply_once, apply_to, fix_rounds
from m2lsp.linting.run import (
    LintResult,
    block_findings,
    context_from_counts,
    m2_counts,
    selected_rules,
    with_severities,
)
from m2lsp.model import Block, Format, M2Document
from m2lsp.parsing.m2 import block_bounds, parse_blocks, paused_gc
from m2lsp.parsing.source import SourceText
from m2lsp.rules.base import Context, LineRange, Rule, Scope

CHUNK_CHARS = 1 << 18  # characters parsed and checked at a time (about 5,000 lines)

# Document-wide M2 rules that run chunk by chunk: "each" finds what it finds in a block from
# that block and its place (every chunk's findings are the file's), "first" reports only the
# file's first finding (what it looks for is decided by the file-wide counts); "sidecars"
# rules find nothing without the curation files beside the M2, and a file that has them is
# linted whole.
STREAMED = {"M005": "each", "M303": "first", "N001": "sidecars", "N002": "sidecars",
            "N003": "sidecars", "N004": "sidecars"}


def streamable(fmt: Format | None, settings: LintSettings, sidecars: object = None) -> bool:
    """Whether `lint_stream` can check a file of `fmt` with `settings` (and the `sidecars`
    beside it): an M2 file whose selected document-wide rules all run chunk by chunk."""
    if fmt is not Format.M2:
        return False
    kinds = {STREAMED.get(rule.code)
             for rule in selected_rules(fmt, settings)[Scope.M2_DOCUMENT]}
    return None not in kinds and (sidecars is None or "sidecars" not in kinds)


@dataclass(frozen=True)
class Chunk:
    """Characters `offset`..`stop` of a text, whole lines from one that starts a block (an
    S line; the text's start for the first chunk) to the next chunk's; `first` is the
    number of its first line."""

    offset: int
    stop: int
    first: int


@dataclass(frozen=True)
class ChunkLines:
    """A chunk's lines and its blocks (`parsing.m2.block_bounds`, rows in the chunk; the
    first block's `separated` as it is in the whole text)."""

    chunk: Chunk
    lines: list[str]
    starts: list[int]
    ends: list[int]
    separated: list[bool]


class Chunks:
    """A text cut into chunks of about `size` characters, each cut made before an S line:
    an S line starts a block wherever it stands, so each chunk's blocks are the whole
    text's.  Only one chunk's lines are split at a time (a 50 MB file's million lines took
    twice the file)."""

    def __init__(self, text: str, size: int | None = None) -> None:
        self.text = text
        self.size = max(1, size or CHUNK_CHARS)
        self.line_count = _breaks(text, 0, len(text)) + 1

    def __iter__(self) -> Iterator[Chunk]:
        text, size, end = self.text, self.size, len(self.text)
        offset, first = 0, 0
        while True:
            cut = text.find("\nS", offset + size) if offset + size < end else -1
            stop = end if cut < 0 else cut + 1
            yield Chunk(offset, stop, first)
            if stop >= end:
                return
            first += _breaks(text, offset, stop)
            offset = stop

    def read(self, chunk: Chunk) -> ChunkLines:
        text = self.text
        end = chunk.stop
        if end < len(text):  # the line break before the next chunk is not a line
            end -= 2 if text[end - 2:end] == "\r\n" else 1
        piece = text[chunk.offset:end]
        lines = _LINE_BREAK.split(piece) if "\r" in piece else piece.split("\n")
        starts, ends, separated = block_bounds(lines)
        if starts and starts[0] == 0 and chunk.offset and not _after_blank(text, chunk.offset):
            separated[0] = False
        return ChunkLines(chunk, lines, starts, ends, separated)

    @staticmethod
    def parse(read: ChunkLines) -> list[Block]:
        lines = read.lines
        return parse_blocks([tuple(lines[s:e]) for s, e in zip(read.starts, read.ends,
                                                               strict=True)])

    def document(self, read: ChunkLines, blocks: list[Block]) -> M2Document:
        """The chunk as a document: absolute starts, chunk-relative `unseparated`."""
        first = read.chunk.first
        return M2Document(
            blocks=tuple(blocks), starts=tuple(first + s for s in read.starts),
            unseparated=frozenset(i for i, s in enumerate(read.separated) if not s),
            line_count=self.line_count)


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _breaks(text: str, start: int, stop: int) -> int:
    """How many line breaks (LF, CRLF, CR) characters start..stop hold."""
    lf = text.count("\n", start, stop)
    if text.find("\r", start, stop) < 0:
        return lf
    return lf + text.count("\r", start, stop) - text.count("\r\n", start, stop)


def _after_blank(text: str, offset: int) -> bool:
    """Whether the line before the one at `offset` (just after a line break) is blank or
    whitespace only, as a block separator is."""
    end = offset - 1
    if end > 0 and text[end - 1] == "\r":
        end -= 1
    start = max(text.rfind("\n", 0, end), text.rfind("\r", 0, end)) + 1
    line = text[start:end]
    return not line or line.isspace()


def lint_stream(source: SourceText, settings: LintSettings | None = None,
                most_per_rule: int | None = None,
                chunk_chars: int | None = None) -> LintResult:
    """`lint(source, Format.M2, settings, most_per_rule=...)` chunk by chunk: the same
    diagnostics and counts, without the parsed document (`document` is None)."""
    settings = settings or LintSettings()
    cap = RuleCap(most_per_rule, settings)
    with paused_gc():
        for _, found in findings(source, settings, chunk_chars):
            cap.add(found)
    kept = with_severities(cap.kept, settings)
    kept.sort(key=position_order)
    return LintResult(source, Format.M2, tuple(kept), None, (), cap.unlisted)


def fixable_stream(source: SourceText, settings: LintSettings,
                   allowed: frozenset[Applicability],
                   chunk_chars: int | None = None) -> list[Diagnostic]:
    """The diagnostics of `lint` that carry a fix of an allowed applicability, in its
    order: what a round of `--fix` applies, without keeping the others."""
    kept: list[Diagnostic] = []
    with paused_gc():
        for _, found in findings(source, settings, chunk_chars):
            kept.extend(d for d in found
                        if d.fix is not None and d.fix.applicability in allowed)
    kept = with_severities(kept, settings)
    kept.sort(key=position_order)
    return kept


def findings(source: SourceText, settings: LintSettings, chunk_chars: int | None = None,
             ) -> Iterator[tuple[ChunkLines | None, list[Diagnostic]]]:
    """Every selected rule's diagnostics of M2 `source` (absolute rows, severities as the
    rules give them), with the chunk they were found in: the text-wide rules' first (no
    chunk), then each chunk's.  Each rule code's diagnostics come in the order `lint`
    makes them."""
    rules = selected_rules(Format.M2, settings)
    chunks = Chunks(source.text, chunk_chars)
    ctx = file_context(source, settings, chunks)
    for rule in rules[Scope.TEXT]:
        yield None, list(rule.check(source, ctx))
    first_found: set[str] = set()
    for chunk in chunks:
        read = chunks.read(chunk)
        for found in _chunk_findings(chunks, read, rules, ctx, first_found):
            yield read, found


def file_context(source: SourceText, settings: LintSettings, chunks: Chunks) -> Context:
    """`run.m2_context`, counted chunk by chunk (and without the document)."""
    written, types, sentences = Counter[str](), Counter[str](), Counter[str]()
    annotated = 0
    for chunk in chunks:
        w, t, s, a = m2_counts(chunks.parse(chunks.read(chunk)))
        written.update(w)
        types.update(t)
        sentences.update(s)
        annotated += a
    return context_from_counts(source, None, settings, written, types, sentences, annotated)


def _chunk_findings(chunks: Chunks, read: ChunkLines, rules: dict[Scope, list[Rule]],
                    ctx: Context, first_found: set[str]) -> Iterator[list[Diagnostic]]:
    """One chunk's findings: line rules, block rules, document rules (`first_found`: the
    codes of "first" rules that have reported, in this chunk or an earlier one)."""
    first = read.chunk.first
    lines = LineRange(first, read.lines)
    for rule in rules[Scope.LINE]:
        yield list(rule.check(lines, ctx))
    parsed = chunks.parse(read)
    starts = read.starts
    yield [diagnostic.shifted(first + starts[index])
           for index, diagnostic in block_findings(parsed, rules[Scope.M2_BLOCK], ctx)]
    document = None
    for rule in rules[Scope.M2_DOCUMENT]:
        if rule.code in first_found or STREAMED[rule.code] == "sidecars":
            continue
        document = document or chunks.document(read, parsed)
        found = list(rule.check(document, ctx))
        if found and STREAMED[rule.code] == "first":
            first_found.add(rule.code)
            found = found[:1]
        yield found


def fix_stream(source: SourceText, settings: LintSettings,
               allowed: frozenset[Applicability], chunk_chars: int | None = None
               ) -> FixOutcome:
    """`fix_until_stable(source, lint of M2, allowed)`, each round made chunk by chunk."""
    return fix_rounds(source, lambda s: fix_round(s, settings, allowed, chunk_chars))


def fix_round(source: SourceText, settings: LintSettings, allowed: frozenset[Applicability],
              chunk_chars: int | None = None) -> tuple[SourceText, list[str]]:
    """One round of `--fix`: the fixed text and the fixes applied, as `apply_once` of every
    finding's fix makes them.  Each chunk's fixes are applied to the chunk's text as it is
    checked, so a round keeps no list of the file's fixes; where that could differ from
    applying them together (a text-wide fix, such as line breaks or a byte-order mark, or
    a fix reaching out of its chunk) the round applies them together."""
    if "\r" not in source.text:
        done = _fix_by_chunk(source, settings, allowed, chunk_chars)
        if done is not None:
            return done
    new, used = apply_once(source, applicable(fixable_stream(source, settings, allowed,
                                                             chunk_chars), allowed))
    return new, [code for code, _ in used]


def _fix_by_chunk(source: SourceText, settings: LintSettings,
                  allowed: frozenset[Applicability], chunk_chars: int | None
                  ) -> tuple[SourceText, list[str]] | None:
    """`fix_round` chunk by chunk on an LF text, or None where the fixes must be applied
    together."""
    text = source.text
    pieces: list[str] = []
    used: list[str] = []  # (codes only: 200,000 fixes kept took 200 MB)
    read: ChunkLines | None = None
    pending: list[Diagnostic] = []
    with paused_gc():
        for where, found in findings(source, settings, chunk_chars):
            fixes = [d for d in found if d.fix is not None and d.fix.applicability in allowed]
            if where is None and fixes:
                return None  # a text-wide fix
            if where is not read and read is not None:
                if not _fix_chunk(text, read, pending, pieces, used):
                    return None
                pending = []
            read = where or read
            pending.extend(fixes)
        if read is None or not _fix_chunk(text, read, pending, pieces, used):
            return None
    if not used:
        return source, used
    return SourceText("".join(pieces), source.encoding, source.bom, source.problem), used


def _fix_chunk(text: str, read: ChunkLines, found: list[Diagnostic], pieces: list[str],
               used: list[str]) -> bool:
    """Apply one chunk's fixes to its text (appended to `pieces`, the fixes applied to
    `used`); False when a fix reaches out of the chunk."""
    chunk = read.chunk
    piece = text[chunk.offset:chunk.stop]
    if not found:
        pieces.append(piece)
        return True
    found.sort(key=position_order)
    fixes = applicable(found, frozenset(Applicability))
    start, lengths = chunk.first, [len(line) for line in read.lines]
    if not all(_inside(fix, start, start + len(lengths)) for _, fix in fixes):
        return False
    starts = list(itertools.accumulate((n + 1 for n in lengths), initial=0))

    def offset(line: int, col: int) -> int:
        row = line - start
        if row >= len(lengths):
            return len(piece)
        return starts[row] + min(col, lengths[row])
    fixed, chosen, _ = apply_to(piece, fixes, offset)
    pieces.append(fixed)
    used.extend(code for code, _ in chosen)
    return True


def _inside(fix: Fix, start: int, end: int) -> bool:
    """Whether every edit of `fix` lies in lines start..end, where it cannot meet another
    chunk's (an edit may end at the next chunk's first column, not begin there)."""
    return bool(fix.edits) and all(
        start <= e.span.line < end and (e.span.end_line < end or (
            e.span.end_line == end and e.span.end_col == 0)) for e in fix.edits)
