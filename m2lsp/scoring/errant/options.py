"""ERRANT's own options, typed, built once from the command line and the configuration:
errant_compare's flags (spelled with two dashes) and, for a plain-text hypothesis,
errant_parallel's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import m2lsp.defaults as defaults
from m2lsp.errors import UsageError
from m2lsp.parsing.source import Text
from m2lsp.scoring.metric import Shared

if TYPE_CHECKING:  # the engines load when options are built, not when flags are declared
    from m2lsp.annotation.english import EnglishSettings
    from m2lsp.scoring.errant.compare import ErrantSettings

MODES = ("dt", "ds", "cs", "cse")

@dataclass(frozen=True)
class ErrantOptions:
    settings: ErrantSettings
    category: int | None  # -cat
    annotation: EnglishSettings  # for a plain-text hypothesis
    jobs: int | None = None
    references: tuple[str | Text, ...] = ()  # --ref: plain-text references (with
    # --source): paths, or the API's texts in memory


def compare_settings(values: Mapping[str, Any], shared: Shared, **more: Any
                     ) -> tuple[ErrantSettings, int | None]:
    """errant_compare's options (ChERRANT's scorer's with `more`) and the -cat level."""
    if shared.beta <= 0:
        raise UsageError("--beta must be > 0")
    modes = [m for m in MODES if values.get(f"errant_{m}")]
    if len(modes) > 1:
        raise UsageError("choose one of --dt, --ds, --cs, --cse, not "
                         + " and ".join(f"--{m}" for m in modes))
    if shared.jobs is not None and shared.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    from m2lsp.scoring.errant.compare import ErrantSettings

    settings = ErrantSettings(shared.beta, modes[0] if modes else "cs",
                              bool(values.get("errant_single")),
                              bool(values.get("errant_multi")),
                              tuple(values.get("errant_filt") or ()),
                              variant=values.get("errant_variant") or "errant", **more)
    return settings, values.get("errant_cat") or (3 if shared.per_type else None)


def errant_options(values: Mapping[str, Any], shared: Shared, config: Any) -> ErrantOptions:
    settings, category = compare_settings(values, shared)
    from m2lsp.annotation.english import EnglishSettings
    from m2lsp.annotation.parallel import settings_for

    lang = values.get("errant_lang") or "en"
    if lang == "zh":
        raise UsageError("--metric errant --lang zh: Chinese is --metric cherrant's (ChERRANT "
                         "at char level)")
    annotation = settings_for(lang, config,
                              spacy_model=values.get("spacy_model"),
                              english=(bool(values.get("errant_tok")),
                                       bool(values.get("errant_lev")),
                                       values.get("errant_merge") or defaults.MERGES[0]))
    assert isinstance(annotation, EnglishSettings)  # (zh was refused above)
    return ErrantOptions(settings, category, annotation, shared.jobs,
                         tuple(r if isinstance(r, Text) else str(r)
                               for r in values.get("gleu_references") or ()))
