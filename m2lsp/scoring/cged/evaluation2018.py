"""CGED 2018-2021 evaluation as the official Perl script `evaluation.pl` computes it
(blcuicall/CCL2022-CLTC, metrics/track2): false positive rate, detection, identification,
position and top-3 correction levels, and the composite score
0.25·(F_det + F_id + F_pos + F_cor) − 0.25·FPR (FPR rounded to 4 places first, as the script
does).

What the script reads, it reads with regular expressions, and m2lsp reads the same way:

- a line is `id, correct` or `id, start, end, T` with T one of R W M S, each comma followed by
  whitespace; anything else (`id,3,4,M` without spaces, lower-case types, extra text) is
  silently skipped (rules T003 and T007 of `m2lsp check` flag such lines);
- identification counts distinct `id T`, position distinct `id start end T`;
- corrections (S and M lines, fifth field on): a truth answer containing a comma is split at
  commas and whitespace, one without a comma is kept whole, spaces and all; a result's
  answers are always split; correction counts distinct `id start end T answer`;
- a result sentence marked both correct and erroneous counts as erroneous.

A 0 denominator stops the script (`Illegal division by zero`); m2lsp says where instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from m2lsp.errors import InputError

_CORRECT = re.compile(r"(\S+),\s+correct")
_ERROR = re.compile(r"(\S+),\s+(\d+),\s+(\d+),\s+([RWMS])")
_ANSWERED = re.compile(r"(\S+),\s+(\d+),\s+(\d+),\s+([MS]),\s+(\S.*)")
_ANSWER = re.compile(r"[^,\s]+")


@dataclass
class Side:
    """What one file says: correct ids, erroneous ids, `id T`, `id s e T`, corrections."""

    correct: dict[str, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    types: dict[str, int] = field(default_factory=dict)
    positions: dict[str, int] = field(default_factory=dict)
    corrections: dict[str, int] = field(default_factory=dict)
    verdict: dict[str, str] = field(default_factory=dict)  # the result's id -> correct/error


def read_truth(text: str) -> Side:
    side = Side()
    for line in _lines(text):
        if m := _CORRECT.match(line):
            side.correct[m[1]] = 1
        elif m := _ERROR.match(line):
            side.errors[m[1]] = 1
            side.types[f"{m[1]} {m[4]}"] = 1
            side.positions[f"{m[1]} {m[2]} {m[3]} {m[4]}"] = 1
        if m := _ANSWERED.match(line):
            base = f"{m[1]} {m[2]} {m[3]} {m[4]}"
            answers = _ANSWER.findall(m[5]) if "," in m[5] else [m[5]]
            for answer in answers:
                side.corrections[f"{base} {answer}"] = 1
    return side


def read_result(text: str) -> Side:
    side = Side()
    for line in _lines(text):
        if m := _CORRECT.match(line):
            if m[1] not in side.verdict:
                side.verdict[m[1]] = "correct"
                side.correct[m[1]] = 1
        elif m := _ERROR.match(line):
            side.verdict[m[1]] = "error"
            side.errors[m[1]] = 1
            side.types[f"{m[1]} {m[4]}"] = side.types.get(f"{m[1]} {m[4]}", 0) + 1
            key = f"{m[1]} {m[2]} {m[3]} {m[4]}"
            side.positions[key] = side.positions.get(key, 0) + 1
            side.correct.pop(m[1], None)
        if m := _ANSWERED.match(line):
            for answer in _ANSWER.findall(m[5]):
                side.corrections[f"{m[1]} {m[2]} {m[3]} {m[4]} {answer}"] = 1
    return side


def crlf_note(truth_path: object, truth: str) -> str | None:
    """What CRLF line ends in the truth do to the correction level, which evaluation.pl does
    not say: a truth answer written without a comma keeps its CR, while a result's answers
    are split at whitespace and lose theirs, so none matches."""
    rows = [row for row, line in enumerate(truth.split("\n"), 1)
            if line.endswith("\r") and (m := _ANSWERED.match(line)) and "," not in m[5]]
    if not rows:
        return None
    return (f"{truth_path}:{rows[0]}: CRLF line ends: evaluation.pl keeps the CR in each "
            f"correction of the truth ({len(rows)} line(s)), so no system correction "
            f"matches them and the Correction level counts none right, as it prints (rule "
            f"T009); save the truth with LF line ends for a meaningful correction score")


def _lines(text: str) -> list[str]:
    """Perl's `while (<in>) { chomp; ... }`: LF-separated, a CR stays."""
    lines = text.split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


Number = int | float | None  # None: a Perl variable never set (prints as nothing)


@dataclass(frozen=True)
class Level:
    precision: Number
    recall: Number
    f1: Number
    hits: Number
    claimed: int
    expected: int


@dataclass(frozen=True)
class Cged2018Result:
    truth: Side
    result: Side
    fpr: float
    fp: Number
    detection: Level
    identification: Level
    position: Level
    correction: Level

    @property
    def fpr_rounded(self) -> str:
        return f"{self.fpr:.4f}"

    @property
    def composite(self) -> float:
        return (0.25 * _num(self.detection.f1) + 0.25 * _num(self.identification.f1)
                + 0.25 * _num(self.position.f1) + 0.25 * _num(self.correction.f1)
                - 0.25 * float(self.fpr_rounded))


def _num(value: Number) -> float:
    return 0 if value is None else value


def _add(counter: Number) -> int | float:
    return 1 if counter is None else counter + 1


def _divide(a: Number, b: Number, where: str) -> float:
    if not b:
        raise InputError(f"evaluation.pl stops here with `Illegal division by zero` ({where}); "
                         "it prints no score")
    return _num(a) / b


def evaluate(result: Side, truth: Side) -> Cged2018Result:
    fp = tn = None
    for sid in sorted(truth.correct):
        if result.verdict.get(sid) == "correct":
            tn = _add(tn)
        else:
            fp = _add(fp)
    fpr = _divide(fp, len(truth.correct), "false positive rate: no correct truth sentence")
    return Cged2018Result(truth, result, fpr, fp, _detection(result, truth),
                          _identification(result, truth), _position(result, truth),
                          _correction(result, truth))


def _detection(result: Side, truth: Side) -> Level:
    flagged = [sid for sid in truth.errors
               if sid in result.verdict and result.verdict[sid] != "correct"]
    return _level("detection", len(flagged) or None, len(result.errors), len(truth.errors),
                  guarded=False)


def _identification(result: Side, truth: Side) -> Level:
    return _level("identification", _hits(truth.types, result.types), len(result.types),
                  len(truth.types), guarded=False)


def _position(result: Side, truth: Side) -> Level:
    return _level("position", _hits(truth.positions, result.positions),
                  len(result.positions), len(truth.positions), guarded=True)


def _hits(expected: dict[str, int], claimed: dict[str, int]) -> int | None:
    """How many expected keys were claimed (None, a Perl counter never set, for none)."""
    return sum(1 for key in expected if key in claimed) or None


def _level(name: str, hits: Number, claimed: int, expected: int, guarded: bool) -> Level:
    """P, R and F1 as the script computes them; only the position level guards its F1
    against P + R = 0 (the others stop there)."""
    p = _divide(hits, claimed, f"{name}: nothing claimed")
    r = _divide(hits, expected, f"{name}: nothing in the truth")
    if guarded:
        f1: Number = 2 * p * r / (p + r) if p + r > 0 else 0
    else:
        f1 = _divide(2 * p * r, p + r, f"{name} F1: P + R = 0")
    return Level(p, r, f1, hits, claimed, expected)


def _correction(result: Side, truth: Side) -> Level:
    hits = None
    for key in truth.corrections:
        if key in result.corrections:
            hits = _add(hits)
    p = r = None
    if result.corrections:
        p = _num(hits) / len(result.corrections)
        r = _divide(hits, len(truth.corrections), "correction: no truth answer")
    # the script tests `$pr_top3 + $rec_top3 > 0`: a misspelt name, so only recall counts
    f1 = 2 * _num(p) * _num(r) / (_num(p) + _num(r)) if _num(r) > 0 else 0
    return Level(p, r, f1, hits, len(result.corrections), len(truth.corrections))


# -- printing as Perl prints -------------------------------------------------------------

def perl(value: Number) -> str:
    """A Perl scalar in a string: nothing if never set, else `%.15g`."""
    if value is None:
        return ""
    if isinstance(value, int):
        return str(value)
    return f"{value:.15g}"


RULE = "\n\n=====================\n\n"


def stdout_2018(r: Cged2018Result) -> str:
    """What evaluation.pl prints on its standard output (every number unrounded, and the
    composite score)."""
    t, s = r.truth, r.result
    d, i, p, c = r.detection, r.identification, r.position, r.correction
    return "".join([
        f"Correct Units: {len(t.correct)}\tUnits With Errors: {len(t.errors)}\n"
        f"Error Type Counts in All Units: {len(t.types)}\tError Count: {len(t.positions)}"
        f"\tErrors Need Correction: {len(t.corrections)}", RULE,
        f"System Correct Units: {len(s.correct)}\tSystem Units With Errors: {len(s.errors)}\n"
        f"System Error Type Counts in All Units: {len(s.types)}\tSystem Error Count: "
        f"{len(s.positions)}\tSystem Corrected Erros:{len(s.corrections)}", RULE,
        f"False Positive Rate = {perl(r.fpr)} ( {perl(r.fp)} / {len(t.correct)})", RULE,
        f"Detction Level\nPre = {perl(d.precision)} ({perl(d.hits)} / {d.claimed})\n"
        f"Rec = {perl(d.recall)} ({perl(d.hits)} / {d.expected})\nF1 = {perl(d.f1)} (2* "
        f"{perl(d.precision)} * {perl(d.recall)} /( {perl(d.precision)} + {perl(d.recall)} ))",
        RULE,
        f"Identification Level\nPre = {perl(i.precision)} ({perl(i.hits)} / {i.claimed})\n"
        f"Rec = {perl(i.recall)} ({perl(i.hits)} / {i.expected})\nF1 = {perl(i.f1)} (2* "
        f"{perl(i.precision)} * {perl(i.recall)} / ( {perl(i.precision)}+{perl(i.recall)} ))",
        RULE,
        f"Postion Level\nPre = {perl(p.precision)} ( {perl(p.hits)} / {p.claimed} )\n"
        f"Rec = {perl(p.recall)} ( {perl(p.hits)} / {p.expected} )\nF1 = {perl(p.f1)} ( 2 * "
        f"{perl(p.precision)} * {perl(p.recall)} /( {perl(p.precision)}+{perl(p.recall)} ) )",
        RULE,
        f"Correction Level\nPre = {perl(c.precision)} ( {perl(c.hits)} / {c.claimed} )\n"
        f"Rec = {perl(c.recall)} ( {perl(c.hits)} / {c.expected} )\nF1 = {perl(c.f1)} ( 2 * "
        f"{perl(c.precision)} * {perl(c.recall)} /( {perl(c.precision)} + {perl(c.recall)} ) )"
        "\n",
        f"\nComprehensive score = {perl(r.composite)}", "\n\n==========END===========\n\n"])


def report_2018(r: Cged2018Result, system: str, gold: str) -> str:
    """What evaluation.pl writes to its report file (numbers to 4 places; no composite)."""
    t, s = r.truth, r.result
    parts = [f"CGED2021 Evaluation\n\nSystem Output:{system}\nGold Standard: {gold}{RULE}",
             f"Correct Units: {len(t.correct)}\tUnits With Errors: {len(t.errors)}\n"
             f"Error Type Counts in All Units: {len(t.types)}\tError Count: {len(t.positions)}"
             f"\tError-Corrections: {len(t.corrections)}", RULE,
             f"System Correct Units: {len(s.correct)}\tSystem Units With Errors: "
             f"{len(s.errors)}\nSystem Error Type Counts in All Units: {len(s.types)}\tSystem "
             f"Error Count: {len(s.positions)}\tSystem Corrected Erros:", RULE,
             f"False Positive Rate = {r.fpr_rounded} ( {perl(r.fp)} / {len(t.correct)})", RULE]
    for name, level in (("Detection Level", r.detection),
                        ("Identification Level", r.identification),
                        ("Position Level", r.position), ("Correction Level", r.correction)):
        pre, rec = f"{_num(level.precision):.4f}", f"{_num(level.recall):.4f}"
        parts += [f"{name}\nPre = {pre} ({perl(level.hits)} / {level.claimed})\nRec = {rec} "
                  f"({perl(level.hits)} / {level.expected})\nF1 = {_num(level.f1):.4f} (2* "
                  f"{pre} * {rec} /( {pre} + {rec} ))", RULE]
    return "".join(parts)
