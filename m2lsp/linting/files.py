"""`m2lsp check` without the command line: find files, read them, lint, fix, write back."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from m2lsp.config import LintSettings
from m2lsp.diagnostic import Applicability, Diagnostic
from m2lsp.files import reading
from m2lsp.files.sidecars import sidecars_of
from m2lsp.files.writing import TEMP_SUFFIX, Snapshot, WriteRefused, write_atomic
from m2lsp.linting.cap import Unlisted
from m2lsp.linting.fixes import FixOutcome, fix_until_stable
from m2lsp.linting.run import Corpus, LintResult, lint
from m2lsp.linting.stream import fix_round, lint_stream, streamable
from m2lsp.model import Format
from m2lsp.parsing.detect import detect_format
from m2lsp.parsing.source import SourceText, decode

SKIPPED_DIRS = {".git", ".hg", ".svn", "__pycache__", ".venv", "node_modules", ".tox"}


@dataclass(frozen=True)
class CheckedFile:
    """What checking one file found (and, with fixes, what it changed)."""

    path: Path
    format: Format | None
    diagnostics: tuple[Diagnostic, ...] = ()
    error: str | None = None  # an I/O problem: the file could not be checked
    fixed: FixOutcome | None = None
    not_fixed: str | None = None  # why fixes were not written
    not_regular: bool = False  # inside a folder and not a regular file: skipped unread
    empty: bool = False  # nothing but blanks: read, and nothing in it to check
    unlisted: tuple[Unlisted, ...] = ()  # findings counted beyond `most_per_rule`, by rule
    # what linting made (the parsed document with it), for a caller that would rather keep
    # it than free it: `m2lsp check` keeps the last file's to its exit
    linted: LintResult | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class CheckOptions:
    settings: LintSettings = field(default_factory=LintSettings)
    format: Format | None = None  # None: by extension and content
    encoding: str | None = None
    fix: frozenset[Applicability] = frozenset()  # empty: report only
    cged_input: Path | None = None
    most_per_rule: int | None = None  # findings kept per rule (None: all), the rest counted


def discover(paths: list[Path]) -> Iterator[Path]:
    """Files named directly, and every file under named folders (hidden and tool folders
    skipped, and m2lsp's own unfinished writes), in a stable order."""
    for path in paths:
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and d[:1] != ".")
                for name in sorted(files):
                    if not name.endswith(TEMP_SUFFIX):
                        yield Path(root) / name
        else:
            yield path


def check_file(path: Path, options: CheckOptions, explicit: bool = True) -> CheckedFile:
    """Read, detect, lint and (with options.fix) fix one file.  Inside a folder
    (`explicit` False), what is not a regular file (a pipe, a device) is skipped unread:
    opening a pipe waits for a writer, and a device may never end."""
    if not explicit and not reading.is_regular(path):
        return CheckedFile(path, None, not_regular=True)
    try:
        data = reading.read_bytes(path)
        snapshot = Snapshot.of(path, data) if options.fix else None
    except OSError as exc:
        return CheckedFile(path, None, error=f"cannot read: {exc.strerror or exc}")
    source = decode(data, options.encoding)
    del data  # (a large file's bytes need not stay beside its text)
    fmt = options.format or detect_format(path, source.text)
    if fmt is None:
        return CheckedFile(path, None, error=_unlinted(path, source.text) if explicit
                           else None)
    known = _known_ids(path, options) if fmt is Format.TRUTH else None
    corpus = corpus_of(path, options.encoding) if fmt is Format.MULTIGEC else None
    sidecars = sidecars_of(path) if fmt is Format.M2 else None
    if not options.fix:
        result = _lint(source, fmt, options, known, corpus, sidecars)
        return CheckedFile(path, fmt, result.diagnostics, linted=result,
                           empty=_blank(source.text), unlisted=result.unlisted)
    return _fix(path, source, fmt, options, known, snapshot, corpus, sidecars)


def _lint(source: SourceText, fmt: Format, options: CheckOptions,
          known: frozenset[str] | None, corpus: Corpus | None, sidecars: object = None
          ) -> LintResult:
    """The findings of `source` as `check` lists them: an M2 file chunk by chunk (see
    linting/stream.py), others whole."""
    if streamable(fmt, options.settings, sidecars):
        return lint_stream(source, options.settings, options.most_per_rule)
    return lint(source, fmt, options.settings, known_ids=known, corpus=corpus,
                most_per_rule=options.most_per_rule, sidecars=sidecars)


def _blank(text: str) -> bool:
    """Nothing but whitespace (`not text.strip()`, without a copy of a large text)."""
    return not text or text.isspace()


def _unlinted(path: Path, text: str) -> str | None:
    """Why a named file of a format m2lsp reads but does not lint is not checked."""
    from m2lsp.formats.brat.conversion import is_brat

    if path.suffix.lower() == ".ann" and is_brat(text):
        return (f"brat standoff: m2lsp does not lint it; `m2lsp convert {path.name} --to m2` "
                "reads it (with the .txt beside it), and `m2lsp check` the M2")
    return None


def _fix(path: Path, source: SourceText, fmt: Format, options: CheckOptions,
         known: frozenset[str] | None, snapshot: Snapshot | None,
         corpus: Corpus | None = None, sidecars: object = None) -> CheckedFile:
    if source.problem is not None:
        found = _lint(source, fmt, options, known, corpus, sidecars)
        return CheckedFile(path, fmt, found.diagnostics, unlisted=found.unlisted,
                           not_fixed="not fixed: the file does not decode cleanly; fixing "
                           "would change bytes it could not read")
    settings = options.settings
    outcome = fix_until_stable(
        source, lambda s: lint(s, fmt, settings, known_ids=known, corpus=corpus,
                               sidecars=sidecars).diagnostics,
        options.fix, one_round=(lambda s: fix_round(s, settings, options.fix))
        if streamable(fmt, settings, sidecars) else None)
    if outcome.applied:
        try:
            write_source(path, outcome.source, snapshot)
        except (WriteRefused, OSError) as exc:
            found = _lint(source, fmt, options, known, corpus, sidecars)
            error = str(exc) if isinstance(exc, WriteRefused) else (
                f"cannot write: {exc.strerror or exc}")
            return CheckedFile(path, fmt, found.diagnostics, error=error,
                               unlisted=found.unlisted)
    remaining = _lint(outcome.source, fmt, options, known, corpus, sidecars)
    return CheckedFile(path, fmt, remaining.diagnostics, fixed=outcome,
                       empty=_blank(outcome.source.text), unlisted=remaining.unlisted)


def write_source(path: Path, source: SourceText, snapshot: Snapshot | None) -> None:
    """Write text back in its encoding, with its BOM if it keeps one: atomically, and only
    if the file is still what `snapshot` says was read."""
    data = source.text.encode(source.encoding)
    if source.bom:
        data = b"\xef\xbb\xbf" + data
    write_atomic(path, data, expect=snapshot)


def corpus_of(path: Path, encoding: str | None = None) -> Corpus:
    """A MultiGEC file's place in its corpus, by the shared task's naming
    (`LANG-CORPUS-orig|refN|...-SPLIT.md`): its role, and the essay ids of the original
    file beside it (None where there is none)."""
    from m2lsp.formats.multigec.parser import original_of, role_of

    role = role_of(path.name)
    original = original_of(path)
    if role == "orig" or original is None or not original.is_file():
        return Corpus(role)
    try:
        text = decode(reading.read_bytes(original), encoding).text
    except OSError:
        return Corpus(role)
    from m2lsp.formats.multigec.parser import parse_essays

    ids = frozenset(e.id for e in parse_essays(text).essays)
    return Corpus(role, ids, original.name)


def read_ids(path: Path, encoding: str | None = None) -> frozenset[str]:
    """Sentence ids of a CGED input file (`(sid=ID)<TAB>text` or `ID<TAB>text` lines) or of
    a CGED SGML file."""
    source = decode(reading.read_bytes(path), encoding)
    if detect_format(path, source.text) is Format.CGED:
        from m2lsp.formats.cged.parser import parse_cged

        return frozenset(doc.id for doc in parse_cged(source).docs)
    from m2lsp.formats.cged.input_parser import parse_input

    return frozenset(line.sid for line in parse_input(source).lines)


def companion_input(path: Path) -> Path | None:
    """The input file that goes with a truth file by name (`...Truth...` -> `...Input...`)."""
    for old, new in (("Truth", "Input"), ("truth", "input")):
        if old in path.name:
            candidate = path.with_name(path.name.replace(old, new))
            if candidate.is_file():
                return candidate
    return None


def _known_ids(path: Path, options: CheckOptions) -> frozenset[str] | None:
    source = options.cged_input or companion_input(path)
    if source is None:
        return None
    try:
        return read_ids(source, options.encoding)
    except OSError:
        return None
