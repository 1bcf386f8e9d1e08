"""MultiGEC-2025 essay files to `EssayDocument`: header lines by `grammar/multigec.lark`
(the fast path reads a well-formed header with a pattern the grammar's tests prove exact;
a `###` line it rejects is parsed by Lark so that the problem names the column), every
other line an essay's text.

`essays(text)` gives the essays as the shared task's evaluation read them (its
`md_to_dict`: the file cut at each `### essay_id = `, the id up to the line's end, the rest
of the piece the essay's text)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from lark.exceptions import UnexpectedInput

from m2lsp.formats.multigec.model import Essay, EssayDocument, EssayProblem
from m2lsp.parsing.grammar import expected_words, parser
from m2lsp.parsing.source import SourceText

HEADER = "### essay_id = "
_HEADER = re.compile(r"### essay_id = (\S+)[ \t]*$")
_WORDS = {"ID": "an essay id", "_SP": "a space", "$END": "end of line"}


def parse_essays(source: SourceText | str) -> EssayDocument:
    """Parse a MultiGEC file; never raises for bad input (see `problems`)."""
    lines = source.lines if isinstance(source, SourceText) else SourceText(source).lines
    essays: list[Essay] = []
    problems: list[EssayProblem] = []
    current: tuple[str, int, tuple[int, int]] | None = None
    last_text = -1
    preamble: tuple[int, int] | None = None
    for row, line in enumerate(lines):
        if not line.startswith("###"):
            if line.strip():
                last_text = row
                if current is None and preamble is None:
                    preamble = (row, row + 1)
                elif current is None and preamble is not None:
                    preamble = (preamble[0], row + 1)
            continue
        header = parse_header(row, line)
        if isinstance(header, EssayProblem):
            problems.append(header)
            continue
        if current is not None:
            essays.append(_essay(current, lines, last_text))
        current = header
        last_text = row
    if current is not None:
        essays.append(_essay(current, lines, last_text))
    return EssayDocument(tuple(essays), tuple(problems), preamble)


def _essay(header: tuple[str, int, tuple[int, int]], lines: list[str], last_text: int
           ) -> Essay:
    essay_id, row, columns = header
    first, last = row + 1, max(row + 1, last_text + 1)
    return Essay(essay_id, row, columns, first, last, "\n".join(lines[first:last]))


def parse_header(row: int, line: str) -> tuple[str, int, tuple[int, int]] | EssayProblem:
    """(id, row, the id's columns), or a problem saying what is wrong with the line."""
    match = _HEADER.match(line)
    if match is not None:
        return match.group(1), row, (match.start(1), match.end(1))
    try:
        tree = parser("multigec", "header").parse(line)
    except UnexpectedInput as exc:
        return EssayProblem(row, _message(exc), line)
    token = next(tree.scan_values(lambda v: getattr(v, "type", None) == "ID"))
    start = token.start_pos or 0
    return str(token), row, (start, start + len(token))


def _message(exc: UnexpectedInput) -> str:
    column = getattr(exc, "column", 0)
    expected = sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())
    wanted = expected_words(parser("multigec", "header"), expected, _WORDS)
    at = f"column {column}" if column else "start of line"
    found = f": expected {' or '.join(wanted)}" if wanted else ""
    return f"malformed essay header at {at}{found} (a header is `{HEADER}ID`)"


def essays(text: str) -> dict[str, str]:
    """The essays as MultiGEC-2025's evaluation read them, by id, in file order: the text
    read with universal line ends (Python's text mode, as it opened the files: CRLF and CR
    are LF, as m2lsp reads every format), cut at each `### essay_id = `, the id the rest of
    that line, the essay the rest of the piece (the shared task then tokenised it:
    `pretokenised`).  An id met twice keeps its last essay, as there (`repeated`)."""
    return dict(_pieces(text))


def repeated(text: str) -> list[str]:
    """The essay ids a file has more than once (G003 in `check`), in file order."""
    seen: dict[str, int] = {}
    for essay_id, _ in _pieces(text):
        seen[essay_id] = seen.get(essay_id, 0) + 1
    return [essay_id for essay_id, count in seen.items() if count > 1]


def _pieces(text: str) -> list[tuple[str, str]]:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return [(essay_id, body) for essay_id, _, body in
            (piece.partition("\n") for piece in text.split(HEADER)[1:])]


def pretokenised(essay: str) -> str:
    """An essay on one line as the shared task tokenised it: syntok's tokens, each
    stripped, joined by single spaces, the ends' line breaks stripped (syntok is in
    m2lsp[multigec])."""
    from m2lsp.errors import UsageError

    try:
        from syntok.tokenizer import Tokenizer
    except ImportError:
        raise UsageError("MultiGEC essays are tokenised with syntok, as the shared task did: "
                         "pip install 'm2lsp[multigec]'") from None
    return " ".join(str(token).strip() for token in Tokenizer().tokenize(essay)).strip("\n")


def is_essays(text: str) -> bool:
    """Whether a text is a MultiGEC essay file: its first non-blank line is a header."""
    for line in text[:1 << 16].lstrip("\ufeff").splitlines():
        if line.strip():
            return line.startswith(HEADER)
    return False


MISSING_HYPOTHESIS = "!"  # what the shared task's evaluation scored for a missing essay


def corrected_columns(orig: str, corrections: list[str], names: Sequence[str]
                      ) -> tuple[list[str], list[list[str]], list[str]]:
    """An original essay file and its corrected ones as parallel text: (the original's
    essays, each correction file's column, notes), paired by id and tokenised as `aligned`
    does; an InputError names a file that is not in the essay format."""
    from m2lsp.errors import InputError

    for name, text in zip(names, corrections, strict=True):
        if not is_essays(text):
            raise InputError(f"{name} is not in MultiGEC's essay format (### essay_id = N "
                             "headings), but the original is: give every file in it")
    _, sources, _, columns, notes = aligned(orig, orig, corrections, names)
    return sources, columns, notes


def aligned(orig: str, hypothesis: str, references: list[str],
            names: Sequence[str] = ()) -> tuple[list[str], list[str], list[str],
                                                list[list[str]], list[str]]:
    """One line per essay of the original, as the shared task's evaluation made its
    files (each essay `pretokenised`): (ids, sources, hypotheses, each reference file's
    column, notes).  A hypothesis missing an essay gives "!" there, as it did; a
    reference file missing one (a refN may leave essays out) gives the first reference's
    text there, so that the essay is scored against the references it has, and where the
    first lacks it, the original's (a note names the essays: a perfect hypothesis then
    scores below 100).  An id a file repeats keeps its last essay, with a note.  `names`:
    the references' names for the notes (default "reference N")."""
    sources = essays(orig)
    hyps = essays(hypothesis)
    refs = [essays(r) for r in references]
    named = [names[k] if k < len(names) else f"reference {k + 1}"
             for k in range(len(references))]
    notes = _repeats([("the original", orig), ("the hypothesis", hypothesis),
                      *zip(named, references, strict=True)])
    missing = [i for i in sources if i not in hyps]
    if missing:
        notes.append(f"the hypothesis has no essay {_listed(missing)}: scored as '!', as "
                     f"the shared task did")
    extra = [i for i in hyps if i not in sources]
    if extra:
        notes.append(f"the hypothesis's essays {_listed(extra)} are not in the original: "
                     "not scored")
    ids = list(sources)
    if refs and (lacking := [i for i in ids if i not in refs[0]]):
        notes.append(f"{named[0]} has no essay {_listed(lacking)}: the original's text "
                     "stands in for it there, so even a perfect hypothesis scores below "
                     "100 on it")
    columns: list[list[str]] = []
    for k, found in enumerate(refs):
        column = []
        for essay_id in ids:
            text = found.get(essay_id)
            if text is None:
                text = refs[0].get(essay_id) if k else None
            column.append(pretokenised(text if text is not None else sources[essay_id]))
        columns.append(column)
    return (ids, [pretokenised(sources[i]) for i in ids],
            [pretokenised(hyps[i]) if i in hyps else MISSING_HYPOTHESIS for i in ids],
            columns, notes)


def _repeats(files: Sequence[tuple[str, str]]) -> list[str]:
    return [f"{name} has essay {_listed(ids)} more than once: its last is scored (G003)"
            for name, text in files if (ids := repeated(text))]


def _listed(ids: Sequence[str]) -> str:
    return ", ".join(ids[:10]) + (", ..." if len(ids) > 10 else "")


_NAME = re.compile(r"^(?P<lang>[a-z]{2,3})-(?P<corpus>.+?)-(?P<role>orig|ref\d+|[^-]+)"
                   r"(?:-.+)?-(?P<split>train|dev|test)\.md$", re.IGNORECASE)


def role_of(name: str) -> str | None:
    """"orig", "ref" or "hyp" by the shared task's naming, or None: not so named."""
    match = _NAME.match(name)
    if match is None:
        return None
    role = match.group("role").lower()
    return "orig" if role == "orig" else "ref" if re.fullmatch(r"ref\d+", role) else "hyp"


def original_of(path: Path) -> Path | None:
    """The corpus's original file beside a file so named (`LANG-CORPUS-orig-SPLIT.md`)."""
    match = _NAME.match(path.name)
    if match is None:
        return None
    return path.with_name(f"{match.group('lang')}-{match.group('corpus')}-orig-"
                          f"{match.group('split')}.md")
