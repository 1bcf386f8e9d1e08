"""What `m2lsp check` and the language server know of the files beside an M2 file: whether
it is a curated gold and which of its sentences are still to decide, the notes on it, and
why a file beside it could not be read, which decided sentences annotators changed since
(rules N001 to N004)."""

from __future__ import annotations

from dataclasses import dataclass

from m2lsp.curation.notes import Note


@dataclass(frozen=True)
class Sidecars:
    """`unfinished`: the keys of a curated gold's sentences not yet auto-merged nor
    decided (None: the file is no curated gold, or its curation cannot be read);
    `notes`: the notes beside the file; `problems`: why a file beside it (the notes, the
    decision log, an annotator's file the log names) could not be read, one message each;
    `changed`: the decided sentences annotators changed since (key, their ids)."""

    unfinished: frozenset[str] | None = None
    notes: tuple[Note, ...] = ()
    problems: tuple[str, ...] = ()
    changed: tuple[tuple[str, tuple[str, ...]], ...] = ()
