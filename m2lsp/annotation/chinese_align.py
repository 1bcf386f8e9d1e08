"""Char-level alignment of a Chinese source with a target, as ChERRANT (MuCGEC) aligns them
at char level: a weighted edit distance in ERRANT's manner, and every cheapest path through
its table.

Costs: insertion and deletion 1; a match 0; a substitution the sum of a meaning cost (Cilin's
classes: 0 for the same class, 2 per differing level out of 3, 4 when either is not in
Cilin, all divided by 6), a form cost (0.5 unless both are Chinese characters, else what
share of the shorter token's characters do not look or sound alike, halved) and a
punctuation cost (0 for two punctuation marks, 0.25 for two others, 0.499 for one of each);
a transposition of k + 1 tokens that are the same multiset costs k.  Every operation whose
total equals the cheapest is kept, in the order transposition, substitution, insertion,
deletion, and the cheapest paths are walked depth first from the end in that order (only the
first operation of each cell when the lengths differ by more than 10).

Sums are made in the same order as ChERRANT makes them, so that ties are the same ties.
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from m2lsp.annotation.cherrant_data import Tables
from m2lsp.errors import InputError

CHINESE_PUNCTUATION = ("！？｡＂＃＄％＆＇（）＊＋，－／：；＜＝＞＠"
                       "［＼］＾＿｀｛｜｝～｟｠｢｣､、〃》「」"
                       "『』【】〔〕〖〗〘〙〚〛〜〝〞〟〰〾〿–—‘'‛“”„‟…‧﹏")
PUNCTUATION = CHINESE_PUNCTUATION + string.punctuation  # tested as a substring, as ChERRANT
MAX_PATHS = 100_000  # cheapest paths walked for one sentence pair before giving up
ALL_WITHIN = 10  # every cheapest path only when the lengths differ by at most this
MAX_CELLS = 25_000_000  # of one alignment table

Step = tuple[str, int, int, int, int]  # (operation, source start, end, target start, end)


@cache
def readings(text: str) -> frozenset[str]:
    """pypinyin's readings of a token, as ChERRANT asks for them (every reading of its
    first character, tone marks off)."""
    from pypinyin import Style, pinyin

    return frozenset(pinyin(text, style=Style.NORMAL, heteronym=True)[0])


def _all_chinese(text: str) -> bool:
    return all("\u4e00" <= ch <= "\u9fff" for ch in text)


def _meaning_cost(a: str, b: str, tables: Tables) -> float:
    a_class, b_class = tables.classes.get(a), tables.classes.get(b)
    if a_class is None or b_class is None:
        return 4
    if a_class == b_class:
        return 0
    return 2 * (3 - sum(x == y for x, y in zip(a_class, b_class, strict=True)))


def _form_cost(a: str, b: str, tables: Tables) -> float:
    if not (_all_chinese(a) and _all_chinese(b)):
        return 0.5
    short, long = (b, a) if len(a) > len(b) else (a, b)
    if short == long:
        return 0
    alike = 0
    sound = bool(readings(short) & readings(long))
    confusions = tables.confusions
    for x in short:
        if sound or any(x == y or x in confusions.get(y, ()) or y in confusions.get(x, ())
                        for y in long):
            alike += 1
    return (len(short) - alike) / (len(short) * 2)


def _punctuation_cost(a: str, b: str) -> float:
    a_mark, b_mark = a in PUNCTUATION, b in PUNCTUATION
    if a_mark and b_mark:
        return 0.0
    if not a_mark and not b_mark:
        return 0.25
    return 0.499


def substitution_cost(a: str, b: str, tables: Tables) -> float:
    if a == b:
        return 0
    meaning = _meaning_cost(a, b, tables) / 6.0
    return meaning + _form_cost(a, b, tables) + _punctuation_cost(a, b)


class Costs:
    """Substitution costs over one set of tables, each pair's computed once (up to
    MAX_REMEMBERED pairs, then forgotten and begun again)."""

    MAX_REMEMBERED = 1_000_000

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.known: dict[tuple[str, str], float] = {}
        self.chars: dict[str, _Char] = {}

    def substitution(self, a: str, b: str) -> float:
        found = self.known.get((a, b))
        if found is None:
            if len(self.known) >= self.MAX_REMEMBERED:
                self.known.clear()
            cost = (self.of_chars(a, b) if len(a) == 1 == len(b)
                    else substitution_cost(a, b, self.tables))
            found = self.known[(a, b)] = cost
        return found

    def of_chars(self, a: str, b: str) -> float:
        """`substitution_cost` of two single characters, the same sums in the same order
        (tested against it), from what is known of each character (`_char`)."""
        if a == b:
            return 0
        x, y = self._char(a), self._char(b)
        meaning = _meaning_cost(a, b, self.tables)
        if not (x.chinese and y.chinese):
            form = 0.5
        else:
            alike = (x.readings & y.readings or a in y.confusions or b in x.confusions)
            form = 0 / 2 if alike else 1 / 2
        marks = _punctuation_cost(a, b)
        return meaning / 6.0 + form + marks

    def _char(self, ch: str) -> _Char:
        known = self.chars.get(ch)
        if known is None:
            tables, chinese = self.tables, _all_chinese(ch)
            known = self.chars[ch] = _Char(
                chinese, readings(ch) if chinese else frozenset(),
                ch in PUNCTUATION, frozenset(tables.confusions.get(ch, ())))
        return known


@dataclass(frozen=True)
class _Char:
    """What the costs read of one character."""

    chinese: bool
    readings: frozenset[str]
    mark: bool
    confusions: frozenset[str]


try:  # built from _cherrant_align.c when a C compiler was there at install time
    from m2lsp.annotation import _cherrant_align as compiled  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - exercised where no compiler is installed
    compiled = None

Table = Any  # each cell's operations, row by row: lists of lists, or a CompiledTable


def operations(a: Sequence[str], b: Sequence[str], costs: Costs,
               use_compiled: bool = True) -> Table:
    """Each cell's cheapest operations (`M`, `T<n>`, `S`, `I`, `D`); cell (0, 0) has none:
    the table filled in C when the compiled core is there, else in Python (a table of
    more than MAX_CELLS cells is an InputError)."""
    if (len(a) + 1) * (len(b) + 1) > MAX_CELLS:
        raise InputError(f"a sentence of {len(a):,} characters and its target of {len(b):,} "
                         f"are too long to align (a table of more than {MAX_CELLS:,} cells); "
                         f"the sentence starts {''.join(a[:30])!r}")
    if use_compiled and compiled is not None:
        return _compiled(a, b, costs)
    return _operations(a, b, costs)


def _compiled(a: Sequence[str], b: Sequence[str], costs: Costs) -> Table:
    """The table from the compiled core: token ids, and the substitution costs of each
    distinct source token with each distinct target token (from `costs`)."""
    from array import array

    rows, columns = list(dict.fromkeys(a)), list(dict.fromkeys(b))
    ids = {token: n for n, token in enumerate(dict.fromkeys([*rows, *columns]))}
    row_of = {token: n for n, token in enumerate(rows)}
    column_of = {token: n for n, token in enumerate(columns)}
    substitution = costs.substitution
    sub = array("d", [0.0 if x == y else substitution(x, y) for x in rows for y in columns])
    masks, ks = compiled.operations(
        array("i", [ids[t] for t in a]).tobytes(), array("i", [ids[t] for t in b]).tobytes(),
        array("i", [row_of[t] for t in a]).tobytes(),
        array("i", [column_of[t] for t in b]).tobytes(), len(columns), sub.tobytes())
    return CompiledTable(len(a), len(b), masks, memoryview(ks).cast("i"))


class CompiledTable:
    """The compiled core's table, read as `_operations`' lists of lists are read."""

    NAMES = ((2, "S"), (4, "I"), (8, "D"))

    def __init__(self, n: int, m: int, masks: bytes, ks: memoryview) -> None:
        self.n, self.m, self.masks, self.ks = n, m, masks, ks

    def __len__(self) -> int:
        return self.n + 1

    def __getitem__(self, i: int) -> _Row:
        return _Row(self, i)

    def cell(self, i: int, j: int) -> list[str]:
        at = i * (self.m + 1) + j
        mask = self.masks[at]
        if mask & 16:
            return ["M"]
        names = [f"T{self.ks[at] + 1}"] if mask & 1 else []
        return names + [name for bit, name in self.NAMES if mask & bit]


@dataclass(frozen=True)
class _Row:
    table: CompiledTable
    i: int

    def __len__(self) -> int:
        return self.table.m + 1

    def __getitem__(self, j: int) -> list[str]:
        return self.table.cell(self.i, j)


def _operations(a: Sequence[str], b: Sequence[str], costs: Costs) -> list[list[list[str]]]:
    """`operations` in Python (the compiled core's oracle)."""
    n, m = len(a), len(b)
    substitution = costs.substitution
    cost = [[0.0] * (m + 1) for _ in range(n + 1)]
    ops: list[list[list[str]]] = [[[] for _ in range(m + 1)] for _ in range(n + 1)]
    for i in range(1, n + 1):
        cost[i][0], ops[i][0] = cost[i - 1][0] + 1, ["D"]
    for j in range(1, m + 1):
        cost[0][j], ops[0][j] = cost[0][j - 1] + 1, ["I"]
    for i in range(n):
        row, below = cost[i], cost[i + 1]
        for j in range(m):
            if a[i] == b[j]:
                below[j + 1], ops[i + 1][j + 1] = row[j], ["M"]
                continue
            k, moved = _transposition(cost, a, b, i, j)
            totals = (moved, row[j] + substitution(a[i], b[j]), below[j] + 1, row[j + 1] + 1)
            least = min(totals)
            below[j + 1] = least
            names = (f"T{k + 1}", "S", "I", "D")
            ops[i + 1][j + 1] = [name for name, c in zip(names, totals, strict=True)
                                 if c == least]
    return ops


def _transposition(cost: list[list[float]], a: Sequence[str], b: Sequence[str], i: int,
                   j: int) -> tuple[int, float]:
    """The span back from (i, j) whose tokens are the same multiset, and its cost (inf
    when none is found before the diagonal stops changing)."""
    k = 1
    while i - k >= 0 and j - k >= 0 and cost[i - k + 1][j - k + 1] != cost[i - k][j - k]:
        if sorted(a[i - k:i + 1]) == sorted(b[j - k:j + 1]):
            return k, cost[i - k][j - k] + k
        k += 1
    return k, float("inf")


class TooManyAlignments(InputError):
    """More cheapest paths than MAX_PATHS."""


def cheapest_paths(ops: Table, first_only: bool = False) -> Iterator[list[Step]]:
    """The cheapest paths from the start, each in order, in the order ChERRANT's
    depth-first walk from the end finds them."""
    n, m = len(ops) - 1, len(ops[0]) - 1
    every = abs(n - m) <= ALL_WITHIN and not first_only
    stack: list[tuple[int, int, _Link | None]] = [(n, m, None)]
    found = 0
    while stack:
        i, j, link = stack.pop()
        if i + j == 0:
            found += 1
            if found > MAX_PATHS:
                raise TooManyAlignments(f"more than {MAX_PATHS} cheapest alignments")
            yield _unlinked(link)
            continue
        cell = ops[i][j] if every else ops[i][j][:1]
        for op in reversed(cell):
            step = _step(op, i, j)
            stack.append((step[1], step[3], _Link(step, link)))


@dataclass(frozen=True)
class _Link:
    step: Step
    after: _Link | None


def _unlinked(link: _Link | None) -> list[Step]:
    steps = []
    while link is not None:
        steps.append(link.step)
        link = link.after
    return steps


def _step(op: str, i: int, j: int) -> Step:
    if op in ("M", "S"):
        return (op, i - 1, i, j - 1, j)
    if op == "D":
        return (op, i - 1, i, j, j)
    if op == "I":
        return (op, i, i, j - 1, j)
    k = int(op[1:])
    return (op, i - k, i, j - k, j)
