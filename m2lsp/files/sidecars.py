"""Reading the files beside an M2 file that `check` and the language server take into
account: a curated gold's decision log (GOLD.curation.jsonl, with the annotators' files it
names) and the notes (FILE.notes.jsonl).  A sidecar that cannot be read is left out of the
curation and the notes, and what is wrong with it is kept as a problem (rule N003): a
broken sidecar is reported, never raised."""

from __future__ import annotations

import os
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
    problems: list[str] = []
    unfinished, changed = _curation(path, problems) if log.is_file() else (None, ())
    return Sidecars(unfinished, _notes(notes, problems), tuple(problems), changed)


def watched(path: Path) -> tuple[Path, ...]:
    """The files whose change changes `sidecars_of(path)`: its notes and its decision log
    (whether they exist or not) and the annotators' files the log names."""
    from m2lsp.curation.notes import SUFFIX as NOTES
    from m2lsp.curation.record import SUFFIX as LOG
    from m2lsp.curation.record import last_inputs, read_log

    log = Path(str(path) + LOG)
    found = [Path(str(path) + NOTES), log]
    try:
        names = last_inputs(read_log(log.read_text(encoding="utf-8")))
    except (M2lspError, OSError, UnicodeDecodeError):
        names = ()
    return tuple(found + [path.parent / name for name in names])


def _curation(gold: Path, problems: list[str]
              ) -> tuple[frozenset[str] | None, tuple[tuple[str, tuple[str, ...]], ...]]:
    """The keys of the sentences still to decide (None when the curation cannot be read)
    and the decided ones annotators changed since (key, who)."""
    from m2lsp.files.curation import open_curation

    try:
        found = open_curation(gold).found
    except (M2lspError, OSError, UnicodeDecodeError) as exc:
        problems.append(f"the curation of {gold.name} cannot be read: "
                        f"{_beside(_why(exc), gold.parent)}")
        return None, ()
    return (frozenset(o.key for o in found.outcomes if not o.finished),
            tuple((o.key, o.changed) for o in found.outcomes if o.changed))


def _notes(path: Path, problems: list[str]) -> tuple:
    from m2lsp.curation.notes import read_notes

    if not path.is_file():
        return ()
    try:
        return tuple(read_notes(path.read_text(encoding="utf-8"), path.name))
    except (M2lspError, OSError, UnicodeDecodeError) as exc:
        problems.append(f"the notes cannot be read: {_why(exc)}")
        return ()


def _beside(message: str, folder: Path) -> str:
    """The message with the files of `folder` (the M2 file's own) named by their names, so
    that it reads the same from `check` given a relative path and from the server given an
    absolute one."""
    if folder == Path("."):
        return message
    return message.replace(str(folder) + os.sep, "")


def _why(exc: Exception) -> str:
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 ({exc.reason} at byte {exc.start})"
    if isinstance(exc, OSError):
        return f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": ")
    return str(exc)
