"""LLM-E's view of a hypothesis: its ERRANT edits against the source, each `orig→cor`
(the source's tokens and the correction's, spaces between), joined by spaces -- an empty
line for a hypothesis without edits -- as gec-metrics' `hyp_form` writes them from
`errant.annotate` of the whitespace-split sentences (UNK edits in, no noop).  The edits are
m2lsp's ERRANT annotation (annotation.edit_lists), each distinct pair once."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def edit_forms(sources: Sequence[str], systems: Sequence[Sequence[str]], settings: Any,
               jobs: int = 1) -> Callable[[str, str], str]:
    """A function (source, hypothesis) -> the edits' line, for every pair of `systems`."""
    from m2lsp.annotation.edit_lists import edit_lists

    pairs = list(dict.fromkeys((s, column[k]) for column in systems
                               for k, s in enumerate(sources)))
    found = edit_lists([s for s, _ in pairs], [h for _, h in pairs], settings, jobs,
                       left_out=frozenset({"noop"}))
    lines = {pair: " ".join(f"{_original(pair[0], e)}→{e.c_str}" for e in edits)
             for pair, edits in zip(pairs, found, strict=True)}
    return lambda source, hypothesis: lines[(source, hypothesis)]


def _original(source: str, edit: Any) -> str:
    return " ".join(source.split()[edit.o_start:edit.o_end])
