"""ERRANT's own options, typed, built once from the command line and the configuration:
errant_compare's flags (spelled with two dashes) and, for a plain-text hypothesis,
errant_parallel's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from m2lsp import defaults
from m2lsp.errors import UsageError
from m2lsp.scoring.metric import Flag, Shared

if TYPE_CHECKING:  # the engines load when options are built, not when flags are declared
    from m2lsp.annotation.english import EnglishSettings
    from m2lsp.scoring.errant.compare import ErrantSettings

MODES = ("dt", "ds", "cs", "cse")

COMPARE_FLAGS = (
    Flag(("--dt",), "errant: detection, by tokens (errant_compare -dt)",
         {"action": "store_true", "dest": "errant_dt"}),
    Flag(("--ds",), "errant: detection, by spans (errant_compare -ds)",
         {"action": "store_true", "dest": "errant_ds"}),
    Flag(("--cs",), "errant: correction, by spans (errant_compare -cs; the default)",
         {"action": "store_true", "dest": "errant_cs"}),
    Flag(("--cse",), "errant: correction, by spans and error types (errant_compare -cse)",
         {"action": "store_true", "dest": "errant_cse"}),
    Flag(("--single",), "errant: only single-token edits (errant_compare -single)",
         {"action": "store_true", "dest": "errant_single"}),
    Flag(("--multi",), "errant: only multi-token edits (errant_compare -multi)",
         {"action": "store_true", "dest": "errant_multi"}),
    Flag(("--filt",), "errant: error types not to evaluate (errant_compare -filt)",
         {"nargs": "+", "default": None, "metavar": "TYPE", "dest": "errant_filt"}),
    Flag(("--cat",), "errant: per-category scores, 1 operation, 2 main type, 3 whole type "
         "(errant_compare -cat; --per-type is 3)",
         {"type": int, "choices": [1, 2, 3], "default": None, "dest": "errant_cat"}),
)
PARALLEL_FLAGS = (
    Flag(("--tok",), "errant: a plain-text hypothesis and its source are tokenised by spaCy "
         "(errant_parallel -tok)", {"action": "store_true", "dest": "errant_tok"}),
    Flag(("--lev",), "errant: align a plain-text hypothesis by standard Levenshtein "
         "(errant_parallel -lev)", {"action": "store_true", "dest": "errant_lev"}),
    Flag(("--merge",), "errant: merging of a plain-text hypothesis's edits (errant_parallel "
         "-merge; default rules)",
         {"choices": defaults.MERGES, "default": None, "dest": "errant_merge"}),
    Flag(("--spacy-model",), "errant: the spaCy pipeline that annotates a plain-text "
         f"hypothesis (default: [tool.m2lsp] spacy-model, else {defaults.SPACY_MODEL})",
         {"default": None, "metavar": "NAME", "dest": "spacy_model"}),
)
FLAGS = COMPARE_FLAGS + PARALLEL_FLAGS


@dataclass(frozen=True)
class ErrantOptions:
    settings: ErrantSettings
    category: int | None  # -cat
    annotation: EnglishSettings  # for a plain-text hypothesis
    jobs: int | None = None


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
                              tuple(values.get("errant_filt") or ()), **more)
    return settings, values.get("errant_cat") or (3 if shared.per_type else None)


def errant_options(values: Mapping[str, Any], shared: Shared, config: Any) -> ErrantOptions:
    settings, category = compare_settings(values, shared)
    model = str(values.get("spacy_model") or config.spacy_model)
    from m2lsp.annotation.english import EnglishSettings

    annotation = EnglishSettings(bool(values.get("errant_tok")), bool(values.get("errant_lev")),
                                 values.get("errant_merge") or defaults.MERGES[0], model)
    return ErrantOptions(settings, category, annotation, shared.jobs)
