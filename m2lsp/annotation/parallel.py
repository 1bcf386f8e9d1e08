"""Parallel text to M2: a source file and one or more corrected files, line by line, as
errant_parallel (English) or ChERRANT's parallel_to_m2 (Chinese, char level) reads and
writes them; in chunks, optionally over several processes.

Lines are read as errant_parallel reads them (UTF-8, any line break, a BOM kept as the first
character), except that files of different lengths are an error naming the first line one
of them lacks (errant_parallel stops silently at the shortest).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import m2lsp.defaults as defaults
from m2lsp.annotation.annotators import Settings
from m2lsp.annotation.chinese import ChineseSettings
from m2lsp.annotation.chunks import CHUNK_ROWS, Silent, chunked
from m2lsp.annotation.english import EnglishSettings
from m2lsp.errors import InputError, UsageError
from m2lsp.parsing.source import Input


def settings_for(lang: str, config: Any, *, spacy_model: str | None = None,
                 cherrant_data: Path | str | None = None, english: Any = None,
                 chinese: Any = None, conllu: Sequence[Path | str] = ()) -> Settings:
    """The annotator's settings for `lang` (en: ERRANT; zh: ChERRANT at char level; any
    other language: ERRANT by the MultiGEC route): the given pipeline, CoNLL-U files or
    tables, else the configuration's (`config.ScoreSettings`: spacy-model for English,
    spacy-models for the others); `english` / `chinese`: the other options, as (tok, lev,
    merge) / (simplified, strategy)."""
    if lang == "zh":
        from m2lsp.annotation.cherrant_data import data_folder

        return ChineseSettings(data_folder(cherrant_data, config.cherrant_data),
                               *(chinese or ()))
    if not (isinstance(lang, str) and lang.isalpha() and lang.islower()
            and 2 <= len(lang) <= 3):
        raise UsageError(f"lang: a language code (en, zh, fr, es, cs, ...), not {lang!r}")
    configured = (config.spacy_model if lang == "en"
                  else dict(getattr(config, "spacy_models", ())).get(lang))
    model = spacy_model or configured  # None: not named (see pipelines.resolve)
    tok, lev, merge = english or (False, False, defaults.MERGES[0])
    return EnglishSettings(tok, lev, merge, model, lang, tuple(str(p) for p in conllu))

CHUNK = CHUNK_ROWS
_BREAK = re.compile(r"\r\n|\r|\n")

Progress = Callable[[int], Any]  # (items) -> a context manager whose value has at(index)


@dataclass(frozen=True)
class ParallelText:
    """The source lines and, per corrected file, its lines (all of the same length); or,
    read from ChERRANT's file, each line's targets (`targets`, as many as that line has)."""

    sources: Sequence[str]
    corrections: Sequence[Sequence[str]]
    targets: Sequence[tuple[str, ...]] | None = None

    def rows(self) -> list[tuple[str, tuple[str, ...]]]:
        if self.targets is not None:
            return list(zip(self.sources, self.targets, strict=True))
        return list(zip(self.sources, zip(*self.corrections, strict=True), strict=True))


def text_lines(text: str) -> list[str]:
    """The lines of a text file as Python's text mode yields them, without their breaks."""
    lines = _BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def source_lines(source: Any) -> list[str]:
    """The lines of a `parsing.source.SourceText` as `read_lines` reads its file (a
    byte-order mark kept in the first, as errant_parallel reads it)."""
    return text_lines(("\ufeff" if source.bom else "") + source.text)


def read_lines(path: Input, what: str, encoding: str | None = None) -> list[str]:
    """A file's lines, decoded strictly (a BOM stays, as errant_parallel reads it); a text
    given in memory, its lines."""
    from m2lsp.files.reading import read_bytes
    from m2lsp.parsing.source import Text

    if isinstance(path, Text):
        return text_lines(path.text)
    try:
        data = read_bytes(path)
    except OSError as exc:
        raise InputError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    try:
        return text_lines(data.decode(encoding or "utf-8"))
    except (UnicodeDecodeError, LookupError) as exc:
        from m2lsp.parsing.source import decode

        problem = decode(data, encoding).problem
        reason = problem.describe() if problem else str(exc)
        raise InputError(f"{what} {path}: {reason}") from None


def read_cherrant(path: Input, encoding: str | None = None) -> ParallelText:
    """ChERRANT's parallel_to_m2 input, read as it reads it: the text stripped, then one
    line per sentence, `id<TAB>source<TAB>target...` (the id is not used)."""
    return cherrant_text(read_lines(path, "ChERRANT's parallel file", encoding), path)


def cherrant_text(read: Sequence[str], path: Input | str) -> ParallelText:
    """`read_cherrant` of a file's lines already read."""
    lines = "\n".join(read).strip()
    if not lines:
        raise InputError(f"{path} is empty: ChERRANT's parallel file has a line "
                         f"id<TAB>source<TAB>target... per sentence")
    sources, targets = [], []
    for number, line in enumerate(lines.split("\n"), 1):
        fields = line.split("\t")[1:]
        if not fields:
            raise InputError(f"{path}:{number}: no tab; ChERRANT's parallel file has a line "
                             f"id<TAB>source<TAB>target... per sentence")
        sources.append(fields[0])
        targets.append(tuple(fields[1:]))
    return ParallelText(sources, [], targets)


def read_parallel(source: Path, corrected: Sequence[Path],
                  encoding: str | None = None) -> ParallelText:
    sources = read_lines(source, "source", encoding)
    columns = [read_lines(path, "corrected file", encoding) for path in corrected]
    for path, lines in zip(corrected, columns, strict=True):
        check_lengths(source, len(sources), path, len(lines))
    if not any(line.strip() for line in sources):
        raise UsageError(f"the source {source} has no sentence: there is nothing to annotate "
                         "(errant_parallel would write an empty file)")
    return ParallelText(sources, columns)


def check_lengths(source: Input | str, sources: int, other: Input | str, lines: int
                  ) -> None:
    if sources == lines:
        return
    short, long = (other, source) if lines < sources else (source, other)
    raise InputError(f"{other} has {lines} lines and {source} {sources}: line "
                     f"{min(lines, sources) + 1} of {long} has no counterpart in {short}")


def annotate(text: ParallelText, settings: Settings, jobs: int = 1,
             progress: Progress | None = None) -> Iterator[str]:
    """The reference tool's output, block by block (errant_parallel writes none for an
    empty source line)."""
    return (block for _, block in annotate_each([text], settings, jobs, progress))




def annotate_each(texts: Sequence[ParallelText], settings: Settings, jobs: int = 1,
                  progress: Progress | None = None, scheduler: Any = None
                  ) -> Iterator[tuple[int, str]]:
    """The reference tool's output for each text in turn, as (which text, block): several
    outputs annotated in one process, with one pipeline and one cache."""
    from m2lsp.annotation.running import run_chunks

    chunks = [chunk for which, text in enumerate(texts) for chunk in chunked(text.rows(), which)]
    total = sum(len(rows) for _, _, rows in chunks)
    jobs = min(max(1, jobs), len(chunks)) if chunks else 1
    results = run_chunks(chunks, settings, jobs, scheduler)
    ticker = progress(total) if progress else Silent()
    done = 0
    with ticker as tick:
        for (which, _, rows), blocks in zip(chunks, results, strict=True):
            done += len(rows)
            tick.at(done - 1)
            yield from ((which, b) for b in blocks if b is not None)


default_jobs = defaults.jobs  # the cores this process may run on
