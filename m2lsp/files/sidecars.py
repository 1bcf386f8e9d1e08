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
    return Sidecars(_unfinished(path, log) if log.is_file() else None, _notes(notes))


def _unfinished(gold: Path, log: Path) -> frozenset[str] | None:
    from m2lsp.authoring.annotators import Named, merge
    from m2lsp.curation.guard import guarded
    from m2lsp.curation.record import last_inputs, read_log
    from m2lsp.files.reading import read_bytes
    from m2lsp.parsing.m2 import parse_m2
    from m2lsp.parsing.source import decode

    try:
        decisions = read_log(log.read_text(encoding="utf-8"))
        files = [Named(str(gold.parent / name),
                       parse_m2(decode(read_bytes(gold.parent / name))))
                 for name in last_inputs(decisions)]
        if not files:
            return None
        document = files[0].document if len(files) == 1 else parse_m2(merge(files))
        found, _ = guarded(document, decisions)
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
