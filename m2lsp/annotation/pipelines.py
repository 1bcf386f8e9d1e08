"""Which spaCy pipeline ERRANT annotates with: the one named, or, when the default
(`en_core_web_sm`) is not installed and exactly one English pipeline is, that one (said on
stderr / the server's log).  Installed pipelines are found from their packages' metadata
(the `spacy_models` entry points and each one's meta.json), without importing spaCy.
"""

from __future__ import annotations

import functools
import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import m2lsp.defaults as defaults
from m2lsp.errors import UsageError
from m2lsp.logs import logger

log = logger(__name__)

HOW = ("see 'Getting a spaCy model' in docs/languages.md: `python -m spacy download "
       "en_core_web_sm` with internet, else `pip install` a pipeline's wheel or package; "
       "then --spacy-model NAME or the setting spacy-model")


@dataclass(frozen=True)
class Pipeline:
    """An installed pipeline package: its import name and what its meta.json says."""

    name: str
    lang: str
    version: str

    def __str__(self) -> str:
        return f"{self.name} ({self.lang or '?'}, {self.version or '?'})"


def meta_of(model: str) -> dict[str, Any] | None:
    """A pipeline's meta.json (a folder, or an installed package), or None: no such
    package, or not a pipeline (no meta.json beside it)."""
    if Path(model).is_dir():
        where = Path(model)
    else:
        try:
            spec = importlib.util.find_spec(model)
        except (ImportError, ValueError):
            return None
        if spec is None or spec.origin is None:
            return None
        where = Path(spec.origin).parent
    try:
        found = json.loads((where / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def installed() -> list[Pipeline]:
    """The spaCy pipelines installed as packages, by name (the package index is scanned
    once per process: 10 ms a scan, which a Scorer's every call paid twice)."""
    return list(_installed())


@functools.cache
def _installed() -> tuple[Pipeline, ...]:
    from importlib.metadata import entry_points

    found = []
    for name in sorted({e.name for e in entry_points(group="spacy_models")}):
        meta = meta_of(name) or {}
        found.append(Pipeline(name, str(meta.get("lang", "")), str(meta.get("version", ""))))
    return tuple(found)


def resolve(model: str | None, language: str = "en") -> str:
    """The pipeline to load for `model`: the one named, exactly (a UsageError naming the
    installed ones when it is missing or is no pipeline, `numpy`); or, when none is named,
    the default, else the one pipeline of the language installed (a note on the `m2lsp`
    logger says which)."""
    named = model is not None
    if model is None and language != "en":
        return _only_one(language)
    model = model or defaults.SPACY_MODEL
    if Path(model).is_dir() and meta_of(model) is not None:
        return model
    if _importable(model):
        if meta_of(model) is None and model not in {p.name for p in installed()}:
            raise UsageError(f"{model} is not a spaCy pipeline (it has no meta.json); "
                             + _choices())
        return model
    ours = [p for p in installed() if p.lang == language]
    if not named and len(ours) == 1:
        log.warning("note: %s is not installed; using %s, the one %s spaCy pipeline "
                    "that is (--spacy-model or the setting spacy-model names another)",
                    model, ours[0].name, "English" if language == "en" else language)
        return ours[0].name
    raise UsageError(f"the spaCy pipeline {model!r} is not installed; ERRANT needs one: "
                     + _choices())


def _only_one(language: str) -> str:
    """The one installed pipeline of a language other than English, or a UsageError
    naming the two ways to give a parse and the pipelines there are."""
    ours = [p for p in installed() if p.lang == language]
    if len(ours) == 1:
        log.warning("note: using %s, the one spaCy pipeline of %r installed (--spacy-model "
                    "or the setting spacy-models names another)", ours[0].name, language)
        return ours[0].name
    which = (f"{len(ours)} are installed ({', '.join(p.name for p in ours)}): name one"
             if ours else "none is installed")
    raise UsageError(f"--lang {language} needs a parse, and no spaCy pipeline was named "
                     f"({which}): name an installed pipeline with --spacy-model (or the "
                     f"setting spacy-models = {{{language} = \"NAME\"}}), or give CoNLL-U "
                     f"files made with Stanza, UDPipe or Trankit with --orig-conllu and "
                     f"--cor-conllu; " + _choices())


def _importable(model: str) -> bool:
    try:
        return importlib.util.find_spec(model) is not None
    except (ImportError, ValueError):
        return False


def _choices() -> str:
    found = installed()
    listed = ("installed pipelines: " + ", ".join(map(str, found)) if found
              else "no spaCy pipeline is installed")
    return f"{listed}; {HOW}"
