"""Chinese char-level annotation: ChERRANT's `parallel_to_m2.py -g char` output for a source
and its targets (MuCGEC's scorer, the reference for MuCGEC, FCGEC, NaSGEC and NLPCC-2018 at
char level), computed by m2lsp's own alignment (`chinese_align`) and merging
(`chinese_edits`) over ChERRANT's tables (`cherrant_data`).

A line: whitespace is removed from the source and each target, each target is converted from
Traditional to Simplified Chinese (OpenCC `t2s`; not with `simplified=False`), and every
character is a token (`[缺失成分]` is one).  The block is the `S` line and, per target `k`:
`T<k> 没有错误` and a noop when the target is its source or reads 没有错误; `T<k> 无法标注`
and an `NA` edit when it reads 无法标注; otherwise, for each distinct edit set among the
cheapest alignments (only the first with strategy `first`), `T<k>-A<n>` and its edits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from m2lsp.annotation.parse_cache import ParseCache
from m2lsp.errors import InputError, UsageError

INSTALL = "pip install 'm2lsp[zh]'"
MISSING_PART = "[缺失成分]"
NO_ERROR, NOT_ANNOTATABLE = "没有错误", "无法标注"
STRATEGIES = ("all", "first")


@dataclass(frozen=True)
class ChineseSettings:
    """parallel_to_m2's options at char level, and where ChERRANT's tables are."""

    data: Path
    simplified: bool = True  # --no-simplified: targets are not converted to Simplified
    strategy: str = "all"  # -s: every distinct cheapest alignment, or the first


def load_zh() -> tuple[Any, Any]:
    """pypinyin and opencc, or the error naming the extra."""
    try:
        import opencc
        import pypinyin
    except ImportError as exc:
        raise UsageError(f"Chinese annotation needs pypinyin and OpenCC ({exc.name} is not "
                         f"installed): {INSTALL}") from None
    return pypinyin, opencc


@cache
def _converter() -> Any:
    _, opencc = load_zh()
    return opencc.OpenCC("t2s")


def normalised(text: str) -> str:
    """A sentence without whitespace, as parallel_to_m2 reads it."""
    return "".join(text.strip().split())


def split(sentence: str) -> list[str]:
    """The char-level tokens of a sentence without whitespace."""
    return " ".join(sentence).replace(" ".join(MISSING_PART), MISSING_PART).split(" ")


class ChineseAnnotator:
    """The tables loaded once; `block(source, targets)` is parallel_to_m2's block."""

    def __init__(self, settings: ChineseSettings, cache: ParseCache | None = None) -> None:
        from m2lsp.annotation.cherrant_data import load_tables
        from m2lsp.annotation.chinese_align import Costs

        if settings.strategy not in STRATEGIES:
            raise UsageError(f"the strategy is one of {', '.join(STRATEGIES)}")
        load_zh()
        self.settings = settings
        self.tables = load_tables(settings.data)
        self.costs = Costs(self.tables)
        self.cache = cache if cache is not None else ParseCache(None)
        versions = self.versions
        self.namespace = "|".join([f"{k}-{v}" for k, v in versions.items()] + [
            f"tables-{self.tables.fingerprint}", f"m2lsp-{_m2lsp_version()}"])

    @property
    def versions(self) -> dict[str, str]:
        """What made the edits: the annotator, pypinyin's and OpenCC's versions."""
        from importlib.metadata import PackageNotFoundError, version

        def of(name: str) -> str:
            try:
                return version(name)
            except PackageNotFoundError:
                return "unknown"
        chosen = {"annotator": "cherrant-char", "pypinyin": of("pypinyin"),
                  "opencc": of("opencc")}
        chosen.update({} if self.settings.simplified else {"simplified": "no"})
        chosen.update({"strategy": "first"} if self.settings.strategy == "first" else {})
        return chosen

    def close(self) -> None:
        self.cache.close()

    @property
    def edit_namespace(self) -> str:
        """What a block of edits depends on, beyond its text."""
        return self.namespace

    def blocks(self, rows: Sequence[tuple[str, Sequence[str]]], first: int = 0
               ) -> list[str | None]:
        """parallel_to_m2's output for each (source, targets) row, from the cache where it
        holds them; a row without targets is an empty line.  `first`: the index of the first
        row, for error messages."""
        from m2lsp.annotation.edit_cache import cached_blocks

        return cached_blocks(self.cache, self.namespace, rows, first, self._fresh)

    def load(self) -> None:
        """Nothing to load later: the tables were read when it was made."""

    def stored(self, rows: Sequence[tuple[str, Sequence[str]]]) -> list[str | None] | None:
        """Every row's block from the cache, or None if one is not there (a row without
        targets is an empty line, made at once)."""
        from m2lsp.annotation.edit_cache import stored_blocks

        if any(not targets for _, targets in rows):
            return None
        return stored_blocks(self.cache, self.namespace, rows)

    def _fresh(self, rows: Sequence[tuple[int, str, Sequence[str]]]) -> list[str | None]:
        return [self.block(source, targets, f"line {number + 1}: ") if targets else "\n"
                for number, source, targets in rows]

    def target(self, text: str) -> str:
        target = normalised(text)
        return _converter().convert(target) if self.settings.simplified else target

    def block(self, source: str, targets: Sequence[str], where: str = "") -> str:
        """The M2 block (ending in its blank line) of a source and its targets; an empty
        one stops, as it stops ChERRANT."""
        src = normalised(source)
        if not src:
            raise InputError(f"{where}the source is empty: ChERRANT's parallel_to_m2 stops on "
                             f"an empty sentence")
        src_tokens = split(src)
        rows = ["S " + " ".join(src_tokens)]
        for coder, text in enumerate(targets):
            tgt = self.target(text)
            if not tgt:
                raise InputError(f"{where}target {coder + 1} is empty: ChERRANT's "
                                 f"parallel_to_m2 stops on an empty sentence")
            rows.extend(self.rows(src, src_tokens, tgt, coder, where))
        return "\n".join(rows) + "\n\n"

    def rows(self, src: str, src_tokens: list[str], tgt: str, coder: int, where: str
             ) -> list[str]:
        """One target's `T` and `A` lines."""
        if tgt in (NO_ERROR, src):
            return [f"T{coder} {NO_ERROR}",
                    f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{coder}"]
        if tgt == NOT_ANNOTATABLE:
            return [f"T{coder} {NOT_ANNOTATABLE}",
                    f"A -1 -1|||NA|||-NONE-|||REQUIRED|||-NONE-|||{coder}"]
        tgt_tokens = split(tgt)
        target_line = " ".join(tgt_tokens)
        out: list[str] = []
        for number, found in enumerate(self.edit_sets(src_tokens, tgt_tokens, where)):
            out.append(f"T{coder}-A{number} {target_line}")
            out.extend(edit.line(coder) for edit in found)
        return out

    def edit_sets(self, src: list[str], tgt: list[str], where: str = "") -> list[list[Any]]:
        """The edit sets of the cheapest alignments, in the order found, one for each distinct
        set of merged spans (two sets may then read the same, as in ChERRANT)."""
        from m2lsp.annotation.chinese_align import TooManyAlignments, cheapest_paths, operations
        from m2lsp.annotation.chinese_edits import merged, typed

        ops = operations(src, tgt, self.costs)
        spans: list[list[Any]] = []
        try:
            for path in cheapest_paths(ops, first_only=self.settings.strategy == "first"):
                found = merged(path, src, tgt)
                if found not in spans:
                    spans.append(found)
        except TooManyAlignments as exc:
            raise InputError(f"{where}{exc} (ChERRANT walks them all); annotate with the "
                             f"strategy `first` to take the first only") from None
        return [[typed(step, tgt) for step in found] for found in spans]


def _m2lsp_version() -> str:
    from m2lsp.version import __version__

    return __version__
