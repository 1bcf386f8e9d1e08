"""`m2lsp cache info` and `m2lsp cache clear`: every cache m2lsp keeps on disk -- the built
grammar parsers, parses.sqlite3 (the parses and annotated blocks, m2lsp.annotation.
parse_cache, and the learned metrics' scores), and the files of `KEPT`: the LLM judges'
replies, TrueSkill's runs, the meta-evaluation's converted inputs.  Each is named by the
patterns of its own files, so a clear deletes m2lsp's files and nothing else."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from m2lsp.cli.exits import EXIT_CLEAN, EXIT_ERROR


@dataclass(frozen=True)
class Kept:
    """A cache of files under the cache folder: what `info` calls it, its folder, and the
    patterns (under that folder) of the files m2lsp writes there."""

    name: str
    folder: str
    patterns: tuple[str, ...]

    def files(self, where: Path) -> list[Path]:
        base = where / self.folder
        return sorted({p for pattern in self.patterns for p in base.glob(pattern)
                       if p.is_file()})


KEPT = (
    Kept("LLM judges' replies", "llm", ("*.jsonl",)),  # scoring.llm.judged.cache_file
    Kept("TrueSkill runs", "trueskill", ("*/run-*.json",)),  # metaeval.trueskill
    Kept("meta-evaluation inputs", "meta-eval",  # metaeval.revisit and metaeval.gmeg
         ("revisit-cgec-*/*", "gmeg/*.m2")),
)


def add_commands(commands: argparse._SubParsersAction) -> None:
    cache = commands.add_parser(
        "cache", help="show or empty m2lsp's caches",
        description="m2lsp keeps its caches under $M2LSP_CACHE_DIR (else m2lsp/ under "
        "$XDG_CACHE_HOME or ~/.cache; empty: none): its built grammar parsers; the parses "
        "and annotated blocks of ERRANT/ChERRANT annotation and the learned metrics' "
        "scores, bounded by $M2LSP_CACHE_MAX_MB (default 512) with the least recently used "
        "dropped first; the LLM judges' replies (llm/); TrueSkill's runs (trueskill/); the "
        "meta-evaluation's converted inputs (meta-eval/).")
    cache.add_argument("action", choices=["info", "clear"],
                       help="info: where they are and how large; clear: delete them")
    cache.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from m2lsp.parsing.grammar import cache_dir

    where = cache_dir()
    if where is None:
        print("m2lsp keeps no cache ($M2LSP_CACHE_DIR is empty, or the folder cannot be "
              "written)")
        return EXIT_CLEAN
    return _info(where) if args.action == "info" else _clear(where)


def parser_files(where: Path) -> list[Path]:
    """The built parsers: `<grammar>-<start>.lark` for m2lsp's own grammars only."""
    from m2lsp.parsing.grammar import grammar_names

    return sorted(p for name in grammar_names() for p in where.glob(f"{name}-*.lark"))


def _size(files: list[Path]) -> str:
    total = 0
    for path in files:
        try:
            total += path.stat().st_size
        except OSError:
            continue  # gone meanwhile
    return f"{total / 1e3:.0f} kB"


def _info(where: Path) -> int:
    from m2lsp.annotation import parse_cache

    found = parse_cache.info()
    parsers = parser_files(where)
    print(f"folder: {where}")
    print(f"grammar parsers: {len(parsers)} file(s), {_size(parsers)}")
    print(f"parses, blocks and learned scores: {found.path} "
          f"({found.file_bytes / 1e6:.1f} MB on disk)")
    print(f"  {found.rows} row(s), {found.value_bytes / 1e6:.1f} MB of "
          f"{found.limit / 1e6:.0f} MB allowed ($M2LSP_CACHE_MAX_MB)")
    for kept in KEPT:
        files = kept.files(where)
        print(f"{kept.name} ({kept.folder}/): {len(files)} file(s), {_size(files)}")
    if found.problem:
        print(f"m2lsp: error: the cache file is {found.problem}; `m2lsp cache clear` "
              "removes it", file=sys.stderr)
        return EXIT_ERROR
    return EXIT_CLEAN


def _clear(where: Path) -> int:
    from m2lsp.annotation.parse_cache import FILE_NAME

    groups = {"grammar parsers": parser_files(where),
              "parses, blocks and learned scores": sorted(where.glob(FILE_NAME + "*"))}
    groups.update((kept.name, kept.files(where)) for kept in KEPT)
    failed, deleted = [], {}
    for name, files in groups.items():
        deleted[name] = 0
        for path in files:
            try:
                path.unlink()
                deleted[name] += 1
            except OSError as exc:
                failed.append(f"{path}: {exc.strerror or exc}")
    for kept in KEPT:
        _prune(where / kept.folder)
    for why in failed:
        print(f"m2lsp: error: cannot delete {why}", file=sys.stderr)
    counts = ", ".join(f"{name}: {count}" for name, count in deleted.items())
    print(f"deleted {sum(deleted.values())} file(s) from {where} ({counts})")
    return EXIT_ERROR if failed else EXIT_CLEAN


def _prune(folder: Path) -> None:
    """The folders under `folder`, and `folder`, that the clear left empty (never through
    a symbolic link)."""
    import contextlib
    import os

    if not folder.is_dir() or folder.is_symlink():
        return
    for root, _, _ in os.walk(folder, topdown=False):
        with contextlib.suppress(OSError):  # not empty, or not ours to remove
            Path(root).rmdir()
