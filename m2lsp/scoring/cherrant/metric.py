"""`--metric cherrant`: span-based scores as ChERRANT's `compare_m2_for_evaluation.py` prints
them (MuCGEC, FCGEC, NaSGEC, NLPCC-2018 at char level).  SYSTEM is the hypothesis M2, or
plain text (one sentence a line; the source from GOLD's `S` lines or --source), or
ChERRANT's parallel file (`id<TAB>source<TAB>target`), annotated as `parallel_to_m2.py -g
char` would; GOLD is the reference M2.

The scorer is errant_compare's with ChERRANT's differences (`scoring.errant.compare`), its
flags the same as --metric errant's, and ChERRANT's --max_answer_num and --reference_num.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from m2lsp.errors import UsageError
from m2lsp.scoring.cherrant import DECLARATION
from m2lsp.scoring.errant.metric import Errant
from m2lsp.scoring.errant.options import compare_settings
from m2lsp.scoring.metric import EditorJob, Request, Shared

if TYPE_CHECKING:
    from m2lsp.scoring.errant.compare import ErrantSettings

@dataclass(frozen=True)
class CherrantOptions:
    settings: ErrantSettings
    category: int | None  # -cat
    data: Path | str | None  # --cherrant-data, else the setting (a plain-text hypothesis)
    simplified: bool = True
    strategy: str = "all"
    jobs: int | None = None

    def annotation(self) -> Any:
        """The annotation settings of a plain-text hypothesis (an error when no folder of
        ChERRANT's tables is named)."""
        from m2lsp.annotation.cherrant_data import data_folder
        from m2lsp.annotation.chinese import ChineseSettings

        return ChineseSettings(data_folder(self.data, None), self.simplified, self.strategy)


class Cherrant(Errant):
    declaration = DECLARATION

    def options(self, values: Mapping[str, Any], shared: Shared, config: Any
                ) -> CherrantOptions:
        references = values.get("cherrant_references")
        if references is not None and references < 1:
            raise UsageError("--reference-num must be at least 1")
        settings, category = compare_settings(
            values, shared, cherrant=True, max_answers=values.get("cherrant_max_answers"),
            references=references)
        return CherrantOptions(settings, category,
                               values.get("cherrant_data") or config.cherrant_data,
                               not values.get("cherrant_traditional"),
                               values.get("cherrant_strategy") or "all", shared.jobs)

    def check_reference(self, request: Request, text: str) -> None:
        return None

    def check_language(self, request: Request, system: str, gold: str) -> None:
        """ChERRANT annotates Chinese characters: English is --metric errant's."""
        from m2lsp.scripts import script

        if {script(system), script(gold)} - {None, "Chinese"}:
            raise UsageError("the hypothesis or the reference is not Chinese, but --metric "
                             "cherrant annotates a plain-text hypothesis at char level as "
                             "ChERRANT does: for English use --metric errant")

    def annotated(self, request: Request, refs: Any, hyp: Any) -> Any:
        from m2lsp.scoring.cherrant.plain import annotate_chinese

        return annotate_chinese(request, refs, hyp)

    def editor_settings(self, job: EditorJob) -> Any:
        from m2lsp.scoring.errant.compare import ErrantSettings

        return ErrantSettings(beta=job.settings.beta, cherrant=True)


METRIC = Cherrant()
