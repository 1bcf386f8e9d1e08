"""Reading a hypothesis and a reference M2 file as errant_compare reads them, and scoring
them (shared by `m2lsp score --metric errant` and the drop-in `m2lsp errant-compare`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from m2lsp.parsing.source import SourceText, read_source
from m2lsp.scoring.errant.compare import ErrantResult, ErrantSettings, evaluate
from m2lsp.scoring.errant.inputs import ErrantBlock, check_pair, read_blocks


def as_errant_reads(source: SourceText) -> str:
    """The text with its byte-order mark, which errant_compare keeps in the first line."""
    return "\ufeff" + source.text if source.bom else source.text


def score_files(hyp: Path, ref: Path, settings: ErrantSettings, encoding: str | None = None,
                warn: Callable[[str], None] | None = None) -> ErrantResult:
    """Read, check and score; `warn` hears where the sources differ in some tokens."""
    return score_sources(read_source(hyp, "hypothesis", encoding), str(hyp),
                         read_source(ref, "reference", encoding), str(ref), settings, warn)


def score_sources(hyp: SourceText, hyp_name: str, ref: SourceText, ref_name: str,
                  settings: ErrantSettings, warn: Callable[[str], None] | None = None,
                  hyp_by_sentence: bool = False) -> ErrantResult:
    """Check and score texts already read (`score_files` without the reading);
    `hyp_by_sentence`: see `inputs.check_pair`."""
    return score_blocks(read_blocks(as_errant_reads(hyp), hyp_name), hyp_name,
                        read_blocks(as_errant_reads(ref), ref_name), ref_name, settings, warn,
                        hyp_by_sentence)


def score_blocks(hyp_blocks: list[ErrantBlock], hyp_name: str, ref_blocks: list[ErrantBlock],
                 ref_name: str, settings: ErrantSettings,
                 warn: Callable[[str], None] | None = None, hyp_by_sentence: bool = False,
                 ) -> ErrantResult:
    """Check and score files already read into blocks (each read and split once)."""
    scorer = ("ChERRANT's compare_m2_for_evaluation.py" if settings.cherrant
              else "errant_compare")
    warning = check_pair(hyp_blocks, ref_blocks, hyp_name, ref_name, hyp_by_sentence, scorer)
    if warning and warn is not None:
        warn(f"warning: {warning}")
    return evaluate(hyp_blocks, ref_blocks, settings)
