"""What the NUS M2 scorer prints, byte for byte: the three-line summary, and with `-v` the
per-sentence blocks as release 3.2 prints them under Python 3 (Python 3 reprs), or with
`Reprs(python2=True)` as the release prints them under Python 2.7 (`u'...'`, 12-digit
floats)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from m2lsp.scoring.m2 import py2
from m2lsp.scoring.m2.lattice import GoldEdit, SystemEdit
from m2lsp.scoring.m2.maxmatch import (
    Counts,
    M2Settings,
    Score,
    SentenceResult,
    choose,
    corpus_score,
)

RULE = "-------------------------------------------"


@dataclass(frozen=True)
class Reprs:
    """How the `-v` report writes the scorer's Python values.

    Under Python 3 (the default, what a port of 3.2 prints) strings and floats are Python 3
    reprs.  Under Python 2.7 (`python2`, the release's own bytes) a float prints as `str()`
    does there (12 digits), and a string as the unicode it was (`u'on'`) unless the scorer
    wrote it itself: an empty original or correction on a system edit, an insertion's empty
    original, and `-NONE-` read as a correction are byte strings (`''`), while an empty
    correction field is `u''`.  `gold_lines` (the gold file's lines) tell the two apart."""

    python2: bool = False
    gold_lines: Sequence[str] = ()

    def number(self, value: float) -> str:
        return py2.float_str(value) if self.python2 else repr(value)

    def system(self, edits: Sequence[tuple]) -> str:
        """A list of system edits (start, end, original, correction)."""
        if not self.python2:
            return _list(edits)
        return "[" + ", ".join(self.system_edit(e) for e in edits) + "]"

    def system_edit(self, edit: tuple) -> str:
        if not self.python2:
            return repr(tuple(edit))
        start, end, original, correction = edit
        return f"({start}, {end}, {_text(original)}, {_text(correction)})"

    def gold(self, attempt: Any) -> str:
        """An attempt's gold edits (start, end, original, [corrections])."""
        if not self.python2:
            return _list(attempt.gold)
        lines = attempt.lines or (None,) * len(attempt.gold)
        return "[" + ", ".join(self._gold_edit(g, line)
                               for g, line in zip(attempt.gold, lines, strict=True)) + "]"

    def _gold_edit(self, edit: GoldEdit, line: int | None) -> str:
        nones = self._none_marks(line, len(edit.corrections))
        corrections = ", ".join("''" if none else py2.unicode_repr(c)
                                for c, none in zip(edit.corrections, nones, strict=True))
        return f"({edit.start}, {edit.end}, {_text(edit.original)}, [{corrections}])"

    def _none_marks(self, line: int | None, count: int) -> list[bool]:
        """Which corrections of the edit on `line` were written `-NONE-` (the scorer's
        own ''); where the line is not known, every empty one is taken for one."""
        if line is None or line >= len(self.gold_lines):
            return [True] * count
        fields = self.gold_lines[line][2:].split("|||")
        written = fields[2].split("||") if len(fields) > 2 else []
        marks = [c == "-NONE-" for c in written]
        return marks if len(marks) == count else [True] * count


def _text(text: str) -> str:
    """A string the scorer built from tokens (unicode) or wrote itself when empty ('')."""
    return py2.unicode_repr(text) if text else "''"


def summary(score: Score) -> str:
    return (f"Precision   : {score.precision:.4f}\n"
            f"Recall      : {score.recall:.4f}\n"
            f"F_{score.settings.beta:.1f}       : {score.f:.4f}\n")


def verbose(results: Sequence[SentenceResult], settings: M2Settings,
            lattices: bool = False, reprs: Reprs = Reprs()) -> tuple[str, Score]:
    """The `-v` report (sentence blocks, then the totals and the summary) and the score;
    with `lattices`, each sentence block starts with its lattice (m2lsp's own format: the
    NUS scorer's `--very_verbose` dumps its internal data structures); `reprs`: Python 3's
    or Python 2.7's."""
    out = io.StringIO()

    def write_sentence(result: SentenceResult, before: Counts, tried: list[Counts]) -> None:
        if lattices:
            out.write(lattice_dump(result, settings))
        for attempt, local in zip(result.attempts, tried, strict=True):
            _write_attempt(out, result, attempt, local, settings.beta, reprs)
        out.write(f">> Chosen Annotator for line {result.index + 1} : "
                  f"{result.attempts[result.chosen].annotator}\n\n")

    _, total = choose(results, settings.beta, on_choice=write_sentence)
    score = corpus_score(total, settings)
    out.write(f"CORRECT EDITS  : {int(total.correct)}\n"
              f"PROPOSED EDITS : {int(total.proposed)}\n"
              f"GOLD EDITS     : {int(total.gold)}\n"
              f"P = {reprs.number(score.precision)}\nR = {reprs.number(score.recall)}\n"
              f"F_{settings.beta:.1f} = {reprs.number(score.f)}\n")
    out.write(summary(score))
    return out.getvalue(), score


def _write_attempt(out: io.StringIO, result: SentenceResult, attempt: Any, local: Counts,
                   beta: float, reprs: Reprs) -> None:
    out.write(f">> Annotator: {attempt.annotator}\n")
    for line in match_notes(attempt.system, attempt.gold, reprs):
        out.write(line + "\n")
    p = local.correct / local.proposed if local.proposed else 1.0
    r = local.correct / local.gold if local.gold else 1.0
    denominator = beta * beta * local.gold + local.proposed
    f = (1 + beta * beta) * local.correct / denominator if denominator else (
        1.0 if local.correct == 0.0 else 0.0)
    shrunk = [shrink(e) for e in reversed(attempt.system)]
    out.write(f"SOURCE        : {result.source}\n"
              f"HYPOTHESIS    : {result.hypothesis}\n"
              f"EDIT SEQ      : {reprs.system(shrunk)}\n"
              f"GOLD EDITS    : {reprs.gold(attempt)}\n"
              f"CORRECT EDITS : {reprs.system(attempt.correct)}\n"
              f"# correct     : {int(local.correct)}\n"
              f"# proposed    : {int(local.proposed)}\n"
              f"# gold        : {int(local.gold)}\n"
              f"precision     : {reprs.number(p)}\nrecall        : {reprs.number(r)}\n"
              f"f_{beta:.1f}         : {reprs.number(f)}\n{RULE}\n")


def _list(items: Sequence[tuple]) -> str:
    """A list of tuples as Python prints it (named tuples as plain tuples)."""
    return repr([tuple(list(x) if isinstance(x, list) else x for x in item) for item in items])


def shrink(edit: SystemEdit) -> tuple[int, int, str, str]:
    """An edit without the tokens its two sides share at the start and end, as the scorer
    prints edit sequences."""
    original, correction = py2.split(edit.original), py2.split(edit.correction)
    shortest = min(len(original), len(correction))
    head = 0
    while head < shortest and original[head] == correction[head]:
        head += 1
    tail = 0
    while tail < shortest - head and original[-1 - tail] == correction[-1 - tail]:
        tail += 1
    return (edit.start + head, edit.end - tail,
            " ".join(original[head:len(original) - tail]),
            " ".join(correction[head:len(correction) - tail]))


def match_notes(system: Sequence[SystemEdit], gold: Sequence[GoldEdit],
                reprs: Reprs = Reprs()) -> list[str]:
    """The lines the scorer prints while matching in verbose mode: for a matched insertion
    or deletion next to the opposite operation, `!` when that neighbour matches a gold edit
    too, else `*` (insertion) or `&` (deletion)."""
    notes = []
    resume = 0
    for edit in reversed(system):
        for index in range(resume, len(gold)):
            g = gold[index]
            if (edit.start, edit.end, edit.original) != (g.start, g.end, g.original) \
                    or edit.correction not in g.corrections:
                continue
            resume = index + 1
            note = _note(edit, system, gold)
            if note:
                notes.append(f"{note} {reprs.system_edit(edit)}")
    return notes


def _note(edit: SystemEdit, system: Sequence[SystemEdit], gold: Sequence[GoldEdit]) -> str:
    after = [shrink(e) for e in system if edit.end == e.start]
    before = [shrink(e) for e in system if edit.start == e.end]
    if edit.start != edit.end:
        after = [e for e in after if e[0] == e[1]]
        before = [e for e in before if e[0] == e[1]]
    else:
        after = [e for e in after if e[0] < e[1] and e[3] == ""]
        before = [e for e in before if e[0] < e[1] and e[3] == ""]
    if not after and not before:
        return ""
    neighbour_matches = any(
        (e[0], e[1], e[2]) == (g.start, g.end, g.original) and e[3] in g.corrections
        for e in after + before for g in gold)
    if edit.start < edit.end and not py2.strip(edit.correction):
        return "!" if neighbour_matches else "&"
    if edit.start == edit.end:
        return "!" if neighbour_matches else "*"
    return ""


def lattice_dump(result: SentenceResult, settings: M2Settings) -> str:
    """A sentence's lattice: every edge in the scorer's order with its span, texts, length,
    and the weight each annotator gives it."""
    from m2lsp.scoring.m2.lattice import SentenceLattice

    source, target = py2.split(result.source), py2.split(result.hypothesis)
    if source == target:
        return "LATTICE       : (hypothesis equals source)\n"
    lattice = SentenceLattice(source, target, settings.max_unchanged_words)
    weights = [lattice.weights(a.gold) for a in result.attempts]
    lines = [f"LATTICE       : {len(lattice.vertices)} vertices, {len(lattice.edges)} edges"]
    for edge in lattice.edges:
        u, v = divmod(edge, lattice.size)
        info = lattice.info[edge]
        original, correction = lattice.texts(edge)
        costs = " ".join(f"{w[edge]!r}" for w in weights)
        lines.append(f"  {divmod(u, lattice.width)} -> {divmod(v, lattice.width)} "
                     f"({info.start}, {info.end}, {original!r}, {correction!r}) "
                     f"dist={info.dist} weights={costs}")
    return "\n".join(lines) + "\n"
