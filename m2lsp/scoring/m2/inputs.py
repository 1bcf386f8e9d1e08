"""Reading gold M2 and system files the way NUS M2 scorer 3.2 reads them.

The gold comes from the parsed document (`M2Document`), not from re-splitting the text, and
is checked first: where the scorer would read the file differently from how it looks, or
would stop with an exception, m2lsp says so and where, instead of printing a number that
means something else.  What the scorer does read is reproduced exactly:

- blocks are split at empty LF lines only; S lines not separated by one (rule M005) stay in
  one block, and each edit of the block is checked against each of its sentences with
  offsets counted from the block's first token;
- `noop` edits are moved to -1 -1; edits with a negative offset or past the end are
  dropped (their annotator stays, with no edits);
- corrections are stripped, `-NONE-` is the empty correction;
- an A line with more than six fields is read by its first six (the scorer never looks
  further; `check` warns of it, M012), one with fewer is refused;
- a sentence with no A line has one annotator, 0, with no edits;
- annotators are tried in the order a Python 2.7 dict iterates them.

System files: one sentence per LF-ended line, stripped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

from m2lsp.errors import InputError
from m2lsp.model import MAX_DIGITS, NOOP_TYPE, Block, Edit, LineProblem, M2Document, shortened
from m2lsp.parsing.source import SourceText
from m2lsp.scoring.m2 import py2
from m2lsp.scoring.m2.lattice import GoldEdit


@dataclass(frozen=True, init=False)
class GoldSentence:
    """A source sentence and the gold edits of each annotator, in the scorer's order."""

    line: int  # 0-based line of the S line in the gold file
    source: str  # the S line's text, stripped
    annotators: tuple[tuple[int, tuple[GoldEdit, ...]], ...]
    # the error type and the file line of each gold edit above, in the same order
    types: tuple[tuple[str, ...], ...] = ()
    lines: tuple[tuple[int, ...], ...] = ()
    # gold edits the scorer reads but cannot use as written: (kind, file line), see GoldWarning
    unusable: tuple[tuple[str, int], ...] = ()

    # one assignment, not a setattr per field as a frozen dataclass's __init__ makes: a gold
    # has thousands of sentences, read on every score
    def __init__(self, line: int, source: str,
                 annotators: tuple[tuple[int, tuple[GoldEdit, ...]], ...],
                 types: tuple[tuple[str, ...], ...] = (), lines: tuple[tuple[int, ...], ...] = (),
                 unusable: tuple[tuple[str, int], ...] = ()) -> None:
        object.__setattr__(self, "__dict__", {
            "line": line, "source": source, "annotators": annotators, "types": types,
            "lines": lines, "unusable": unusable})


@dataclass(frozen=True)
class GoldWarning:
    """Gold edits that change the score without saying so: `count` of one kind, and the
    file lines (0-based) of the first ones."""

    kind: str  # a key of GOLD_WARNINGS
    count: int
    lines: tuple[int, ...]

    def describe(self) -> str:
        where = ", ".join(str(line + 1) for line in self.lines)
        more = ", ..." if self.count > len(self.lines) else ""
        plural = "s" if self.count > 1 else ""
        return f"{self.count} gold edit(s) {GOLD_WARNINGS[self.kind]} (line{plural} {where}{more})"


GOLD_WARNINGS = {
    "dropped": "lie outside their sentence: the NUS scorer drops them, so no system edit "
               "can match them and recall counts them nowhere",
    "backwards": "start after they end: the NUS scorer keeps them, but no system edit can "
                 "match them",
    "repeated": "repeat an earlier edit of the same annotator: one system edit is counted "
                "correct once for each, which can push precision above 1",
}


def gold_warnings(sentences: list[GoldSentence], first: int = 3) -> list[GoldWarning]:
    """What the sentences' unusable edits add up to, by kind, with the first lines."""
    lines: dict[str, list[int]] = {kind: [] for kind in GOLD_WARNINGS}
    for sentence in sentences:
        for kind, line in sentence.unusable:
            lines[kind].append(line)
    return [GoldWarning(kind, len(found), tuple(sorted(found)[:first]))
            for kind, found in lines.items() if found]


@dataclass(frozen=True)
class ReadingProblem:
    """Where NUS M2 scorer 3.2 reads a gold file differently from m2lsp, or stops."""

    line: int
    code: str
    message: str


class GoldReadError(InputError):
    """The gold file cannot be scored as the NUS scorer would score it."""

    def __init__(self, path: str, problem: ReadingProblem) -> None:
        super().__init__(f"{path}:{problem.line + 1}: {problem.message} ({problem.code}; "
                         f"`m2lsp check {path}` lists every such place)")
        self.problem = problem


def reading_problems(document: M2Document, source: SourceText,
                     read: GroupCache | None = None) -> list[ReadingProblem]:
    """Places where the scorer would stop or read the file differently (first of each).
    Blocks in `read` (read before without a problem, unchanged since) are not looked at."""
    problems = []
    if source.bom:
        problems.append(ReadingProblem(0, "X002", "the file starts with a byte-order mark, "
                                       "which the NUS scorer reads as part of the first line"))
    suspicious = _PY_LINE_BREAKS.search(source.text) is not None
    if suspicious or "\r" in source.text or _BLANK_LINE.search(source.text):
        problems.extend(_line_problems(source, suspicious))
    for block, start in zip(document.blocks, document.starts, strict=True):
        if read is not None and id(block) in read and read[id(block)][0] is block:
            continue
        problem = _block_problem(block, start)
        if problem is not None:
            problems.append(problem)
            break
    return sorted(problems, key=lambda p: p.line)


_BLANK_LINE = re.compile(r"^[^\S\r\n]+$", re.MULTILINE)


def _line_problems(source: SourceText, suspicious: bool) -> list[ReadingProblem]:
    """The first line the scorer cannot read as m2lsp reads it."""
    problems = []
    for row, line in enumerate(source.lines):
        if not line:
            if source.line_break(row) not in ("\n", ""):
                problems.append(ReadingProblem(row, "M010", "a blank line ending in CR or "
                                               "CRLF, which the NUS scorer does not read as a "
                                               "separator"))
                break
            continue
        if line.isspace():
            problems.append(ReadingProblem(row, "M008", "a whitespace-only line, which the NUS "
                                           "scorer neither skips nor reads as a separator"))
            break
        if suspicious and _PY_LINE_BREAKS.search(line):
            problems.append(ReadingProblem(row, "M011", "a character that the NUS scorer "
                                           "reads as a line break"))
            break
    return problems


def _block_problem(block: Block, start: int) -> ReadingProblem | None:
    if block.sentence is None:
        return ReadingProblem(start, "M002", "edit lines with no S line above them, on which "
                              "the NUS scorer stops")
    unread = [p for p in block.problems if _first_six(p) is None]
    if unread:
        return ReadingProblem(start + unread[0].row, "M001", "a line that does not "
                              "parse, on which the NUS scorer stops")
    bad = next((e for e in scored_edits(block) if _readable_id(e.annotator) is None), None)
    if bad is not None:
        return ReadingProblem(start + bad.row, "M301", f"annotator id "
                              f"{shortened(bad.annotator)!r}, which is not an integer of at "
                              f"most {MAX_DIGITS} digits")
    return None


def scored_edits(block: Block) -> tuple[Edit, ...]:
    """The block's edits as the scorer reads them, in file order: with the A lines that have
    more than six fields read by their first six (it takes the annotator from the sixth
    and never looks further)."""
    if not block.problems:
        return block.edits
    extra = [edit for p in block.problems if (edit := _first_six(p)) is not None]
    if not extra:
        return block.edits
    return tuple(sorted((*block.edits, *extra), key=lambda e: e.row))


def _first_six(problem: LineProblem) -> Edit | None:
    """The edit of a line with more than six fields, read by its first six; None for any
    other problem (or where the first six do not parse either)."""
    from m2lsp.parsing.m2 import parse_line_fast, parse_line_slow

    if problem.kind != "field-count":
        return None
    parts = problem.text.split("|||")
    if len(parts) <= 6:
        return None
    line = "|||".join(parts[:6])
    item = parse_line_fast(problem.row, line) or parse_line_slow(problem.row, line)
    return item if isinstance(item, Edit) else None


# characters at which Python's splitlines(), which the scorer uses, breaks a line
_PY_LINE_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


GroupCache = dict[int, tuple[Block, int, list[GoldSentence]]]


def read_gold(document: M2Document, source: SourceText, path: str = "gold",
              cache: GroupCache | None = None) -> list[GoldSentence]:
    """The sentences and gold edits the scorer sees; GoldReadError where it would not.

    `cache` (kept by the caller between readings of the same document as it changes) holds
    each one-block group's sentences by block: a block that is the same object at the same
    line is not read again.  It is replaced in place by this reading's entries."""
    problems = reading_problems(document, source, cache)
    if problems:
        raise GoldReadError(path, problems[0])
    sentences: list[GoldSentence] = []
    kept: GroupCache = {}
    for group in _scorer_blocks(document):
        sentences.extend(_cached_group(document, group, cache, kept))
    if cache is not None:
        cache.clear()
        cache.update(kept)
    return sentences


def _cached_group(document: M2Document, group: list[int], cache: GroupCache | None,
                  kept: GroupCache) -> list[GoldSentence]:
    if cache is None or len(group) > 1:
        return _read_group(document, group)
    block, start = document.blocks[group[0]], document.starts[group[0]]
    found = cache.get(id(block))
    if found is None or found[0] is not block or found[1] != start:
        found = (block, start, _read_group(document, group))
    kept[id(block)] = found
    return found[2]


def merged_blocks(document: M2Document) -> list[int]:
    """Indices of blocks that the scorer reads together with the block before (M005)."""
    return sorted(document.unseparated)


def _scorer_blocks(document: M2Document) -> list[list[int]]:
    """Block indices grouped as the scorer groups them (no blank line: same group)."""
    groups: list[list[int]] = []
    for index in range(len(document.blocks)):
        if index in document.unseparated and groups:
            groups[-1].append(index)
        else:
            groups.append([index])
    return groups


def _read_group(document: M2Document, group: list[int]) -> list[GoldSentence]:
    if len(group) == 1:
        return [_read_block(document, group[0])]
    blocks = [document.blocks[i] for i in group]
    texts = [py2.strip(b.sentence.text if b.sentence is not None else "") for b in blocks]
    tokens = py2.split(" ".join(texts))
    annotations: dict[int, list[tuple[GoldEdit, str, int]]] = {}
    order: list[int] = []
    for index, block in zip(group, blocks, strict=True):
        for edit in scored_edits(block):
            # ids the scorer cannot read stop it before (reading_problems, M301)
            annotator = _annotator_id(edit.annotator)
            start, end = (-1, -1) if edit.type == NOOP_TYPE else (edit.start, edit.end)
            corrections = ["" if c == "-NONE-" else py2.strip(c) for c in edit.corrections]
            gold = GoldEdit(start, end, " ".join(tokens[start:end]), corrections)
            if annotator not in annotations:
                annotations[annotator] = []
                order.append(annotator)
            annotations[annotator].append((gold, edit.type, document.starts[index] + edit.row))
    iteration = py2.int_dict_order(py2.int_dict_order(order)) or [0]
    unusable = _unusable(annotations, len(tokens)) if len(group) == 1 else ()
    out = []
    offset = 0
    for index, text in zip(group, texts, strict=True):
        offset += len(tokens) if len(group) == 1 else len(py2.split(text))
        kept = [[g for g in annotations.get(a, ()) if 0 <= g[0].start <= offset
                 and 0 <= g[0].end <= offset] for a in iteration]
        out.append(GoldSentence(
            document.starts[index], text,
            tuple((a, tuple(g[0] for g in k)) for a, k in zip(iteration, kept, strict=True)),
            tuple(tuple(g[1] for g in k) for k in kept),
            tuple(tuple(g[2] for g in k) for k in kept), unusable))
    return out


@lru_cache(maxsize=1024)  # a gold has a handful of distinct ids, on thousands of lines
def _readable_id(text: str) -> int | None:
    return py2.parse_int(text)


def _annotator_id(text: str) -> int:
    return cast(int, _readable_id(text))


def _read_block(document: M2Document, index: int) -> GoldSentence:
    """`_read_group` of one block (nearly every group), in one pass over its edits."""
    block, first = document.blocks[index], document.starts[index]
    text = py2.strip(block.sentence.text if block.sentence is not None else "")
    tokens = py2.split(text)
    length = len(tokens)
    found: dict[int, tuple[list[GoldEdit], list[str], list[int], list]] = {}
    annotations: dict[int, list[tuple[GoldEdit, str, int]]] = {}
    strip, none = py2.strip, "-NONE-"
    for edit in scored_edits(block):
        annotator = _annotator_id(edit.annotator)
        kind = edit.type
        start, end = (-1, -1) if kind == NOOP_TYPE else (edit.start, edit.end)
        gold = GoldEdit(start, end, " ".join(tokens[start:end]),
                        ["" if c == none else strip(c) for c in edit.corrections])
        lists = found.get(annotator)
        if lists is None:
            lists = found[annotator] = ([], [], [], [])
            annotations[annotator] = lists[3]
        lists[3].append((gold, kind, first + edit.row))
        if 0 <= start <= length and 0 <= end <= length:
            lists[0].append(gold)
            lists[1].append(kind)
            lists[2].append(first + edit.row)
    iteration = py2.int_dict_order(py2.int_dict_order(list(found))) or [0]
    empty: tuple[list, list, list, list] = ([], [], [], [])
    chosen = [found.get(a, empty) for a in iteration]
    return GoldSentence(first, text,
                        tuple((a, tuple(k[0])) for a, k in zip(iteration, chosen, strict=True)),
                        tuple(tuple(k[1]) for k in chosen), tuple(tuple(k[2]) for k in chosen),
                        _unusable(annotations, length))


def _unusable(annotations: dict[int, list[tuple[GoldEdit, str, int]]], length: int
              ) -> tuple[tuple[str, int], ...]:
    """(kind, file line) of each edit of one sentence that the scorer drops, keeps but can
    never match, or counts twice (see GOLD_WARNINGS); noops are none of these."""
    out: list[tuple[str, int]] = []
    for edits in annotations.values():
        seen: set[tuple] = set()
        for gold, kind, line in edits:
            if kind == NOOP_TYPE:
                continue
            if not (0 <= gold.start <= length and 0 <= gold.end <= length):
                out.append(("dropped", line))
                continue
            if gold.start > gold.end:
                out.append(("backwards", line))
            key = (gold.start, gold.end, tuple(gold.corrections))
            if key in seen:
                out.append(("repeated", line))
            seen.add(key)
    return tuple(out)


def read_system(source: SourceText) -> list[str]:
    """System sentences: the text split at LF only, each line stripped, as the scorer reads
    it (a final line break does not start another sentence)."""
    text = ("\ufeff" if source.bom else "") + source.text  # the scorer keeps a BOM
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [py2.strip(line) for line in lines]
