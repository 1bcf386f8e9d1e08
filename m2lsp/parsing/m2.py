"""M2 text to `M2Document`, block by block.

`grammar/m2.lark` defines the format.  Parsing a 400k-line file through Lark takes tens of
seconds, so m2lsp splits the text into blocks (cheap: blank lines and S lines delimit them),
parses each line of a block with a fast path of `str` methods and one anchored regex, and
hands only the lines that fail it to Lark, whose error then says exactly where and why.
Property tests prove that the fast path accepts exactly the lines the grammar accepts and
builds the same objects.  Parsed blocks are cached by content (`BlockCache`), so a block
that did not change is never parsed again.
"""

from __future__ import annotations

import gc
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from m2lsp.model import (
    MAX_DIGITS,
    Block,
    Edit,
    LineProblem,
    M2Document,
    Sentence,
    Target,
    read_int,
)
from m2lsp.parsing.source import Held, SourceText

if TYPE_CHECKING:  # Lark is imported when a line needs it: most files never do
    from lark import Lark, Tree
    from lark.exceptions import UnexpectedInput

# offsets of more than MAX_DIGITS digits fail the fast path; the grammar path reports them
_NUMBER = rf"(-?[0-9]{{1,{MAX_DIGITS}}})"
_A_PREFIX = re.compile(rf"A [ \t]*{_NUMBER}[ \t]+{_NUMBER}[ \t]*\|\|\|", re.ASCII)
_T_LINE = re.compile(r"(T[0-9]+(?:-A[0-9]+)?)(?: (.*))?", re.ASCII | re.DOTALL)

# What is wrong with a line that the grammar rejects, recognised by the parser state the
# error leaves (Lark's match_examples).  The table doubles as a test of the messages.
ERROR_EXAMPLES: dict[str, list[str]] = {
    "unknown-line": ["Q x\n", "a 1 2|||X|||y|||R|||C|||0\n", "s x\n", "# x\n", "1\n", "- x\n"],
    "sentence-marker": ["S\n", "Sx\n", "S\tx\n"],
    "edit-marker": ["A\n", "Ax\n", "A\t1 2|||X|||y|||R|||C|||0\n"],
    "offset": ["A x 1|||X|||y|||R|||C|||0\n", "A 1 x|||X|||y|||R|||C|||0\n",
               "A 1|||X|||y|||R|||C|||0\n", "A 1.5 2|||X|||y|||R|||C|||0\n",
               "A 1 2 3|||X|||y|||R|||C|||0\n", "A |||X|||y|||R|||C|||0\n", "A 1 2\n",
               "A 1-2|||X|||y|||R|||C|||0\n", "A 1 2x|||X|||y|||R|||C|||0\n"],
    "field-count": ["A 1 2|||X|||y|||R|||C\n", "A 1 2|||X|||y|||R\n", "A 1 2|||X|||y\n",
                    "A 1 2|||X\n", "A 1 2|||\n", "A 1 2|||X|||y|||R|||C|||0|||z\n",
                    "A 1 2|||X|||y||||||R|||C|||0\n"],
    "target-marker": ["T\n", "Tx\n", "T0x\n", "T0-A\n", "T0-Ax y\n", "T0\tx\n"],
}


def parse_m2(source: SourceText | str, cache: BlockCache | None = None) -> M2Document:
    """Parse M2 text.  Never raises for bad input: bad lines become `Block.problems`."""
    if isinstance(source, str):
        source = SourceText(source)
    lines = source.lines
    cache = cache if cache is not None else BlockCache()
    with paused_gc():
        starts, ends, separated = block_bounds(lines)
        blocks = cache.parse_all([tuple(lines[s:e]) for s, e in zip(starts, ends, strict=True)])
    return M2Document(
        blocks=tuple(blocks),
        starts=tuple(starts),
        unseparated=frozenset(i for i, s in enumerate(separated) if not s),
        line_count=len(lines),
    )


@dataclass(frozen=True, eq=False)
class ParsedM2(Held):
    """An M2 text read once and parsed once, held for many uses: a `Scorer`'s gold.  It
    reads as any `Text` does (a metric that reads the text takes it as it is), and
    `document` is its parse, which a metric reading the document takes instead of parsing
    the text again."""

    document: M2Document = field(repr=False)

    @classmethod
    def read(cls, name: str, source: SourceText) -> ParsedM2:
        """`source` parsed, named `name` in messages (the user's path, or "the gold (a
        list of 20 sentences)")."""
        return cls(name, source, parse_m2(source))

    @classmethod
    def from_file(cls, path: Path) -> ParsedM2 | None:
        """The M2 file at `path` read and parsed, named by the path as given, where it
        reads as UTF-8 text; else None (the metric then reads it and says why)."""
        from m2lsp.files.reading import read_bytes
        from m2lsp.parsing.source import decode

        try:
            source = decode(read_bytes(path))
        except OSError:
            return None
        return cls.read(str(path), source) if source.problem is None else None


@dataclass(frozen=True)
class BlockSpan:
    """Lines `start`..`end` (exclusive) form a block; `separated`: a blank line or the start of
    the file precedes it."""

    start: int
    end: int
    separated: bool


def block_texts(text: str) -> list[str]:
    """An M2 text's sentences as the NUS scorer splits them (at blank lines): each block's
    lines, with a blank line after them."""
    blocks, current = [], []
    for line in text.splitlines():
        if line.strip():
            current.append(line)
        elif current:
            blocks.append("\n".join(current) + "\n\n")
            current = []
    if current:
        blocks.append("\n".join(current) + "\n\n")
    return blocks


def find_blocks(lines: Sequence[str]) -> list[BlockSpan]:
    """Split lines into blocks: at blank or whitespace-only lines, and before every S line."""
    return [BlockSpan(*span) for span in zip(*block_bounds(lines), strict=True)]


def block_bounds(lines: Sequence[str]) -> tuple[list[int], list[int], list[bool]]:
    """The blocks of `find_blocks` as three lists: starts, ends, and whether each is
    separated (in C when the compiled parser is there)."""
    if compiled is not None and isinstance(lines, list):
        return compiled.block_bounds(lines)
    spans = _find_blocks(lines)
    return [s.start for s in spans], [s.end for s in spans], [s.separated for s in spans]


def _find_blocks(lines: Sequence[str]) -> list[BlockSpan]:
    spans: list[BlockSpan] = []
    start = -1
    separated = True
    first_separated = True
    for i, line in enumerate(lines):
        if not line or line.isspace():
            if start >= 0:
                spans.append(BlockSpan(start, i, first_separated))
                start = -1
            separated = True
            continue
        if start < 0:
            start, first_separated = i, separated
        elif line[0] == "S":
            spans.append(BlockSpan(start, i, first_separated))
            start, first_separated = i, False
        separated = False
    if start >= 0:
        spans.append(BlockSpan(start, len(lines), first_separated))
    return spans


class BlockCache:
    """Parsed blocks by content.  Each parse keeps only the blocks it used, so the cache never
    outgrows the document."""

    def __init__(self) -> None:
        self._blocks: dict[tuple[str, ...], Block] = {}
        self.hits = 0
        self.misses = 0

    def parse_all(self, keys: list[tuple[str, ...]]) -> list[Block]:
        old = self._blocks
        missing = list({key: None for key in keys if key not in old})
        new = dict(zip(missing, parse_blocks(missing), strict=True))
        self.misses += len(missing)
        self.hits += len(keys) - len(missing)
        out = []
        for key in keys:
            block = new.get(key)
            if block is None:
                block = new[key] = old[key]
            out.append(block)
        self._blocks = new
        return out


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector: parsing allocates many small acyclic objects, and
    collections triggered by them cost a third of the parse time."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def parse_blocks(keys: list[tuple[str, ...]]) -> list[Block]:
    """`parse_block` of each key: in C when the compiled parser is there (the same objects,
    and each block's suspect bits: see m2lsp/parsing/suspects.py)."""
    if compiled is not None:
        return compiled.parse_blocks(keys)
    return [parse_block(key) for key in keys]


def parse_block(lines: Sequence[str]) -> Block:
    """Parse the lines of one block (its first line is the S line if it has one); the
    reference for the compiled parser."""
    sentence: Sentence | None = None
    edits: list[Edit] = []
    targets: list[Target] = []
    problems: list[LineProblem] = []
    match_edit = _A_PREFIX.match
    for row, line in enumerate(lines):
        if line[:2] == "A ":  # the fast path of parse_line_fast, inlined for the common line
            match = match_edit(line)
            if match is not None:
                parts = line[match.end():].split("|||")
                if len(parts) == 5:
                    edits.append(make_edit(row, line, int(match[1]), int(match[2]), parts))
                    continue
        item = parse_line_fast(row, line) or parse_line_slow(row, line)
        if isinstance(item, Edit):
            edits.append(item)
        elif isinstance(item, Sentence) and row == 0:
            sentence = item
        elif isinstance(item, Target):
            targets.append(item)
        elif isinstance(item, LineProblem):
            problems.append(item)
    return Block(lines if isinstance(lines, tuple) else tuple(lines), sentence, tuple(edits),
                 tuple(targets), tuple(problems))


def make_edit(row: int, line: str, start: int, end: int, parts: list[str]) -> Edit:
    """`Edit(row, line, start, end, *fields)` for the five fields after the offsets, built
    without the dataclass `__init__`: a frozen dataclass sets each field through
    `object.__setattr__`, which is a fifth of the parse time of a large file.  Tests check
    that both ways build equal objects."""
    edit = _new(Edit)
    _setattr(edit, "__dict__", {
        "row": row, "text": line, "start": start, "end": end, "type": _intern(parts[0]),
        "corrections": tuple(parts[1].split("||")), "required": _intern(parts[2]),
        "comment": _intern(parts[3]), "annotator": _intern(parts[4])})
    return edit


# Types, flags, comments and annotator ids repeat on every line: one shared string each
# keeps a large file's memory down and makes the rules' comparisons pointer comparisons.
_intern = sys.intern


_new = object.__new__
_setattr = object.__setattr__


def parse_line_fast(row: int, line: str) -> Sentence | Edit | Target | None:
    """The fast path: the parsed line, or None when it is not well-formed."""
    head = line[:1]
    if head == "A":
        match = _A_PREFIX.match(line)
        if match is None:
            return None
        parts = line[match.end():].split("|||")
        if len(parts) != 5:
            return None
        return make_edit(row, line, int(match[1]), int(match[2]), parts)
    if head == "S":
        if line[1:2] != " ":
            return None
        text = line[2:]
        return Sentence(row, text, tuple(text.split()))
    if head == "T":
        match = _T_LINE.fullmatch(line)
        if match is None:
            return None
        return Target(row, match[1], match[2] or "")
    return None


def parse_line_slow(row: int, line: str) -> Sentence | Edit | Target | LineProblem:
    """Parse one line with the grammar: the object, or a problem saying what is wrong.

    What the grammar finds wrong depends only on the line's *shape* (see `shape`), and a
    file with one kind of mistake repeats one shape thousands of times: the grammar reads
    each shape once (tests compare this with reading every line)."""
    key = shape_key(line)
    found = _SHAPES.get(key)
    if found is None:
        found = _SHAPES[key] = _judge(key)
        if len(_SHAPES) > _MAX_SHAPES:
            _SHAPES.clear()  # (the same dict: the compiled parser reads it too)
    if found is _ACCEPTED:
        return parse_line_lark(row, line)
    column, kind, expected = found
    return LineProblem(row, shape_column(line, column), kind, expected, line)


def parse_line_lark(row: int, line: str) -> Sentence | Edit | Target | LineProblem:
    """Parse one line with the grammar, as it is."""
    from lark.exceptions import UnexpectedInput

    lark = line_parser()
    try:
        tree = lark.parse(line + "\n", start="line")
    except UnexpectedInput as exc:
        return _problem(row, line, exc)
    return cast(Sentence | Edit | Target, line_from_tree(tree.children[0], row, line))


# The characters the grammar tells apart (markers, separators, spaces, offsets' digits and
# sign); any other character can only be part of a field or a text, wherever it stands.
_SHAPE_CLASSES = re.compile(r"[0-9]+|[^0-9ATS \t|\-]+|.", re.DOTALL)
_ACCEPTED = ("accepted",)
_SHAPES: dict[str, tuple] = {}
_MAX_SHAPES = 4096


_OTHERS = re.compile(r"[^0-9ATS \t|\-]+")
_DIGIT_RUNS = re.compile(r"[0-9]+")


def shape_key(line: str) -> str:
    """The line with each run of digits written `0` and each run of other characters the
    grammar does not tell apart written `x`.  A run is one token wherever the grammar reads
    one, so the grammar accepts or rejects the shape exactly where it does the line."""
    return _DIGIT_RUNS.sub("0", _OTHERS.sub("x", line))


def shape_column(line: str, index: int) -> int:
    """The column in `line` of character `index` of its shape (the end: past the shape)."""
    for position, match in enumerate(_SHAPE_CLASSES.finditer(line)):
        if position == index:
            return match.start()
    return len(line)


def shape(line: str) -> tuple[str, list[int]]:
    """The shape of `line` and the column in `line` of each of its characters."""
    return shape_key(line), [match.start() for match in _SHAPE_CLASSES.finditer(line)]


def _judge(key: str) -> tuple:
    """_ACCEPTED, or (column in the shape, kind, expected) of the grammar's error."""
    found = parse_line_lark(0, key)
    if isinstance(found, LineProblem):
        return found.column, found.kind, found.detail
    return _ACCEPTED


def line_parser() -> Lark:
    from m2lsp.parsing.grammar import parser

    return parser("m2", "document", "block", "line")


def _problem(row: int, line: str, exc: UnexpectedInput) -> LineProblem:
    column = max(getattr(exc, "column", 1) - 1, 0)
    return LineProblem(row, min(column, len(line)), _error_kind(exc), _expected(exc), line)


_KINDS: dict[tuple, str] = {}
_LINE_KINDS = {"S": "sentence-marker", "A": "edit-marker", "T": "target-marker"}


def _error_kind(exc: UnexpectedInput) -> str:
    """The ERROR_EXAMPLES label of an error.  Lark's match_examples re-parses every example
    on each call, so labels are remembered by parser state and expected terminals."""
    if getattr(exc, "column", 0) == 1:
        # nothing of the line parsed: its first character says what it tried to be
        return _LINE_KINDS.get(str(getattr(exc, "token", "") or "")[:1], "unknown-line")
    state = getattr(exc, "state", None)
    stack = getattr(state, "state_stack", None) or ()
    key = (type(exc).__name__, len(stack), stack[-1] if stack else None,
           frozenset(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ()),
           getattr(getattr(exc, "token", None), "type", None))
    kind = _KINDS.get(key)
    if kind is None:
        lark = line_parser()
        kind = exc.match_examples(lambda text: lark.parse(text, start="line"), ERROR_EXAMPLES,
                                  use_accepts=True) or "syntax"
        _KINDS[key] = kind
    return kind


def _expected(exc: UnexpectedInput) -> str:
    """A short description of what the grammar expected at the error."""
    expected = getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ()
    from m2lsp.parsing.grammar import expected_words

    names = expected_words(line_parser(), expected, _TERMINAL_WORDS)
    return "expected " + " or ".join(names) if names else ""


_TERMINAL_WORDS = {
    "_SEP": "'|||'", "_ALT": "'||'", "_SP": "a space", "_WS": "a space", "_NL": "end of line",
    "OFFSET": "an integer offset", "FIELD": "a field", "CORRECTION": "a correction",
    "TEXT": "text", "T_ID": "a target label", "S": "'S'", "A": "'A'",
}


# ---------------------------------------------------------------------------------------
# From Lark trees to the model (the slow path, and the reference the tests compare with)

def line_from_tree(tree: Any, row: int, line: str,
                   ) -> Sentence | Edit | Target | LineProblem | None:
    """Build the model object for one parsed line (None for a blank line; a problem for an
    offset too long to read)."""
    from lark import Tree

    if not isinstance(tree, Tree):
        return None
    kind = tree.data
    if kind == "s_line":
        text = _text(tree.children[0])
        return Sentence(row, text, tuple(text.split()))
    if kind == "t_line":
        label = str(tree.children[0])
        text = _text(tree.children[1]) if len(tree.children) > 1 else ""
        return Target(row, label, text)
    if kind == "a_line":
        children: list[Any] = tree.children
        start, end, etype, corrections, required, comment, annotator = children
        first, last = read_int(start.children[0]), read_int(end.children[0])
        if first is None or last is None:
            long = start if first is None else end
            return LineProblem(row, long.children[0].column - 1, "offset",
                               f"an offset of at most {MAX_DIGITS} digits", line)
        return Edit(row, line, first, last, _text(etype),
                    tuple(_text(c) for c in corrections.children), _text(required),
                    _text(comment), _text(annotator))
    return None


def block_from_tree(tree: Tree, lines: Sequence[str], first_row: int = 0) -> Block:
    """Build a Block from a `block` subtree; `first_row` is its first line in the parsed text
    (0-based), so rows come out block-relative."""
    sentence, edits, targets = None, [], []
    for child in tree.children:
        row = child.meta.line - 1 - first_row
        item = line_from_tree(child, row, lines[row])
        if isinstance(item, Sentence):
            sentence = item
        elif isinstance(item, Edit):
            edits.append(item)
        elif isinstance(item, Target):
            targets.append(item)
    return Block(tuple(lines), sentence, tuple(edits), tuple(targets))


def parse_with_lark(text: str) -> list[tuple[int, Block]]:
    """Parse a whole well-formed document with the grammar: (first line, block) pairs.

    Raises lark's UnexpectedInput on malformed text; used by tests as the reference.
    """
    if text and not text.endswith("\n"):
        text += "\n"
    from lark import Tree

    tree = line_parser().parse(text, start="document")
    lines = text.split("\n")
    out = []
    for blocks in tree.children:
        if not isinstance(blocks, Tree):
            continue
        for block in cast(list[Tree], blocks.children):
            first = block.meta.line - 1
            last = block.children[-1].meta.line - 1
            out.append((first, block_from_tree(block, lines[first:last + 1], first)))
    return out


def _text(token: Any) -> str:
    """A token's text (a Lark child: a Token, or None for an empty optional one)."""
    return "" if token is None else str(token)


def _fallback_line(row: int, line: str) -> Sentence | Edit | Target | LineProblem:
    """A line the compiled parser does not build itself."""
    return parse_line_fast(row, line) or parse_line_slow(row, line)


try:  # built from _m2scan.c when a C compiler was there at install time
    from m2lsp.parsing import _m2scan as compiled  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - the same results, in Python
    compiled = None
else:
    compiled.setup(Block, Sentence, Edit, LineProblem, _fallback_line, _SHAPES)
