"""What an editor's command may write into an M2 file: an annotator id (a non-negative
integer, as M2 has them) and a correction that cannot break its A line's fields."""

from __future__ import annotations

from typing import Any

from m2lsp.errors import UsageError
from m2lsp.model import MAX_DIGITS

FIELD_SEPARATOR = "|||"


def checked_annotator(value: Any) -> str:
    """The annotator id `value` names (surrounding spaces dropped); UsageError unless it is
    a non-negative integer of at most MAX_DIGITS digits (a newline in it would write a
    line of its own into the file)."""
    text = str(value).strip() if isinstance(value, str | int) and not isinstance(
        value, bool) else None
    if text is None or not text.isascii() or not text.isdigit() or len(text) > MAX_DIGITS:
        raise UsageError(f"annotator {str(value)[:40]!r} is not an annotator id (a "
                         "non-negative integer)")
    return text


def checked_correction(value: Any) -> str:
    """The correction `value` as given; UsageError when it is not text or holds the field
    separator `|||` (its A line would have fields of its own making)."""
    if not isinstance(value, str):
        raise UsageError("the correction is not text")
    if FIELD_SEPARATOR in value:
        raise UsageError(f"a correction cannot contain {FIELD_SEPARATOR!r} (the separator "
                         "of an A line's fields)")
    return value
