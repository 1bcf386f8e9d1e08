"""Reading a hypothesis and a reference M2 file as errant_compare reads them, and scoring
them (shared by `m2lsp score --metric errant` and the drop-in `m2lsp errant-compare`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from m2lsp.parsing.source import SourceText, read_source
from m2lsp.scoring.errant.compare import ErrantResult, ErrantSettings, evaluate
from m2lsp.scoring.errant.inputs import check_pair, read_blocks


def as_errant_reads(source: SourceText) -> str:
    """The text with its byte-order mark, which errant_compare keeps in the first line."""
    return "\ufeff" + source.text if source.bom else source.text


def score_files(hyp: Path, ref: Path, settings: ErrantSettings, encoding: str | None = None,
                warn: Callable[[str], None] | None = None) -> ErrantResult:
    """Read, check and score; `warn` hears where the sources differ in some tokens."""
    hyp_blocks = read_blocks(as_errant_reads(read_source(hyp, "hypothesis", encoding)),
                             str(hyp))
    ref_blocks = read_blocks(as_errant_reads(read_source(ref, "reference", encoding)),
                             str(ref))
    warning = check_pair(hyp_blocks, ref_blocks, str(hyp), str(ref))
    if warning and warn is not None:
        warn(f"warning: {warning}")
    return evaluate(hyp_blocks, ref_blocks, settings)
