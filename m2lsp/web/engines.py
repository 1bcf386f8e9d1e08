"""The typing engines a server keeps loaded: ERRANT over a spaCy pipeline for an English
project, ChERRANT's char-level typing for a Chinese one, as `m2lsp annotate` and the
editor's "Annotate from a correction…" type edits.  Loaded once when the server starts
(a spaCy pipeline takes a second or two), so a save only runs it; where the engine cannot
be had (no `m2lsp[errant]`, no pipeline, no ChERRANT tables) the server says why once and
the edits come typed as the plain alignment types them (`UNK`, which the linter flags
until the annotator chooses a type).

The pipeline and the tables are those of the project's configuration (`spacy-model`,
`cherrant-data` in the `[tool.m2lsp]` of a pyproject.toml above the project folder), as
for every command.  Pure of HTTP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from m2lsp.annotation.from_correction import Engines
from m2lsp.errors import M2lspError
from m2lsp.logs import logger

_LOG = logger(__name__)


def loaded(root: Path, language: str) -> Engines:
    """The engines of the project in `root` (its language: `zh...` is Chinese), loaded
    now; the plain alignment's where one cannot be loaded (said once on the log)."""
    from m2lsp.config import config_for

    config = config_for([root])
    chinese = language.startswith("zh")
    try:
        engine = _chinese(config.score.cherrant_data) if chinese else \
            _english(config.score.spacy_model)
    except (M2lspError, ImportError, OSError) as exc:
        _LOG.warning("m2lsp web: edits are typed %s, for the annotators to type (%s)",
                     config.editor.annotation_type, exc)
        return Engines(default_type=config.editor.annotation_type)
    made = (lambda: engine)  # noqa: E731 (Engines holds how to get each engine)
    return Engines(english=None if chinese else made, chinese=made if chinese else None,
                   default_type=config.editor.annotation_type)


def described(engines: Engines) -> str:
    """What types the edits, as the server says it when it starts."""
    if engines.english is not None:
        return f"ERRANT over {engines.english().model}"
    if engines.chinese is not None:
        return "ChERRANT"
    return f"{engines.default_type}, for the annotators to type"


def _english(model: str | None) -> Any:
    """ERRANT over the pipeline (its parses not cached on disk: each save's sentence is
    new, and a save should not wait for the cache's commit).  The note of which pipeline
    was chosen, when none is named, is left to the line `described` makes."""
    import logging

    from m2lsp.annotation.english import EnglishAnnotator, EnglishSettings
    from m2lsp.annotation.parse_cache import ParseCache

    chooser = logging.getLogger("m2lsp.annotation.pipelines")
    was, chooser.disabled = chooser.disabled, True
    try:
        engine = EnglishAnnotator(EnglishSettings(model=model), ParseCache(None))
    finally:
        chooser.disabled = was
    engine.load()
    engine.blocks([("a b .", ["a c ."])])  # the first parse builds spaCy's tables
    return engine


def _chinese(tables: str | None) -> Any:
    from m2lsp.annotation.cherrant_data import data_folder
    from m2lsp.annotation.chinese import ChineseAnnotator, ChineseSettings
    from m2lsp.annotation.parse_cache import ParseCache

    engine = ChineseAnnotator(ChineseSettings(data_folder(None, tables), simplified=False,
                                              strategy="first"), ParseCache(None))
    engine.edit_sets(list("我去了"), list("我去"))
    return engine
