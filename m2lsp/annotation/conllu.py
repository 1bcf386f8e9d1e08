"""Parses made elsewhere: CoNLL-U files (Stanza, UDPipe, Trankit), one sentence per line
of the text they parse, in order, read into spaCy Docs as spacy-conll 4 reads them (the
fork of ERRANT that MultiGEC-2025 ran reads its CoNLL-U with it): a sentence's words are
its integer-id lines (a multiword token's range and empty nodes are left out, as the fork
removes them first); the tag ERRANT reads is XPOS, or UPOS where XPOS is `_`; `root` is
spaCy's `ROOT`; a word has a space after it unless its MISC says SpaceAfter=No.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from m2lsp.errors import InputError


@dataclass(frozen=True)
class Word:
    form: str
    lemma: str
    upos: str
    xpos: str
    feats: str
    head: int  # 0-based index of the head in the sentence; itself for the root
    deprel: str
    space: bool


def sentences(path: Path) -> list[tuple[Word, ...]]:
    """Every sentence of a CoNLL-U file, or an InputError naming the line that is not
    CoNLL-U."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the CoNLL-U file {path}: {exc}") from None
    return list(_sentences(text, path))


def _sentences(text: str, path: Path) -> Iterator[tuple[Word, ...]]:
    current: list[tuple[int, list[str]]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            if current:
                yield _sentence(current, path)
                current = []
            continue
        if line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 10:
            raise InputError(f"{path}:{number}: a CoNLL-U word line has 10 tab-separated "
                             f"fields, this one {len(fields)}")
        if "-" in fields[0] or "." in fields[0]:
            continue  # a multiword token's range, or an empty node
        current.append((number, fields))
    if current:
        yield _sentence(current, path)


def _sentence(rows: list[tuple[int, list[str]]], path: Path) -> tuple[Word, ...]:
    words = []
    for position, (number, f) in enumerate(rows):
        if not f[0].isdigit() or int(f[0]) != position + 1:
            raise InputError(f"{path}:{number}: word {f[0]!r} where word {position + 1} "
                             "was expected")
        head = f[6]
        if not head.isdigit() or int(head) > len(rows):
            raise InputError(f"{path}:{number}: the head {head!r} is not a word of the "
                             "sentence")
        words.append(Word(f[1], f[2], f[3], f[3] if f[4] == "_" else f[4],
                          "" if f[5] == "_" else f[5], int(head) - 1 if int(head) else position,
                          "ROOT" if f[7] == "root" else f[7], "SpaceAfter=No" not in f[9]))
    return tuple(words)


def digest(paths: tuple[Path, ...]) -> str:
    """What the parses say, for the caches' namespace (another parse: other edits)."""
    found = hashlib.blake2b(digest_size=12)
    for path in paths:
        found.update(path.read_bytes())
        found.update(b"\0")
    return found.hexdigest()


def doc_of(vocab: Any, words: tuple[Word, ...]) -> Any:
    """A sentence as a spaCy Doc with its tags and tree."""
    from spacy.tokens import Doc

    if not words:
        return Doc(vocab, words=[])
    return Doc(vocab, words=[w.form for w in words], spaces=[w.space for w in words],
               lemmas=[w.lemma for w in words], tags=[w.xpos for w in words],
               pos=[w.upos for w in words], morphs=[w.feats for w in words],
               heads=[w.head for w in words],
               deps=[w.deprel for w in words])


def matches(words: tuple[Word, ...], line: str) -> bool:
    """Whether a sentence's words spell the line (whitespace aside)."""
    return "".join(w.form for w in words) == "".join(line.split())
