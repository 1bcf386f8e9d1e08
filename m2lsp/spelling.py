"""What a misspelled name probably meant: "did you mean ...?" for options, choices, error
types and settings."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def closest(word: str, known: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The closest of `known` to a misspelled `word`, or None when none is close."""
    found = difflib.get_close_matches(word, list(known), n=1, cutoff=cutoff)
    return found[0] if found else None
