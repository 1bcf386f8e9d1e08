"""`green -v` and `green -v -l`: each system's counts per n, split into the seven regions of
GREEN's Venn diagram (kept, deleted and inserted as the reference does; over-deleted and
over-inserted; under-deleted and under-inserted), with P, R and F per n and over 1..n, as
the authors' table prints them (PrettyTable's default style), or one line of the last
cumulative P, R, F per system and beta.

Per n, with A = |S & R|, B = |S & C|, X = |R & C| and T = |S & R & C| (multisets): true
keep is T, true insert X - T, over-delete A - T, under-delete B - T; the true delete, over-
insert and under-insert are what is left of TP, FP and FN (`ngrams.counts`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from m2lsp.scoring.green.ngrams import (
    GreenSettings,
    best_reference,
    counts,
    f_score,
    occurrences,
    precision_recall,
)

Regions = tuple[int, int, int, int, int, int, int]  # tk td ti od oi ud ui


@dataclass(frozen=True)
class VerboseTable:
    """One system's regions per n, summed over its sentences' chosen references, for one
    beta."""

    system: str
    settings: GreenSettings
    regions: tuple[Regions, ...]


def sentence_regions(source: str, reference: str, corrected: str, settings: GreenSettings
                     ) -> tuple[Regions, ...]:
    """The seven regions for each n of one sentence against one reference."""
    largest, unit, variant = settings.n, settings.unit, settings.variant
    out = []
    for (s, size_s), (r, size_r), (c, size_c) in zip(
            occurrences(source, largest, unit, variant),
            occurrences(reference, largest, unit, variant),
            occurrences(corrected, largest, unit, variant), strict=True):
        sr = s & r
        a, b, x, t = len(sr), len(s & c), len(r & c), len(sr & c)
        tp, fp, fn = x + size_s - a - b + t, a + size_c - b - x, b + size_r - a - x
        tk, ti, od, ud = t, x - t, a - t, b - t
        out.append((tk, tp - tk - ti, ti, od, fp - od, ud, fn - ud))
    return tuple(out)


def table(system: str, sources: Sequence[str], references: Sequence[Sequence[str]],
          corrected: Sequence[str], settings: GreenSettings) -> VerboseTable:
    """The regions of `corrected` (each sentence against the reference GREEN chooses)."""
    total = [[0] * 7 for _ in range(settings.n)]
    for source, refs, hypothesis in zip(sources, references, corrected, strict=True):
        candidates = [counts(source, r, hypothesis, settings) for r in refs]
        chosen = refs[best_reference(candidates, settings)]
        for n, regions in enumerate(sentence_regions(source, chosen, hypothesis, settings)):
            total[n] = [a + b for a, b in zip(total[n], regions, strict=True)]
    return VerboseTable(system, settings, tuple(tuple(t) for t in total))  # type: ignore[misc]


def round_half_up(value: float, digits: int) -> str:
    quantum = Decimal("0." + "0" * digits) if digits else Decimal("1")
    return str(Decimal(str(value)).quantize(quantum, rounding=ROUND_HALF_UP))


def rows(found: VerboseTable, digits: int) -> list[list[str]]:
    """The table's rows: n, the regions, TP FP FN, P R F of n, P R F over 1..n."""
    out, log_p, log_r = [], 0.0, 0.0
    variant = found.settings.variant
    for n, (tk, td, ti, od, oi, ud, ui) in enumerate(found.regions, 1):
        tp, fp, fn = tk + td + ti, od + oi, ud + ui
        p, r = precision_recall(tp, fp, fn, variant)
        log_p += math.log(p) if p > 0 else -math.inf
        log_r += math.log(r) if r > 0 else -math.inf
        cum_p, cum_r = math.exp(log_p / n), math.exp(log_r / n)
        numbers = (p, r, f_score(p, r, found.settings), cum_p, cum_r,
                   f_score(cum_p, cum_r, found.settings))
        out.append([str(x) for x in (n, tk, td, ti, od, oi, ud, ui, tp, fp, fn)]
                   + [round_half_up(100 * x, digits) for x in numbers])
    return out


def render(header: Sequence[str], body: Sequence[Sequence[str]]) -> str:
    """A table in PrettyTable's default style: every cell centred, one space each side."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *body,
                                                                        strict=True)]
    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(cells: Sequence[str]) -> str:
        return "|" + "|".join(f" {c.center(w)} " for c, w in zip(cells, widths,
                                                                  strict=True)) + "|"
    return "\n".join([rule, line(header), rule, *map(line, body), rule])


def text(tables: Sequence[VerboseTable], digits: int, one_line: bool) -> str:
    """What `green -v` (or `-v -l`) prints."""
    out = []
    for found in tables:
        settings = found.settings
        alpha = round_half_up(settings.alpha, digits)
        beta = round_half_up(settings.beta, digits)
        body = rows(found, digits)
        if one_line:
            out.append(f"{alpha}\t{beta}\t" + "\t".join(body[-1][-3:]))
            continue
        header = ["", "tk", "td", "ti", "od", "oi", "ud", "ui", "TP", "FP", "FN", "P", "R",
                  f"F{settings.beta}", "cumP", "cumR", "cumF"]
        out.append(f"{found.system}\talpha={alpha}\tbeta={beta}")
        out.append(render(header, body))
    return "\n".join(out) + "\n"


def sentence_text(sources: Sequence[str], references: Sequence[Sequence[str]],
                  outputs: Sequence[Sequence[str]], settings: Sequence[GreenSettings],
                  digits: int) -> str:
    """What `sgreen -v` prints: for each sentence, each system (`outputs`) and each of
    `settings` (a beta each), every reference's table under the sentence, the system's
    and the reference's line, the chosen reference marked `*`."""
    out = []
    for d, (source, refs) in enumerate(zip(sources, references, strict=True)):
        for c, output in enumerate(outputs):
            for setting in settings:
                candidates = [counts(source, r, output[d], setting) for r in refs]
                best = best_reference(candidates, setting)
                for r, reference in enumerate(refs):
                    found = VerboseTable("", setting, sentence_regions(
                        source, reference, output[d], setting))
                    header = ["", "tk", "td", "ti", "od", "oi", "ud", "ui", "TP", "FP", "FN",
                              "P", "R", f"F{setting.beta}", "cumP", "cumR", "cumF"]
                    out += [f"S-{d + 1}   \t{source}", f"C-{d + 1}-{c + 1} \t{output[d]}",
                            f"R-{d + 1}-{r + 1}{'*' if r == best else ' '}\t{reference}",
                            render(header, rows(found, digits))]
    return "\n".join(out) + "\n" if out else ""
