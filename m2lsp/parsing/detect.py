"""Which format a file is in: by extension first, then by its first meaningful line."""

from __future__ import annotations

import re
from pathlib import Path

from m2lsp.model import Format

_TRUTH_LINE = re.compile(r"^[^,\s]+,[ \t]*(?:correct\s*$|-?[0-9]+\s*,)", re.ASCII)
_HEAD = 1 << 20
_EXTENSIONS = {".m2": Format.M2, ".sgml": Format.CGED, ".xml": Format.CGED}


def detect_format(path: Path | str | None, text: str) -> Format | None:
    """The format of `text`, or None when it is none m2lsp knows."""
    suffix = Path(path).suffix.lower() if path else ""
    if suffix == ".m2":
        return Format.M2
    by_content = sniff(text)
    markup = text[:_HEAD].lstrip("\ufeff \t\r\n")[:1] == "<"
    if suffix in (".sgml", ".xml") and by_content is None and markup:
        return Format.CGED
    return by_content


def sniff(text: str) -> Format | None:
    """Guess the format from the first non-blank lines."""
    head = text[:_HEAD]  # (not the whole of a large file split into lines)
    lines = head.lstrip("\ufeff").splitlines()[:20]
    if len(head) < len(text) and len(lines) < 20 and not any(line.strip() for line in lines):
        lines = text.lstrip("\ufeff").splitlines()[:20]  # the head was all blank
    for line in lines:
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("<DOC") or stripped.startswith("<?xml"):
            return Format.CGED
        if stripped.startswith("S ") or stripped == "S":
            return Format.M2
        if _TRUTH_LINE.match(stripped):
            return Format.TRUTH
        return None
    return None
