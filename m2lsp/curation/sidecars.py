"""What `m2lsp check` knows of the files beside an M2 file: whether it is a curated gold
and which of its sentences are still to decide, and the notes on it (rules N001, N002)."""

from __future__ import annotations

from dataclasses import dataclass

from m2lsp.curation.notes import Note


@dataclass(frozen=True)
class Sidecars:
    """`unfinished`: the keys of a curated gold's sentences not yet auto-merged nor
    decided (None: the file is no curated gold); `notes`: the notes beside the file."""

    unfinished: frozenset[str] | None = None
    notes: tuple[Note, ...] = ()
