"""CGED evaluation (NLP-TEA 2015): false positive rate and the detection, identification and
position levels, counted as the official `nlptea15cged.jar` counts them.

One truth item and one result item per sentence id (a later line for the same id replaces
the earlier; the jar warns about repeated result ids and scores such an id once per line).
Each result line is judged at each level, in result-file order:

| truth   | result        | detection | identification | position                       |
|---------|---------------|-----------|----------------|--------------------------------|
| correct | correct       | TN        | TN             | TN (FP if positions differ)    |
| correct | an error      | FP        | FP             | FP                             |
| error   | correct       | FN        | FN             | FN                             |
| error   | the same type | TP        | TP             | TP if the same position, else FN |
| error   | another type  | TP        | FN             | FN                             |

Types compare without case; positions compare as written (`start, end`).  Accuracy is
(TP + TN) / result lines, precision TP / (TP + FP), recall TP / (TP + FN), F1 2PR / (P + R),
the false positive rate FP / (FP + TN) at the detection level; a 0/0 is NaN, printed `NaN`.

`paper` counting (`--cged-counting paper`) is the NLP-TEA 2015 overview's: at the
identification and position levels a wrong claim about an erroneous sentence is also a false
positive, so precision is TP over every sentence the system flags.  On the overview's
8-sentence example the jar prints identification precision 0.6 (3/5) and position 0.5 (2/4);
the paper prints 0.5 (3/6) and 0.33 (2/6).  Accuracy and recall are the same either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from m2lsp.errors import InputError
from m2lsp.formats.cged.model import cged_type
from m2lsp.scoring.cged.inputs import CgedItem

LEVELS = ("detection", "identification", "position")
COUNTINGS = ("official", "paper")


@dataclass(frozen=True)
class Outcomes:
    """The result ids judged TP, FP, TN, FN at one level, in result-file order."""

    tp: list[str] = field(default_factory=list)
    fp: list[str] = field(default_factory=list)
    tn: list[str] = field(default_factory=list)
    fn: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class LevelScore:
    accuracy: float
    precision: float
    recall: float
    f1: float
    correct: int  # TP + TN
    total: int
    tp: int
    fp: int
    fn: int


@dataclass(frozen=True)
class CgedResult:
    ids: list[str]  # result ids in file order (repeated ids repeated)
    truth: dict[str, CgedItem]
    result: dict[str, CgedItem]
    levels: dict[str, Outcomes]
    counting: str = "official"

    @property
    def false_positive_rate(self) -> tuple[float, int, int]:
        d = self.levels["detection"]
        return _ratio(len(d.fp), len(d.fp) + len(d.tn)), len(d.fp), len(d.fp) + len(d.tn)

    def score(self, level: str) -> LevelScore:
        o = self.levels[level]
        tp, tn, fn = len(o.tp), len(o.tn), len(o.fn)
        fp = len(o.fp)
        if self.counting == "paper" and level != "detection":
            fp += len(self.levels["detection"].tp) - tp
        p, r = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
        return LevelScore(_ratio(tp + tn, len(self.ids)), p, r, _f1(p, r), tp + tn,
                          len(self.ids), tp, fp, fn)


def _ratio(a: int, b: int) -> float:
    """a / b as a Java double: 0/0 is NaN."""
    return a / b if b else (float("nan") if a == 0 else float("inf"))


def _f1(p: float, r: float) -> float:
    if p != p or r != r:
        return float("nan")
    return 2.0 * (p * r) / (p + r) if p + r else float("nan")


def by_id(items: Sequence[CgedItem]) -> dict[str, CgedItem]:
    """Each id's last item, as the jar's map keeps it."""
    return {item.sid: item for item in items}


def evaluate(result_items: Sequence[CgedItem], truth_items: Sequence[CgedItem],
             counting: str = "official") -> CgedResult:
    """Judge every result line against the truth (see the module docstring)."""
    truth, result = by_id(truth_items), by_id(result_items)
    _check_balance(truth, result)
    levels = {level: Outcomes() for level in LEVELS}
    ids = [item.sid for item in result_items]
    for sid in ids:
        for level, outcome in zip(LEVELS, judge(truth[sid], result[sid]), strict=True):
            getattr(levels[level], outcome).append(sid)
    return CgedResult(ids, truth, result, levels, counting)


def judge(truth: CgedItem, result: CgedItem) -> tuple[str, str, str]:
    """The outcome at the detection, identification and position levels."""
    if truth.correct:
        if result.correct:
            return "tn", "tn", "tn" if truth.position == result.position else "fp"
        return "fp", "fp", "fp"
    if result.correct:
        return "fn", "fn", "fn"
    if result.type.lower() == truth.type.lower():
        return "tp", "tp", "tp" if truth.position == result.position else "fn"
    return "tp", "fn", "fn"


def _check_balance(truth: dict[str, CgedItem], result: dict[str, CgedItem]) -> None:
    missing = [sid for sid in result if sid not in truth]
    absent = [sid for sid in truth if sid not in result]
    if missing or absent:
        parts = []
        if missing:
            parts.append(f"{len(missing)} result id(s) not in the truth, first "
                         f"{missing[0]!r} (result line {result[missing[0]].line + 1})")
        if absent:
            parts.append(f"{len(absent)} truth id(s) with no result line, first "
                         f"{absent[0]!r} (truth line {truth[absent[0]].line + 1})")
        raise InputError("unbalanced: " + "; ".join(parts)
                         + " (the official tool stops with `Unbalanced!`)")


# -- NLP-TEA 2016 (nlptea16cged.jar): several errors per sentence ----------------------

CORRECT = "CORRECT"
ErrorMap = dict[str, dict[str, set[str]]]  # sid -> TYPE -> {"start, end"}


@dataclass(frozen=True)
class Cged2016Result:
    """nlptea16cged.jar's counts.  Detection counts sentences (ids in sorted order);
    identification counts `sid, TYPE` items and position `sid, start, end, TYPE` items, each
    a set.  A sentence whose types all match puts its result types in TP; otherwise each
    result type (position) found in the truth is TP and the others FP.  A missed erroneous
    sentence is one FN item `sid, CORRECT` at each level, so accuracy's denominator (TP + TN
    + FP + FN) is not recall's, which is every error (position) of the truth."""

    ids: list[str]
    detection: dict[str, list[str]]
    identification: dict[str, set[str]]
    position: dict[str, set[str]]
    truth_errors: int
    truth_positions: int

    @property
    def false_positive_rate(self) -> tuple[float, int, int]:
        fp, tn = len(self.detection["fp"]), len(self.detection["tn"])
        return _ratio(fp, fp + tn), fp, fp + tn

    def score(self, level: str) -> LevelScore:
        if level == "detection":
            d = {k: len(v) for k, v in self.detection.items()}
            p, r = _ratio(d["tp"], d["tp"] + d["fp"]), _ratio(d["tp"], d["tp"] + d["fn"])
            return LevelScore(_ratio(d["tp"] + d["tn"], len(self.ids)), p, r, _f1(p, r),
                              d["tp"] + d["tn"], len(self.ids), d["tp"], d["fp"], d["fn"])
        items = self.identification if level == "identification" else self.position
        c = {k: len(v) for k, v in items.items()}
        errors = self.truth_errors if level == "identification" else self.truth_positions
        total = c["tp"] + c["tn"] + c["fp"] + c["fn"]
        p, r = _ratio(c["tp"], c["tp"] + c["fp"]), _ratio(c["tp"], errors)
        return LevelScore(_ratio(c["tp"] + c["tn"], total), p, r, _f1(p, r),
                          c["tp"] + c["tn"], total, c["tp"], c["fp"], errors - c["tp"])


def error_maps(items: Sequence[CgedItem]) -> ErrorMap:
    """Each sentence's types (upper case) and their positions; `correct` is a type with no
    positions."""
    maps: ErrorMap = {}
    for item in items:
        positions = maps.setdefault(item.sid, {}).setdefault(item.type.upper(), set())
        if item.position:
            positions.add(item.position)
    return maps


def evaluate_2016(result_items: Sequence[CgedItem], truth_items: Sequence[CgedItem]
                  ) -> Cged2016Result:
    truth, result = error_maps(truth_items), error_maps(result_items)
    _check_balance(by_id(truth_items), by_id(result_items))
    detection: dict[str, list[str]] = {k: [] for k in ("tp", "fp", "tn", "fn")}
    ident: dict[str, set[str]] = {k: set() for k in ("tp", "fp", "tn", "fn")}
    position: dict[str, set[str]] = {k: set() for k in ("tp", "fp", "tn", "fn")}
    ids = sorted(result)
    for sid in ids:
        _judge_2016(sid, truth[sid], result[sid], detection, ident, position)
    errors = sum(len(t) - (CORRECT in t) for t in truth.values())
    positions = sum(len(p) for t in truth.values() for p in t.values())
    return Cged2016Result(ids, detection, ident, position, errors, positions)


def _judge_2016(sid: str, truth: dict[str, set[str]], result: dict[str, set[str]],
                detection: dict[str, list[str]], ident: dict[str, set[str]],
                position: dict[str, set[str]]) -> None:
    correct = f"{sid}, {CORRECT}"
    if _is_correct(truth) and _is_correct(result):
        detection["tn"].append(sid)
        ident["tn"].add(correct)
        position["tn"].add(correct)
    elif _is_correct(truth):
        detection["fp"].append(sid)
        _all_wrong(sid, result, ident, position)
    elif _is_correct(result):
        detection["fn"].append(sid)
        ident["fn"].add(correct)
        position["fn"].add(correct)
    else:
        detection["tp"].append(sid)
        _claims(sid, truth, result, ident, position)


def _is_correct(errors: dict[str, set[str]]) -> bool:
    return len(errors) == 1 and CORRECT in errors


def _all_wrong(sid: str, result: dict[str, set[str]], ident: dict[str, set[str]],
               position: dict[str, set[str]]) -> None:
    for kind, places in result.items():
        ident["fp"].add(f"{sid}, {kind}")
        for place in places:
            position["fp"].add(f"{sid}, {place}, {kind}")


def _claims(sid: str, truth: dict[str, set[str]], result: dict[str, set[str]],
            ident: dict[str, set[str]], position: dict[str, set[str]]) -> None:
    """An erroneous sentence the system flags: each claimed type (position) is TP if the
    truth has it, else FP.  (The jar takes three paths here, by whether the types and the
    positions all match; they come to this.)"""
    for kind, places in result.items():
        ident["tp" if kind in truth else "fp"].add(f"{sid}, {kind}")
        for place in places:
            found = place in truth.get(kind, ())
            position["tp" if found else "fp"].add(f"{sid}, {place}, {kind}")


# -- the correction level of CGED 2020-2021 (m2lsp's own scoring) ------------------------

@dataclass(frozen=True)
class CorrectionScore:
    """Top-1 correction of S and M errors: a result's first answer is right when it is one
    of the truth's answers for the same sentence, position and type."""

    precision: float
    recall: float
    f1: float
    tp: int
    claimed: int  # result S/M errors with an answer
    expected: int  # truth S/M errors with answers


def correction_level(result_items: Sequence[CgedItem], truth_items: Sequence[CgedItem]
                     ) -> CorrectionScore:
    expected: dict[tuple[str, str, str], set[str]] = {}
    for item in truth_items:
        if item.answers and item.type.upper() in ("S", "M"):
            expected.setdefault(_key(item), set()).update(item.answers)
    claimed: dict[tuple[str, str, str], str] = {}
    for item in result_items:
        if item.answers and item.type.upper() in ("S", "M"):
            claimed.setdefault(_key(item), item.answers[0])
    tp = sum(answer in expected.get(key, ()) for key, answer in claimed.items())
    p, r = _ratio(tp, len(claimed)), _ratio(tp, len(expected))
    return CorrectionScore(p, r, _f1(p, r), tp, len(claimed), len(expected))


def _key(item: CgedItem) -> tuple[str, str, str]:
    return item.sid, item.position, item.type.upper()


def position_types(result_items: Sequence[CgedItem], truth_items: Sequence[CgedItem]
                   ) -> tuple[tuple[str, int, int, int, float], ...]:
    """(type, TP, FP, FN, F1) per error type at the position level, as nlptea16cged.jar
    counts position items (sets of `id, start, end, TYPE`), each type named by its letter
    (`Redundant` and `r` are R, as the overviews name them; the official levels compare
    them as written); an F1 of 0/0 is 0 here."""
    def items(found: Sequence[CgedItem]) -> set[tuple[str, str, str]]:
        return {(i.sid, i.position, _letter(i.type)) for i in found
                if not i.correct and i.position}
    truth, result = items(truth_items), items(result_items)
    rows = []
    for kind in sorted({t for *_, t in truth | result}):
        mine = {k for k in result if k[2] == kind}
        gold = {k for k in truth if k[2] == kind}
        tp, fp, fn = len(mine & gold), len(mine - gold), len(gold - mine)
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        rows.append((kind, tp, fp, fn, 2 * p * r / (p + r) if p + r else 0.0))
    return tuple(rows)


def _letter(kind: str) -> str:
    known = cged_type(kind)
    return known.value if known else kind.strip().upper()
