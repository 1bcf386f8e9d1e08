"""errant_compare 3.0.2's printed output, byte for byte: the summary table, the category
table (`-cat 1|2|3`) and the verbose per-sentence trace (`-v`); and ChERRANT's
(compare_m2_for_evaluation.py), which differs only in its trace."""

from __future__ import annotations

from collections.abc import Callable

from m2lsp.scoring.errant.compare import (
    Categories,
    CoderEdits,
    Comparison,
    ErrantResult,
    ErrantSentence,
    categories_at,
    f_score,
)

TITLES = {"dt": " Token-Based Detection ", "ds": " Span-Based Detection ",
          "cse": " Span-Based Correction + Classification ", "cs": " Span-Based Correction "}


def report(result: ErrantResult, verbose: bool = False, category_level: int | None = None
           ) -> str:
    """The whole output of errant_compare for these options."""
    lines: list[str] = []
    if verbose:
        trace = cherrant_trace if result.settings.cherrant else sentence_trace
        for sentence in result.sentences:
            lines.extend(trace(sentence, result.settings.beta))
    lines.extend(summary_lines(result, category_level))
    return "\n".join(lines) + "\n"


def summary_lines(result: ErrantResult, category_level: int | None = None) -> list[str]:
    """The category table (if asked for) and the overall scores."""
    settings = result.settings
    beta = str(settings.beta)
    title = TITLES[settings.mode]
    lines = []
    if category_level:
        lines += ["", f"{title:=^66}", " ".join([
            "Category".ljust(14), "TP".ljust(8), "FP".ljust(8), "FN".ljust(8), "P".ljust(8),
            "R".ljust(8), "F" + beta])]
        for name, (tp, fp, fn) in sorted(categories_at(result.categories,
                                                       category_level).items()):
            p, r, f = f_score(tp, fp, fn, settings.beta)
            lines.append(" ".join([name.ljust(14), str(tp).ljust(8), str(fp).ljust(8),
                                   str(fn).ljust(8), str(p).ljust(8), str(r).ljust(8),
                                   str(f)]))
    scores = f_score(result.tp, result.fp, result.fn, settings.beta)
    lines += ["", f"{title:=^46}", "\t".join(["TP", "FP", "FN", "Prec", "Rec", "F" + beta]),
              "\t".join(map(str, [result.tp, result.fp, result.fn, *scores])),
              "=" * 46, ""]
    return lines


def sentence_trace(sentence: ErrantSentence, beta: float) -> list[str]:
    """errant_compare -v for one sentence: every annotator pair, then the chosen one."""
    rule = "-" * 40
    index = sentence.index
    lines = [rule, f"Original sentence {index}: {sentence.hyp_block.original}"]
    before = sentence.before
    for c in sentence.comparisons:
        lines += [rule, *_pair(c, index, before, beta, _shown)]
    best = sentence.best
    lines += [rule, f"^^ HYP {best.hyp.coder}, REF {best.ref.coder} chosen for sentence "
              f"{index}", "Local results:"]
    lines += table([["Category", "TP", "FP", "FN"]] + [[name, *counts] for name, counts in
                                                       best.categories.items()])
    return lines


def cherrant_trace(sentence: ErrantSentence, beta: float) -> list[str]:
    """compare_m2_for_evaluation.py -v for one sentence: each annotator pair under the
    hypothesis's sentence line, the edits as bare keys, then the chosen pair; nothing for a
    sentence it leaves out."""
    if not sentence.scored:
        return []
    rule = "-" * 40
    index = sentence.index
    lines = []
    before = sentence.before
    for c in sentence.comparisons:
        lines += [rule, f"SENTENCE {index}{sentence.hyp_block.sentence[1:]}", rule,
                  *_pair(c, index, before, beta, _keys)]
    best = sentence.best
    return [*lines, rule,
            f"^^ HYP {best.hyp.coder}, REF {best.ref.coder} chosen for sentence {index}"]


def _pair(c: Comparison, index: int, before: tuple[int, int, int], beta: float,
          edits: Callable[[CoderEdits], list[tuple]]) -> list[str]:
    """One annotator pair's lines of a -v trace (the edits as `edits` shows them)."""
    return [f"SENTENCE {index} - HYP {c.hyp.coder} - REF {c.ref.coder}",
            f"HYPOTHESIS EDITS : {edits(c.hyp)!r}",
            f"REFERENCE EDITS  : {edits(c.ref)!r}",
            f"Local TP/FP/FN   : {c.tp} {c.fp} {c.fn}",
            "Local P/R/F{}  : {} {} {}".format(beta, *f_score(c.tp, c.fp, c.fn, beta)),
            _global(c, before),
            "Global P/R/F{}  : {} {} {}".format(beta, *f_score(
                c.tp + before[0], c.fp + before[1], c.fn + before[2], beta))]


def _keys(coder: CoderEdits) -> list[tuple]:
    """The sorted keys; none if the first is a noop's (-1)."""
    keys = sorted(coder.types)
    return [] if not keys or keys[0][0] == -1 else keys


def _global(c: Comparison, before: tuple[int, int, int]) -> str:
    return f"Global TP/FP/FN  : {c.tp + before[0]} {c.fp + before[1]} {c.fn + before[2]}"


def _shown(coder: CoderEdits) -> list[tuple]:
    """The edits as -v lists them: sorted keys with their first type; none if the first
    sorted key is a noop's (-1)."""
    shown = [(*key, coder.types[key][0]) for key in sorted(coder.types)]
    if not shown or shown[0][0] == -1:
        return []
    return shown


def table(rows: list[list]) -> list[str]:
    """Right-aligned columns, each 3 wider than its widest cell."""
    widths = [max(len(str(row[i])) for row in rows) + 3 for i in range(len(rows[0]))]
    return ["".join(str(cell).rjust(width) for cell, width in zip(row, widths, strict=True))
            for row in rows]


def categories_json(categories: Categories, beta: float) -> list[dict]:
    """Per-category counts and scores, sorted by name."""
    out = []
    for name, (tp, fp, fn) in sorted(categories.items()):
        p, r, f = f_score(tp, fp, fn, beta)
        out.append({"type": name, "true_positives": tp, "false_positives": fp,
                    "false_negatives": fn, "precision": p, "recall": r, "f": f})
    return out
