"""Beyond the NUS scorer: scores per error type and per sentence, from the same per-sentence
results (the corpus numbers are not affected).

Per type: a gold edit has the type its A line gives; a true positive takes the type of the
gold edit it matched; a false positive takes the type of the first gold edit of the chosen
annotator whose span overlaps or touches it, else `(none)`; a false negative is a gold edit
no system edit matched.  Per-type P, R and F use those counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from m2lsp.scoring.m2.lattice import GoldEdit, SystemEdit, match_pairs
from m2lsp.scoring.m2.maxmatch import Counts, SentenceResult, p_r_f

UNTYPED = "(none)"


@dataclass(frozen=True)
class TypeCounts:
    type: str
    true_positives: int = 0
    false_positives: int = 0
    false_negatives: int = 0

    def plus(self, tp: int = 0, fp: int = 0, fn: int = 0) -> TypeCounts:
        return TypeCounts(self.type, self.true_positives + tp, self.false_positives + fp,
                          self.false_negatives + fn)

    def scores(self, beta: float) -> tuple[float, float, float]:
        tp = self.true_positives
        return p_r_f(Counts(tp, tp + self.false_positives, tp + self.false_negatives), beta)


def per_type(results: Sequence[SentenceResult]) -> list[TypeCounts]:
    """Counts per gold error type over the chosen annotators, by type name."""
    table: dict[str, TypeCounts] = {}

    def add(name: str, **counts: int) -> None:
        table[name] = table.get(name, TypeCounts(name)).plus(**counts)

    for result in results:
        best = result.best
        types = best.types or tuple(UNTYPED for _ in best.gold)
        pairs = match_pairs(list(best.system), best.gold)
        matched = {index for _, index in pairs}
        for _, index in pairs:
            add(types[index], tp=1)
        for index, name in enumerate(types):
            if index not in matched:
                add(name, fn=1)
        used = {id(edit) for edit, _ in pairs}
        for edit in best.system:
            if id(edit) not in used:
                add(_type_near(edit, best.gold, types), fp=1)
    return [table[name] for name in sorted(table)]


def _type_near(edit: SystemEdit, gold: Sequence[GoldEdit], types: Sequence[str]) -> str:
    for g, name in zip(gold, types, strict=True):
        if g.start <= edit.end and edit.start <= g.end:
            return name
    return UNTYPED


def per_type_text(rows: Sequence[TypeCounts], beta: float) -> str:
    """A table after the summary: type, TP, FP, FN, P, R, F."""
    lines = [f"{'Type':<16}{'TP':>7}{'FP':>7}{'FN':>7}{'P':>9}{'R':>9}{f'F_{beta:.1f}':>9}"]
    for row in rows:
        p, r, f = row.scores(beta)
        lines.append(f"{row.type:<16}{row.true_positives:>7}{row.false_positives:>7}"
                     f"{row.false_negatives:>7}{p:>9.4f}{r:>9.4f}{f:>9.4f}")
    return "\n".join(lines) + "\n"


def sentence_text(results: Sequence[SentenceResult], beta: float) -> str:
    """One line per sentence: its number, gold line, chosen annotator, counts, P, R, F."""
    lines = [f"{'sentence':>8} {'line':>6} {'annotator':>9} {'correct':>7} {'proposed':>8} "
             f"{'gold':>5} {'P':>7} {'R':>7} {f'F_{beta:.1f}':>7}"]
    for result in results:
        c, e, g = result.best.counts
        p, r, f = p_r_f(Counts(c, e, g), beta)
        lines.append(f"{result.index + 1:>8} {result.line + 1:>6} {result.best.annotator:>9} "
                     f"{c:>7} {e:>8} {g:>5} {p:>7.4f} {r:>7.4f} {f:>7.4f}")
    return "\n".join(lines) + "\n"
