"""The Lark parsers, built once from the grammars shipped as package data.

Building an LALR parser takes about 0.13 s, which is a tenth of checking a large file; Lark
keeps what it built in a cache file (checked against the grammar, the options and Lark's
version, and rebuilt when any differ) under `cache_dir()`.  Without a writable cache
directory m2lsp builds the parser each run.  The file is a pickle, read back as code: the
default directory is the user's own.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # lark loads with the first parser, not with cache_dir()
    from lark import Lark

GRAMMAR_PACKAGE = "m2lsp.grammar"
CACHE_ENV = "M2LSP_CACHE_DIR"


@cache
def parser(name: str, *start: str) -> Lark:
    """An LALR parser for `grammar/<name>.lark` with the given start symbols."""
    from lark import Lark

    where = cache_dir()
    kept = None if where is None else where / f"{name}-{'-'.join(start)}.lark"
    options: dict[str, Any] = {"parser": "lalr", "start": list(start), "propagate_positions": True,
               "maybe_placeholders": True,
               "cache": False if kept is None or not own_file(kept) else str(kept)}
    folder = checkout_grammars()
    if folder is not None:
        return Lark.open(str(folder / f"{name}.lark"), **options)
    return Lark.open_from_package(GRAMMAR_PACKAGE, f"{name}.lark", **options)


@cache
def checkout_grammars() -> Path | None:
    """The top-level `grammar/` folder when m2lsp runs from a checkout that was not
    installed (the grammars become the package `m2lsp.grammar` only at install time);
    None when the package is there."""
    if importlib.util.find_spec(GRAMMAR_PACKAGE) is not None:
        return None
    folder = Path(__file__).resolve().parents[2] / "grammar"
    if not (folder / "m2.lark").is_file():
        raise ImportError(f"m2lsp's grammars are neither the package {GRAMMAR_PACKAGE} nor "
                          f"in {folder}: reinstall m2lsp")
    return folder


def grammar_names() -> list[str]:
    """The names of m2lsp's grammars (`m2`, `cged`, ...)."""
    folder = checkout_grammars()
    if folder is not None:
        return sorted(p.stem for p in folder.glob("*.lark"))
    from importlib.resources import files

    return sorted(Path(e.name).stem for e in files(GRAMMAR_PACKAGE).iterdir()
                  if e.name.endswith(".lark"))


def cache_dir() -> Path | None:
    """Where built parsers are kept: $M2LSP_CACHE_DIR (empty: nowhere), else m2lsp/ under
    $XDG_CACHE_HOME or ~/.cache; None when it cannot be made."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen == "":
        return None
    if chosen is None:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                ".cache")
        chosen = os.path.join(base, "m2lsp")
    try:
        os.makedirs(chosen, mode=0o700, exist_ok=True)
    except OSError:
        return None
    if not os.access(chosen, os.W_OK) or not _own(chosen, "cache folder"):
        return None
    return Path(chosen)


def own_file(path: Path) -> bool:
    """Whether a cache file may be read back: absent, or the user's own and writable by
    no one else."""
    return not path.exists() or _own(str(path), "cache file")


def _own(path: str, what: str) -> bool:
    """Whether `path` belongs to this user and no other user may write to it.  What is kept
    in the cache is read back as code (Lark's parsers are pickles), so a folder another user
    could write to is not used, as pip and ssh refuse such folders; the reason is logged
    once."""
    if not hasattr(os, "getuid"):  # Windows: a user's profile folder is private
        return True
    try:
        stat = os.stat(path)
    except OSError:
        return False
    reason = ("it belongs to another user" if stat.st_uid != os.getuid() else
              f"others may write to it (mode {stat.st_mode & 0o777:o})"
              if stat.st_mode & 0o022 else None)
    if reason is not None:
        _refused(f"m2lsp keeps no cache in the {what} {path}: {reason}; set {CACHE_ENV} to "
                 "a folder of your own, or chmod go-w it")
    return reason is None


@cache
def _refused(message: str) -> None:
    from m2lsp.logs import logger

    logger(__name__).warning("warning: %s", message)


def expected_words(lark: Lark, names: Iterable[str] | None, words: dict[str, str]) -> list[str]:
    """Readable names for the terminals a parse error expected: `words` first, then the
    literal text of anonymous terminals ('<DOC>', '>'), then the terminal's own name."""
    out = set()
    for name in names or ():
        if name in words:
            out.add(words[name])
            continue
        try:
            pattern = lark.get_terminal(name).pattern
        except KeyError:
            out.add(name)
            continue
        out.add(repr(pattern.value) if pattern.type == "str" else name.lower())
    return sorted(out)
