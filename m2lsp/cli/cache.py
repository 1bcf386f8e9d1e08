"""`m2lsp cache info` and `m2lsp cache clear`: the two caches m2lsp keeps on disk, the built
grammar parsers and the parses and annotated blocks (m2lsp.annotation.parse_cache)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from m2lsp.cli.exits import EXIT_CLEAN, EXIT_ERROR


def add_commands(commands: argparse._SubParsersAction) -> None:
    cache = commands.add_parser(
        "cache", help="show or empty m2lsp's caches",
        description="m2lsp keeps two caches under $M2LSP_CACHE_DIR (else m2lsp/ under "
        "$XDG_CACHE_HOME or ~/.cache; empty: none): its built grammar parsers, and the "
        "parses and annotated blocks of ERRANT/ChERRANT annotation, bounded by "
        "$M2LSP_CACHE_MAX_MB (default 512) with the least recently used dropped first.")
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


def _info(where: Path) -> int:
    from m2lsp.annotation import parse_cache

    found = parse_cache.info()
    parsers = parser_files(where)
    print(f"folder: {where}")
    print(f"grammar parsers: {len(parsers)} file(s), "
          f"{sum(p.stat().st_size for p in parsers) / 1e3:.0f} kB")
    print(f"parses and blocks: {found.path} ({found.file_bytes / 1e6:.1f} MB on disk)")
    print(f"  {found.rows} row(s), {found.value_bytes / 1e6:.1f} MB of "
          f"{found.limit / 1e6:.0f} MB allowed ($M2LSP_CACHE_MAX_MB)")
    if found.problem:
        print(f"m2lsp: error: the cache file is {found.problem}; `m2lsp cache clear` "
              "removes it", file=sys.stderr)
        return EXIT_ERROR
    return EXIT_CLEAN


def _clear(where: Path) -> int:
    from m2lsp.annotation.parse_cache import FILE_NAME

    files = parser_files(where) + sorted(where.glob(FILE_NAME + "*"))
    failed = []
    for path in files:
        try:
            path.unlink()
        except OSError as exc:
            failed.append(f"{path}: {exc.strerror or exc}")
    for why in failed:
        print(f"m2lsp: error: cannot delete {why}", file=sys.stderr)
    print(f"deleted {len(files) - len(failed)} file(s) from {where}")
    return EXIT_ERROR if failed else EXIT_CLEAN
