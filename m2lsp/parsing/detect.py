"""Which format a file is in: by extension first, then by its first meaningful line."""

from __future__ import annotations

import re
from pathlib import Path

from m2lsp.model import Format

# `sid, correct`, `sid, start, ...`, or NLP-TEA 2014's `sid, Type` (a CGED type, so that
# any `word, word` line is not taken for one)
_TRUTH_LINE = re.compile(r"^[^,\s]+,[ \t]*(?:correct\s*$|-?[0-9]+\s*,|(?i:redundant|missing|"
                         r"selection|disorder|[RMSW])\s*$)", re.ASCII)
_HEAD = 1 << 20
# a CGED test input line: `(sid=ID)<TAB>...`, or `ID<TAB>` and a Chinese sentence (so that any
# two-column TSV is not taken for one)
_INPUT_LINE = re.compile(
    r"^\(sid=[^()\t]+\)\t|^[^\s(),]+\t[^\t]*[\u3400-\u9fff\uf900-\ufaff][^\t]*$")
# the elements of CGED SGML/XML (2014-2021): `<DOC>` with `<TEXT id>` or `<SENTENCE id>`
_CGED_ELEMENT = re.compile(r"<(?:DOC|ESSAY|TEXT|SENTENCE|ERROR|MISTAKE)[\s>]", re.IGNORECASE)


def detect_format(path: Path | str | None, text: str) -> Format | None:
    """The format of `text`, or None when it is none m2lsp knows."""
    suffix = Path(path).suffix.lower() if path else ""
    if suffix == ".m2":
        return Format.M2
    if suffix == ".ann":  # UA-GEC's inline annotation, unless it is brat standoff
        from m2lsp.formats.brat.conversion import is_brat

        return None if is_brat(text) else Format.ANN
    if suffix in (".json", ".jsonl"):
        from m2lsp.formats.bea_json.parser import is_bea_json

        return Format.BEA_JSON if is_bea_json(text) else None
    if suffix == ".md" and "### essay_id" in text[:1 << 16]:
        return Format.MULTIGEC  # (text before its first header is G002's to report)
    return sniff(text)


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
        if stripped.startswith("<"):
            return Format.CGED if cged_markup(head) else None
        if line.startswith("### essay_id"):
            return Format.MULTIGEC
        if stripped.startswith("S ") or stripped == "S":
            return Format.M2
        if _TRUTH_LINE.match(stripped):
            return Format.TRUTH
        if _INPUT_LINE.match(stripped):
            return Format.INPUT
        return None
    return None


def cged_markup(head: str) -> bool:
    """Whether markup is CGED's: one of its elements near the start (an XML declaration or
    another document's root alone is not: a `pom.xml` is no CGED file)."""
    return _CGED_ELEMENT.search(head[:1 << 16]) is not None
