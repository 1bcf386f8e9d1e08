"""A project folder and its files, which stay the truth:

    project.toml          name and language
    source.m2             the sentences to annotate (S lines only)
    layers/NAME.m2        one M2 file per annotator: every sentence, their edits as annotator 0
    gold.m2               the curated gold, with CURATE's sidecars beside it
    m2lsp-web.sqlite3     accounts, sessions, assignments, events (see `db`)

Every path is made here from the project's root and a checked user name (`names`), never
from request input as given; every write goes through `files.writing` (atomic)."""

from __future__ import annotations

import hashlib
import threading
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from m2lsp.annotation.from_correction import Engines
from m2lsp.errors import UsageError
from m2lsp.model import Block, M2Document
from m2lsp.web.names import checked_name
from m2lsp.web.store import Store

CONFIG = "project.toml"
SOURCE = "source.m2"
LAYERS = "layers"
GOLD = "gold.m2"
DATABASE = "m2lsp-web.sqlite3"
ANNOTATOR = "0"  # each layer's annotator id


@dataclass(frozen=True)
class Project:
    """An opened project folder."""

    root: Path
    name: str
    language: str
    store: Store = field(default_factory=Store, compare=False, repr=False)  # its files read
    written: dict[Path, Any] = field(default_factory=dict, compare=False, repr=False)
    # what the server last wrote the gold from (`deciding`): one decision then costs a sentence
    # what types realigned edits (`web.engines` loads ERRANT's or ChERRANT's when the
    # server starts; the plain alignment's default type until then)
    engines: Engines = field(default_factory=Engines, compare=False, repr=False)
    # held while the curation is decided or opened whole (decisions run in threads, off
    # the event loop, one at a time)
    curating: threading.Lock = field(default_factory=threading.Lock, compare=False,
                                     repr=False)

    @property
    def source(self) -> Path:
        return self.root / SOURCE

    @property
    def gold(self) -> Path:
        return self.root / GOLD

    @property
    def database(self) -> Path:
        return self.root / DATABASE

    def layer(self, user: str) -> Path:
        return self.root / LAYERS / f"{checked_name(user)}.m2"

    def layer_names(self) -> list[str]:
        """The annotators with a layer, in name order (curation numbers them so)."""
        return sorted(p.stem for p in (self.root / LAYERS).glob("*.m2"))


def open_project(root: Path) -> Project:
    """The project in `root`, or a UsageError saying what is missing."""
    config = root / CONFIG
    if not config.is_file() or not (root / SOURCE).is_file():
        raise UsageError(f"{root} is not an m2lsp web project (no {CONFIG} or {SOURCE}): "
                         f"m2lsp web init {root} --from sentences.txt makes one")
    try:
        data = tomllib.loads(config.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"{config}: {exc}") from None
    return Project(root, str(data.get("name", root.name)), str(data.get("language", "en")))


def init_project(root: Path, sentences: list[list[str]], language: str) -> Project:
    """A new project in `root` (empty or new) holding `sentences` (tokens of each); with
    none, a manager loads them later (POST /api/source)."""
    from m2lsp.files.writing import make_folder, write_atomic

    refuse_project(root)
    make_folder(root / LAYERS)
    write_atomic(root / SOURCE, "".join(f"S {' '.join(t)}\n\n" for t in sentences))
    write_atomic(root / CONFIG, f"name = {_toml_string(root.resolve().name)}\n"
                 f"language = {_toml_string(language)}\n")
    return open_project(root)


def refuse_project(root: Path) -> None:
    """A UsageError when `root` holds a project already (checked before any work)."""
    if (root / CONFIG).exists():
        raise UsageError(f"{root} is a project already ({CONFIG} is there)")


def _toml_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def sentences_of_m2(text: str) -> list[list[str]]:
    """The tokens of each S line of an M2 text (its edits are not taken)."""
    return [line[2:].split() for line in text.splitlines() if line.startswith("S ")]


def read_document(path: Path) -> M2Document:
    from m2lsp.parsing.m2 import parse_m2

    return parse_m2(path.read_text(encoding="utf-8"))


_ADDING = threading.Lock()


def add_layer(project: Project, user: str) -> None:
    """The annotator's layer: the source's sentences, no edit yet (kept if there)."""
    from m2lsp.files.writing import write_atomic

    path = project.layer(user)
    with _ADDING:  # two assignments at once (worker threads): one writes it, before any save
        if not path.exists():
            write_atomic(path, project.source.read_text(encoding="utf-8"))


def sentence_count(project: Project) -> int:
    return project.store.get(project.source).count


def block(document: M2Document, number: int) -> Block:
    """Sentence `number` (from 1); a LookupError when there is none."""
    if not 1 <= number <= len(document.blocks):
        raise LookupError(number)
    return document.blocks[number - 1]


def own_lines(found: Block) -> list[str]:
    """The layer's edit lines of a sentence, as written."""
    return [line.rstrip("\r\n") for line in found.lines[1:] if line.strip()]


def version(found: Block) -> str:
    """A sentence's version in a layer: a digest of its lines, so a save based on another
    content is known as stale whatever wrote the file (a tab, an editor, git)."""
    return hashlib.sha256("\n".join(found.lines).encode()).hexdigest()[:16]


def replaced(document: M2Document, text: str, number: int, lines: list[str]) -> str:
    """The layer's text with sentence `number`'s lines after its S line replaced."""
    rows = text.splitlines(keepends=True)
    start = document.starts[number - 1]
    old = document.blocks[number - 1]
    new = [rows[start], *(line.rstrip("\r\n") + "\n" for line in lines)]
    return "".join([*rows[:start], *new, *rows[start + len(old.lines):]])
