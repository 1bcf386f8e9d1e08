"""Reading the files beside an M2 file that `check` takes into account: a curated gold's
decision log (GOLD.curation.jsonl, with the annotators' files it names) and the notes
(FILE.notes.jsonl).  A sidecar that cannot be read is left out: check then says nothing of
it (`m2lsp curate --status` and `m2lsp note FILE` name the problem)."""

from __future__ import annotations

from pathlib import Path

from m2lsp.curation.sidecars import Sidecars
from m2lsp.errors import M2lspError


def sidecars_of(path: Path) -> Sidecars | None:
    """The sidecars of `path`, or None when it has none."""
    from m2lsp.curation.notes import SUFFIX as NOTES
    from m2lsp.curation.record import SUFFIX as LOG

    log, notes = Path(str(path) + LOG), Path(str(path) + NOTES)
    if not log.is_file() and not notes.is_file():
        return None
    return Sidecars(_unfinished(path) if log.is_file() else None, _notes(notes))


def _unfinished(gold: Path) -> frozenset[str] | None:
    from m2lsp.files.curation import open_curation

    try:
        found = open_curation(gold).found
    except (M2lspError, OSError, UnicodeDecodeError):
        return None
    return frozenset(o.key for o in found.outcomes if not o.finished)


def _notes(path: Path) -> tuple:
    from m2lsp.curation.notes import read_notes

    if not path.is_file():
        return ()
    try:
        return tuple(read_notes(path.read_text(encoding="utf-8")))
    except (M2lspError, OSError, UnicodeDecodeError):
        return ()
