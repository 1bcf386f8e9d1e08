"""Run the rules over a document: the one linting entry point of the CLI and the server."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import m2lsp.taxonomy as taxonomies
from m2lsp.config import LintSettings
from m2lsp.diagnostic import Diagnostic, position_order
from m2lsp.formats.cged.model import CgedDocument, TruthDocument
from m2lsp.linting.cap import RuleCap, Unlisted
from m2lsp.model import Block, M2Document, read_int
from m2lsp.parsing import m2 as m2_parsing
from m2lsp.parsing.m2 import BlockCache, parse_m2, paused_gc
from m2lsp.parsing.source import SourceText
from m2lsp.parsing.suspects import suspects
from m2lsp.rules.base import BlockSet, Context, Format, LineRange, Rule, Scope
from m2lsp.rules.registry import all_rules


@dataclass(frozen=True)
class LintResult:
    """Diagnostics of one document, in position order, and the document they are about."""

    source: SourceText
    format: Format
    diagnostics: tuple[Diagnostic, ...]
    document: M2Document | CgedDocument | TruthDocument | None = None
    unchecked: tuple[str, ...] = ()  # rules not run: the pass's time was up (`deadline`)
    # findings counted but not kept (`most_per_rule`), by rule
    unlisted: tuple[Unlisted, ...] = ()


def selected_rules(fmt: Format, settings: LintSettings) -> dict[Scope, list[Rule]]:
    """The rules that apply to `fmt` and are selected, by scope."""
    out: dict[Scope, list[Rule]] = {scope: [] for scope in Scope}
    for rule in all_rules():
        if fmt in rule.formats and settings.selects(rule.code, rule.opt_in):
            out[rule.scope].append(rule)
    return out


@dataclass(frozen=True)
class Corpus:
    """Where a MultiGEC file stands among its corpus's files: its role, and the essay ids
    and name of the corpus's original file (None: not found)."""

    role: str | None = None
    original_ids: frozenset[str] | None = None
    original: str | None = None


def lint(source: SourceText, fmt: Format, settings: LintSettings | None = None,
         cache: BlockCache | None = None, known_ids: frozenset[str] | None = None,
         corpus: Corpus | None = None, deadline: float | None = None,
         most_per_rule: int | None = None, sidecars: Any = None) -> LintResult:
    """Every selected rule's diagnostics for `source` read as `fmt`; with a `deadline`
    (`time.monotonic()`), the rules not begun by then are left out and named in
    `unchecked` (the language server's budget per pass); with `most_per_rule`, only the
    first that many of each rule are kept, the others counted in `unlisted`."""
    settings = settings or LintSettings()
    with paused_gc():
        return _lint(source, fmt, settings, cache, known_ids, corpus, deadline,
                     RuleCap(most_per_rule, settings), sidecars)


def _lint(source: SourceText, fmt: Format, settings: LintSettings, cache: BlockCache | None,
          known_ids: frozenset[str] | None, corpus: Corpus | None = None,
          deadline: float | None = None, cap: RuleCap | None = None,
          sidecars: Any = None) -> LintResult:
    rules = selected_rules(fmt, settings)
    document, ctx = _parse(source, fmt, settings, cache, known_ids, corpus)
    if sidecars is not None:  # M2: the curation and notes beside the file
        ctx = replace(ctx, sidecars=sidecars)
    cap = cap or RuleCap(None)
    timed = _Timed(deadline)
    for rule in timed(rules[Scope.TEXT]):
        cap.add(rule.check(source, ctx))
    for rule in timed(rules[Scope.LINE]):
        cap.add(rule.check(LineRange(0, source.lines), ctx))
    if isinstance(document, M2Document):
        cap.add(_m2_block_diagnostics(document, list(timed(rules[Scope.M2_BLOCK])), ctx))
        for rule in timed(rules[Scope.M2_DOCUMENT]):
            cap.add(rule.check(document, ctx))
    for scope in (Scope.CGED, Scope.TRUTH, Scope.INPUT, Scope.ESSAYS, Scope.ANNOTATED,
                  Scope.BEA_JSON):
        for rule in timed(rules[scope]):
            cap.add(rule.check(document, ctx))
    found = with_severities(cap.kept, settings)
    found.sort(key=position_order)
    return LintResult(source, fmt, tuple(found), document, tuple(timed.skipped),
                      cap.unlisted)


class _Timed:
    """The rules of a pass while its time lasts; the codes of those it skipped."""

    def __init__(self, deadline: float | None) -> None:
        self.deadline, self.skipped = deadline, list[str]()

    def __call__(self, rules: Iterable[Rule]) -> Iterator[Rule]:
        import time

        for rule in rules:
            if self.deadline is not None and time.monotonic() > self.deadline:
                self.skipped.append(rule.code)
            else:
                yield rule


def _parse(source: SourceText, fmt: Format, settings: LintSettings,
           cache: BlockCache | None, known_ids: frozenset[str] | None,
           corpus: Corpus | None = None) -> tuple[Any, Context]:
    if fmt is Format.M2:
        m2 = parse_m2(source, cache)
        return m2, m2_context(source, m2, settings)
    document: Any
    if fmt is Format.CGED:
        from m2lsp.formats.cged.parser import parse_cged

        document = parse_cged(source)
        return document, Context(source, fmt, settings)
    if fmt is Format.INPUT:
        from m2lsp.formats.cged.input_parser import parse_input

        document = parse_input(source)
        return document, Context(source, fmt, settings)
    if fmt is Format.MULTIGEC:
        from m2lsp.formats.multigec.parser import parse_essays

        corpus = corpus or Corpus()
        return parse_essays(source), Context(source, fmt, settings,
                                             known_ids=corpus.original_ids,
                                             essay_role=corpus.role,
                                             essay_original=corpus.original)
    if fmt is Format.BEA_JSON:
        from m2lsp.formats.bea_json.parser import parse_bea_json

        return parse_bea_json(source), Context(source, fmt, settings)
    if fmt is Format.ANN:
        from m2lsp.formats.uagec.parser import parse_ann

        return parse_ann(source), Context(source, fmt, settings)
    from m2lsp.formats.cged.truth_parser import parse_truth

    document = parse_truth(source)
    return document, Context(source, fmt, settings, truth=document, known_ids=known_ids)


def m2_context(source: SourceText, document: M2Document, settings: LintSettings) -> Context:
    """File-level facts the M2 rules need: annotator ids in use, the taxonomy."""
    written, types, sentences, annotated = m2_counts(document.blocks)
    return context_from_counts(source, document, settings, written, types, sentences,
                               annotated)


def m2_counts(blocks: Sequence[Block]) -> tuple[Counter[str], Counter[str], Counter[str], int]:
    """How often each annotator id and each type is written, in how many blocks each plain
    id appears, and how many blocks have one (in C when the compiled parser is there)."""
    if m2_parsing.compiled is not None:
        written, types, sentences, annotated = m2_parsing.compiled.tally(blocks)
        return Counter(written), Counter(types), Counter(sentences), annotated
    edits = [edit for block in blocks for edit in block.edits]
    per_block = [ids for ids in map(block_annotators, blocks) if ids]
    return (Counter([edit.annotator for edit in edits]), Counter([edit.type for edit in edits]),
            Counter([a for ids in per_block for a in ids]), len(per_block))


def block_annotators(block: Block) -> set[str]:
    """The annotator ids (as integers written plainly) of a block's A lines."""
    if not block.edits:
        return set()
    return {found for a in {e.annotator for e in block.edits}
            if (found := plain_id(a)) is not None}


@functools.lru_cache(maxsize=4096)
def plain_id(annotator: str) -> str | None:
    """An annotator id written as a non-negative integer, as its digits without leading
    zeros (None for anything else)."""
    value = read_int(annotator) if annotator.strip().isdigit() else None
    return None if value is None else str(value)


def context_from_counts(source: SourceText, document: M2Document | None,
                        settings: LintSettings, written: Counter[str],
                        types: Counter[str], sentences: Counter[str] | None = None,
                        annotated: int = 0) -> Context:
    """The M2 context from how often each annotator id and each error type is written, and
    in how many of the `annotated` sentences (those with an annotator id) each id appears."""
    annotators = {found for a in written if (found := plain_id(a)) is not None}
    sentences = sentences or Counter()
    expected = frozenset(a for a, n in sentences.items() if 2 * n >= annotated)
    rare = tuple(sorted((a, n) for a, n in sentences.items()
                        if 100 * n < annotated and expected))
    return Context(source, Format.M2, settings, m2=document, annotators=frozenset(annotators),
                   types=frozenset(types),
                   taxonomy=_taxonomy(settings, types),
                   expected_annotators=expected if sentences else None,
                   rare_annotators=rare)


def _taxonomy(settings: LintSettings, types: Counter[str]) -> taxonomies.Taxonomy | None:
    if settings.taxonomy == "any":
        return None
    if settings.taxonomy == "auto":
        found = taxonomies.detect(types)
    else:
        found = taxonomies.TAXONOMIES[settings.taxonomy]
    return None if found is None else taxonomies.extended(found, settings.extra_types)


def _m2_block_diagnostics(document: M2Document, rules: list[Rule],
                          ctx: Context) -> Iterable[Diagnostic]:
    starts = document.starts
    for index, diagnostic in block_findings(document.blocks, rules, ctx):
        yield diagnostic.shifted(starts[index])


def block_findings(blocks: Sequence[Block], rules: list[Rule], ctx: Context,
                   ) -> Iterator[tuple[int, Diagnostic]]:
    """(block index, block-relative diagnostic) of the M2 block rules over `blocks`.  A rule
    with a suspect bit sees only the blocks the parser gave that bit (see
    m2lsp/parsing/suspects.py): in a clean file, none."""
    masks = [suspects(block) for block in blocks]
    flagged = [k for k, mask in enumerate(masks) if mask]
    views: dict[int | None, tuple[list[int] | None, BlockSet]] = {}
    for rule in rules:
        bit = None if rule.suspect is None else int(rule.suspect)  # (an IntFlag's & is slow)
        if bit not in views:
            chosen = None if bit is None else [k for k in flagged if masks[k] & bit]
            views[bit] = chosen, BlockSet(blocks if chosen is None else
                                          [blocks[k] for k in chosen])
        chosen, view = views[bit]
        if len(view):
            for index, diagnostic in rule.check(view, ctx):
                yield (index if chosen is None else chosen[index]), diagnostic


def with_severities(found: list[Diagnostic], settings: LintSettings) -> list[Diagnostic]:
    if not settings.severity:
        return found
    return [replace(d, severity=settings.severity_of(d.code, d.severity)) for d in found]
