"""ChERRANT's resource tables, read from the `data/` folder of a ChERRANT checkout (they are
not shipped with m2lsp): the Cilin thesaurus (`cilin.txt`, GBK) and the character confusion
sets (`confusion_dict.txt`).  Char-level annotation needs only these two.

The folder is the first of: the `--cherrant-data` flag, the setting `cherrant-data`, the
environment variable `M2LSP_CHERRANT_DATA`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from m2lsp.errors import UsageError

ENVIRONMENT = "M2LSP_CHERRANT_DATA"
FILES = ("cilin.txt", "confusion_dict.txt")
WHERE = (f"name the data/ folder of a ChERRANT checkout (MuCGEC's scorers/ChERRANT/data) with "
         f"--cherrant-data DIR, the setting cherrant-data, or the environment variable "
         f"{ENVIRONMENT}")

SemanticClass = tuple[str, str, str]  # Cilin's high, middle and low levels


@dataclass(frozen=True)
class Tables:
    """Cilin's class of each word, and each character's confusion set."""

    classes: dict[str, SemanticClass]
    confusions: dict[str, frozenset[str]]
    folder: Path
    fingerprint: str  # of the two files' bytes: cached edits made with other tables differ


def data_folder(flag: Path | str | None, setting: Path | str | None) -> Path:
    """The folder named by the flag, else the setting, else the environment; an error
    saying how to name one when none does or it lacks a table."""
    chosen = flag or setting or os.environ.get(ENVIRONMENT)
    if not chosen:
        raise UsageError(f"Chinese annotation reads ChERRANT's tables ({', '.join(FILES)}): "
                         f"{WHERE}")
    folder = Path(chosen).expanduser()
    missing = [name for name in FILES if not (folder / name).is_file()]
    if missing:
        raise UsageError(f"{folder} has no {' or '.join(missing)}: {WHERE}")
    return folder


def load_tables(folder: Path) -> Tables:
    """The tables in `folder` (read once per process and folder)."""
    return _load(folder.resolve())


@cache
def _load(folder: Path) -> Tables:
    import hashlib

    digest = hashlib.blake2b(digest_size=12)
    for name in FILES:
        try:
            digest.update((folder / name).read_bytes())
        except OSError as exc:
            raise UsageError(f"cannot read ChERRANT's table {folder / name}: {exc}") from None
    return Tables(_cilin(folder / FILES[0]), _confusions(folder / FILES[1]), folder,
                  digest.hexdigest())


def _read(path: Path, encoding: str) -> str:
    try:
        with open(path, encoding=encoding) as handle:  # universal newlines, as ChERRANT
            return handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read ChERRANT's table {path}: {exc}") from None


def _cilin(path: Path) -> dict[str, SemanticClass]:
    """Each word's class: a line is a code and its words; a later line wins."""
    classes: dict[str, SemanticClass] = {}
    for line in _read(path, "gbk").strip().split("\n"):
        code, *words = line.split(" ")
        level = (code[0], code[1], code[2:4]) if len(code) >= 2 else None
        for word in words:
            if level is None:
                raise UsageError(f"{path}: the line {line[:40]!r} has no Cilin code")
            classes[word] = level
    return classes


def _confusions(path: Path) -> dict[str, frozenset[str]]:
    """A line is a character and the characters it is confused with; a later line wins."""
    table: dict[str, frozenset[str]] = {}
    for line in _read(path, "utf-8").split("\n"):
        if not line:
            continue
        first, *others = line.split(" ")
        table[first] = frozenset(others)
    return table
