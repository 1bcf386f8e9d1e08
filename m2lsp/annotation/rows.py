"""The rows to annotate -- a source line and its corrections -- read as a stream: from a
source file and corrected files (errant_parallel's input), or from one file of pairs
(TSV: `source<TAB>correction<TAB>...`; JSONL: `{"source": ..., "corrections": [...]}`).

A `RowSource` is read twice: `check()` reads it through once before anything is annotated
(a file that does not decode, a line without a counterpart, a malformed pair: the error
comes before any output, as before), counting the rows; `rows()` then yields them one at a
time, so memory does not follow the corpus.  Lines are split as errant_parallel's text mode
splits them (\\n, \\r\\n, \\r; a byte-order mark stays in the first line).  A file that is not
a regular one (a pipe) is read once into memory instead, as `read_lines` reads it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path

from m2lsp.errors import InputError, UsageError

Row = tuple[str, tuple[str, ...]]
PAIR_FORMATS = ("tsv", "jsonl")


def lines(path: Path, what: str, encoding: str | None = None) -> Iterator[str]:
    """A text file's lines without their breaks, one at a time (see the module)."""
    if not path.is_file():
        from m2lsp.annotation.parallel import read_lines

        yield from read_lines(path, what, encoding)
        return
    try:
        with open(path, encoding=encoding or "utf-8", errors="strict", newline=None) as handle:
            for line in handle:
                yield line[:-1] if line.endswith("\n") else line
    except OSError as exc:
        raise InputError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, LookupError):
        from m2lsp.annotation.parallel import read_lines

        read_lines(path, what, encoding)  # raises the whole file's description
        raise InputError(f"{what} {path} does not decode as {encoding or 'UTF-8'}") from None


@dataclass(frozen=True)
class FileRows:
    """errant_parallel's input: a source file and one or more corrected files."""

    source: Path
    corrected: tuple[Path, ...]
    encoding: str | None = None

    @property
    def paths(self) -> tuple[Path, ...]:
        return (self.source, *self.corrected)

    def rows(self) -> Iterator[Row]:
        readers = [lines(self.source, "source", self.encoding),
                   *(lines(p, "corrected file", self.encoding) for p in self.corrected)]
        for number, row in enumerate(zip_longest(*readers), 1):
            if None in row:
                self._uneven(row, number)
            yield row[0], tuple(row[1:])

    def _uneven(self, row: Sequence[str | None], number: int) -> None:
        from m2lsp.annotation.parallel import check_lengths

        for path, line in zip(self.corrected, row[1:], strict=True):
            if (line is None) != (row[0] is None):
                counts = [sum(1 for _ in lines(p, "file", self.encoding))
                          for p in (self.source, path)]
                check_lengths(self.source, counts[0], path, counts[1])
        raise UsageError(f"line {number}: the files have different lengths")  # not reached


@dataclass(frozen=True)
class PairRows:
    """One file of pairs: TSV (`source<TAB>correction...`, a correction per column) or
    JSONL (an object per line with "source" and "corrections", a list, or "correction")."""

    path: Path
    format: str = "tsv"
    encoding: str | None = None

    @property
    def paths(self) -> tuple[Path, ...]:
        return (self.path,)

    def rows(self) -> Iterator[Row]:
        read = self._jsonl if self.format == "jsonl" else self._tsv
        for number, line in enumerate(lines(self.path, "pairs file", self.encoding), 1):
            row = read(line, number)
            if row is not None:
                yield row

    def _tsv(self, line: str, number: int) -> Row:
        source, *corrections = line.split("\t")
        if not corrections:
            raise InputError(f"{self.path}:{number}: no tab; a TSV of pairs has a line "
                             "source<TAB>correction<TAB>... per sentence")
        return source, tuple(corrections)

    def _jsonl(self, line: str, number: int) -> Row | None:
        if not line.strip():
            return None
        try:
            record = json.loads(line)
        except (ValueError, RecursionError) as exc:
            reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
            raise InputError(f"{self.path}:{number}: not JSON ({reason})") from None
        if not isinstance(record, dict) or not isinstance(record.get("source"), str):
            raise InputError(f"{self.path}:{number}: a JSONL pair is an object with a "
                             "string \"source\" and \"corrections\" (a list of strings)")
        corrections = record.get("corrections", [record.get("correction")])
        if (not isinstance(corrections, list) or not corrections
                or not all(isinstance(c, str) for c in corrections)):
            raise InputError(f"{self.path}:{number}: \"corrections\" must be a non-empty "
                             "list of strings (or \"correction\" a string)")
        return record["source"], tuple(corrections)


RowSource = FileRows | PairRows


def pairs_format(path: Path, chosen: str | None) -> str:
    """The format of a pairs file: as chosen, else by its suffix (.jsonl/.json: JSONL)."""
    if chosen is not None:
        return chosen
    return "jsonl" if path.suffix.lower() in (".jsonl", ".json", ".ndjson") else "tsv"


@dataclass(frozen=True)
class Checked:
    """What the first reading found: the rows, and whether the first source line starts
    with a byte-order mark."""

    count: int
    bom: bool
    sample: str = ""  # the first rows' texts (about SAMPLE characters): what script
    digests: tuple[str, ...] = ()  # of each group of `group` rows, what they say
    content: str = ""  # of all the rows: what the input says, whatever its name and time


SAMPLE = 50_000


def check(source: RowSource, group: int = 1 << 62,
          refuse: Callable[[str, tuple[str, ...]], str | None] | None = None) -> Checked:
    """Read every row once (its errors come now, before anything is written), counting and
    hashing them (all of them, and each `group` of them: a shard's); a source without a
    sentence is an error, as errant_parallel would write nothing, and so is a row that
    `refuse` has a reason for (too long to annotate: said before any parse)."""
    import hashlib

    count, bom, sentences = 0, False, False
    sample: list[str] = []
    size = 0
    whole, part = hashlib.blake2b(digest_size=16), hashlib.blake2b(digest_size=16)
    digests = []
    for text, corrections in source.rows():
        bom = bom or (count == 0 and text.startswith("\ufeff"))
        sentences = sentences or bool(text.strip())
        count += 1
        if refuse is not None and (problem := refuse(text, corrections)) is not None:
            raise InputError(f"{source.paths[0]}: line {count}: {problem}")
        row = "\x1e".join((text, *corrections)).encode("utf-8", "surrogatepass") + b"\x1d"
        whole.update(row)
        part.update(row)
        if count % group == 0:
            digests.append(part.hexdigest())
            part = hashlib.blake2b(digest_size=16)
        if size < SAMPLE:
            sample.extend((text, *corrections))
            size += len(text) + sum(map(len, corrections))
    if count % group:
        digests.append(part.hexdigest())
    if not sentences:
        where = source.paths[0]
        raise UsageError(f"the source {where} has no sentence: there is nothing to annotate "
                         "(errant_parallel would write an empty file)")
    return Checked(count, bom, "\n".join(sample), tuple(digests), whole.hexdigest())
