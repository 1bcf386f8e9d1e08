"""From a char-level alignment path to typed edits, as ChERRANT's merger and classifier do
at char level.

Merging: runs of matches, and each transposition, stand alone; a run of other operations
becomes one edit (all deletions: a deletion; all insertions: an insertion; deletions mixed
with insertions only: left as they are; anything else: a substitution).  Then, left to right,
three edits in a row that are a word order change become one transposition: `S M S` whose
outer spans are swapped (exactly, when one of the four is a single character, else within
one Levenshtein step each), and `D M I` or `I M D` (the middle may be a transposition) whose
deleted and inserted strings are not punctuation and are the same (one character), within
one step, or a rotation of each other.  Matches are dropped, then edits whose two sides read
the same, and a substitution that begins or ends with what its target begins or ends with is
trimmed to the rest (becoming an insertion or a deletion if a side is left empty).

Types: a transposition is `W`, a deletion `R`, an insertion `M`, a substitution `S`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import groupby
from typing import NamedTuple

from m2lsp.annotation.chinese_align import Step

MERGE_PUNCTUATION = ("！？｡＂＃＄％＆＇（）＊＋，－／：；＜＝＞＠"
                     "［＼］＾＿｀｛｜｝～｟｠｢｣､、〃》「」"
                     "『』【】〔〕〖〗〘〙〚〛〜〝〞〟–—‘'‛“”„‟…‧.")
TYPES = {"T": "W", "D": "R", "I": "M", "S": "S"}


class ChineseEdit(NamedTuple):
    type: str  # W, R, M, S
    start: int
    end: int
    correction: str  # the target tokens joined by spaces; -NONE- for a deletion

    def line(self, coder: int) -> str:
        return (f"A {self.start} {self.end}|||{self.type}|||{self.correction}|||REQUIRED|||"
                f"-NONE-|||{coder}")


def merged(path: Sequence[Step], src: Sequence[str], tgt: Sequence[str]) -> list[Step]:
    """The merged, filtered and trimmed edit spans of one path."""
    runs = _runs(path)
    reordered = _reordered(runs, src, tgt)
    return list(_trimmed(reordered, src, tgt))


def typed(step: Step, tgt: Sequence[str]) -> ChineseEdit:
    kind = TYPES[step[0][0]]
    correction = "-NONE-" if kind == "R" else " ".join(tgt[step[3]:step[4]])
    return ChineseEdit(kind, step[1], step[2], correction)


def _span(steps: Sequence[Step], name: str) -> Step:
    return (name, steps[0][1], steps[-1][2], steps[0][3], steps[-1][4])


def _runs(path: Sequence[Step]) -> list[Step]:
    out: list[Step] = []
    for kind, group in groupby(path, lambda s: s[0][0] if s[0][0] in "MT" else ""):
        steps = list(group)
        out.extend(steps if kind == "T" else _run(steps))
    return out


def _run(steps: list[Step]) -> list[Step]:
    if len(steps) <= 1:
        return steps
    kinds = {s[0] for s in steps}
    if kinds == {"D", "I"}:
        return steps
    if len(kinds) == 1 and kinds <= {"D", "I", "S", "M"}:
        return [_span(steps, kinds.pop())]
    return [_span(steps, "S")]


def _text(tokens: Sequence[str], start: int, end: int) -> str:
    return "".join(tokens[start:end])


def _reordered(runs: list[Step], src: Sequence[str], tgt: Sequence[str]) -> list[Step]:
    out: list[Step] = []
    i = 0
    while i < len(runs):
        if i < len(runs) - 2 and _is_reordering(runs[i:i + 3], src, tgt):
            out.append(_span(runs[i:i + 3], f"T{runs[i + 2][2] - runs[i][1]}"))
            i += 3
            continue
        if runs[i][0][0] != "M":
            out.append(runs[i])
        i += 1
    return out


def _is_reordering(three: Sequence[Step], src: Sequence[str], tgt: Sequence[str]) -> bool:
    first, middle, last = (s[0][0] for s in three)
    if (first, middle, last) == ("S", "M", "S"):
        return _swapped(three[0], three[2], src, tgt)
    if middle in "MT" and (first, last) in (("D", "I"), ("I", "D")):
        deleted, inserted = (three[0], three[2]) if first == "D" else (three[2], three[0])
        return _moved(_text(src, deleted[1], deleted[2]), _text(tgt, inserted[3], inserted[4]))
    return False


def _swapped(left: Step, right: Step, src: Sequence[str], tgt: Sequence[str]) -> bool:
    w1, w2 = _text(src, left[1], left[2]), _text(tgt, left[3], left[4])
    w3, w4 = _text(src, right[1], right[2]), _text(tgt, right[3], right[4])
    if min(len(w1), len(w2), len(w3), len(w4)) == 1:
        return w1 == w4 and w2 == w3
    return levenshtein(w1, w4) <= 1 and levenshtein(w2, w3) <= 1


def _moved(deleted: str, inserted: str) -> bool:
    a, b = (inserted, deleted) if len(deleted) < len(inserted) else (deleted, inserted)
    if a in MERGE_PUNCTUATION or b in MERGE_PUNCTUATION or len(a) - len(b) > 1:
        return False
    if len(b) == 1:
        return a == b
    return levenshtein(a, b) <= 1 or (len(a) == len(b) and b in a + a)


def levenshtein(a: str, b: str) -> int:
    """Insertions, deletions and substitutions that make `a` into `b`."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def _trimmed(steps: Iterable[Step], src: Sequence[str], tgt: Sequence[str]) -> Iterable[Step]:
    for step in steps:
        source, target = _text(src, step[1], step[2]), _text(tgt, step[3], step[4])
        if source == target:
            continue
        yield _trim(step, target, src, tgt) if step[0] == "S" else step


def _trim(step: Step, target: str, src: Sequence[str], tgt: Sequence[str]) -> Step:
    """A substitution without the tokens its two sides begin or end with alike."""
    _, s1, s2, t1, t2 = step
    trimmed = False
    start = _common_start(s1, s2, t1, t2, target, src, tgt)
    if start is not None:
        (s1_new, t1_new), trimmed = start, True
    else:
        s1_new, t1_new = s1, t1
    end = _common_end(s1_new, s2, t1_new, t2, target, src, tgt)
    if end is not None:
        (s2_new, t2_new), trimmed = end, True
    else:
        s2_new, t2_new = s2, t2
    if not trimmed:
        return step
    kind = "I" if s1_new == s2_new else "D" if t1_new == t2_new else "S"
    return (kind, s1_new, s2_new, t1_new, t2_new)


def _common_start(s1: int, s2: int, t1: int, t2: int, target: str, src: Sequence[str],
                  tgt: Sequence[str]) -> tuple[int, int] | None:
    common, after = "", s1
    for i in range(s1, s2):
        if not target.startswith(common + src[i]):
            break
        common, after = common + src[i], i + 1
    if not common:
        return None
    read = ""
    for j in range(t1, t2):
        read += tgt[j]
        if read == common:
            return after, j + 1
        if len(read) > len(common):
            return None
    return None


def _common_end(s1: int, s2: int, t1: int, t2: int, target: str, src: Sequence[str],
                tgt: Sequence[str]) -> tuple[int, int] | None:
    common, before = "", s2
    for i in reversed(range(s1, s2)):
        if not target.endswith(src[i] + common):
            break
        common, before = src[i] + common, i
    if not common:
        return None
    read = ""
    for j in reversed(range(t1, t2)):
        read = tgt[j] + read
        if read == common:
            return before, j
        if len(read) > len(common):
            return None
    return None
