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
    start: int | None = None  # --start, --end: compare_m2_for_evaluation's slice
    end: int | None = None
    multi_hyp: str | None = None  # -multi_hyp_avg or -multi_hyp_max, given (no effect)

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
        multi = [f"--multi-hyp-{k}" for k in ("avg", "max")
                 if values.get(f"cherrant_multi_hyp_{k}")]
        return CherrantOptions(settings, category,
                               values.get("cherrant_data") or config.cherrant_data,
                               not values.get("cherrant_traditional"),
                               values.get("cherrant_strategy") or "all", shared.jobs,
                               values.get("cherrant_start"), values.get("cherrant_end"),
                               " and ".join(multi) or None)

    def selected(self, request: Request, hyp: list[Any], refs: list[Any]
                 ) -> tuple[list[Any], list[Any]]:
        """compare_m2_for_evaluation's `--start`/`--end`: a Python slice of both files'
        blocks, taken only when both are given (one alone is ignored, as there)."""
        options: CherrantOptions = request.options
        if options.multi_hyp and request.warn is not None:
            request.warn(f"note: {options.multi_hyp}: compare_m2_for_evaluation.py accepts "
                         "-multi_hyp_avg and -multi_hyp_max but does not use them; a "
                         "sentence's several hypotheses are scored as without them (the "
                         "best hypothesis and reference pair)")
        start, end = options.start, options.end
        if start is None and end is None:
            return hyp, refs
        if start is None or end is None:
            if request.warn is not None:
                given = "--start" if start is not None else "--end"
                request.warn(f"warning: {given} without "
                             f"{'--end' if start is not None else '--start'}: "
                             "compare_m2_for_evaluation.py slices only when both are given, "
                             "so every sentence is scored, as there")
            return hyp, refs
        return hyp[start:end], refs[start:end]

    def check_reference(self, request: Request, text: str) -> None:
        return None

    def reference_blocks(self, request: Request, ref: Any) -> Any:
        """ChERRANT's reading: a second blank line after a block changes nothing."""
        from m2lsp.scoring.errant.metric import _reference_blocks

        return _reference_blocks(request, ref, cherrant=True)

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
