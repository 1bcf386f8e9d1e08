"""What `m2lsp explain` prints: the edits by error type (how much each type's edits earned
or cost in all), the edits that help and hurt most, every sentence's edits on request; and
the same as JSON."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from m2lsp.attribution.run import EditShare, Explanation, SentenceShares

TOP = 10


@dataclass(frozen=True)
class TypeTotal:
    type: str
    edits: int
    total: float
    helped: int  # edits with a positive share
    hurt: int  # edits with a negative share

    @property
    def mean(self) -> float:
        return self.total / self.edits if self.edits else 0.0


def by_type(found: Explanation) -> list[TypeTotal]:
    """Per error type, most earned first (ties: by name)."""
    groups: dict[str, list[float]] = {}
    for _, edit in placed(found):
        groups.setdefault(edit.type, []).append(edit.attribution)
    totals = [TypeTotal(t, len(v), sum(v), sum(x > 0 for x in v), sum(x < 0 for x in v))
              for t, v in groups.items()]
    return sorted(totals, key=lambda t: (-t.total, t.type))


def placed(found: Explanation) -> Iterable[tuple[SentenceShares, EditShare]]:
    for sentence in found.sentences:
        for edit in sentence.edits:
            yield sentence, edit


def extremes(found: Explanation, top: int = TOP
             ) -> tuple[list[tuple[SentenceShares, EditShare]], ...]:
    """The `top` edits that help most (largest positive shares) and hurt most."""
    every = list(placed(found))
    helping = sorted((p for p in every if p[1].attribution > 0),
                     key=lambda p: (-p[1].attribution, p[0].index, p[1].start))
    hurting = sorted((p for p in every if p[1].attribution < 0),
                     key=lambda p: (p[1].attribution, p[0].index, p[1].start))
    return helping[:top], hurting[:top]


def text(found: Explanation, system: str, sentences: bool = False, top: int = TOP) -> str:
    counted = [s for s in found.sentences if s.edits]
    skipped = [s for s in found.sentences if s.skipped]
    lines = [f"{system}: {found.metric}, attributor {found.attributor}",
             f"sentences {len(found.sentences)}, with edits {len(counted)}, edits "
             f"{sum(len(s.edits) for s in counted)}, left out {len(skipped)}", "",
             "By error type (each edit's share of its sentence's score change, summed):",
             f"{'type':<14}{'edits':>7}{'total':>10}{'mean':>10}{'helped':>8}{'hurt':>6}"]
    lines += [f"{t.type:<14}{t.edits:>7}{t.total:>+10.4f}{t.mean:>+10.4f}{t.helped:>8}"
              f"{t.hurt:>6}" for t in by_type(found)]
    helping, hurting = extremes(found, top)
    for title, chosen in (("Most helpful edits:", helping), ("Most harmful edits:", hurting)):
        lines += ["", title] + ([_edit_line(s, e) for s, e in chosen] or ["  (none)"])
    if sentences:
        lines += ["", "Sentences:"] + [line for s in found.sentences
                                       for line in _sentence_lines(s)]
    return "\n".join(lines) + f"\n\n{found.signature}\n"


def _edit_line(sentence: SentenceShares, edit: EditShare) -> str:
    return (f"  {edit.attribution:+.4f}  sentence {sentence.index + 1}  "
            f"[{edit.start}, {edit.end}) {edit.original!r} -> {edit.correction!r}  "
            f"{edit.type}")


def _sentence_lines(sentence: SentenceShares) -> list[str]:
    head = f"{sentence.index + 1}\t"
    if sentence.skipped:
        return [head + f"left out: {sentence.skipped}"]
    if not sentence.edits:
        return [head + "no edits"]
    lines = [head + f"change {sentence.change:+.4f} (source {sentence.source_score:.4f}, "
             f"hypothesis {sentence.hypothesis_score:.4f}), {sentence.method}"]
    return lines + [f"\t{e.attribution:+.4f}  [{e.start}, {e.end}) {e.original!r} -> "
                    f"{e.correction!r}  {e.type}" for e in sentence.edits]


def data(found: Explanation, system: str, top: int = TOP) -> dict[str, Any]:
    """The JSON: every sentence with its edits (sentence numbers count from 1), the types,
    the extremes."""
    settings = found.settings
    return {"metric": found.metric, "attributor": found.attributor,
            "signature": found.signature, "system": system, "seed": settings.seed,
            "samples": settings.bounds.samples, "max_exact_edits": settings.bounds.max_exact,
            "max_edits": settings.max_edits, **summary(found, top),
            "sentences": [_sentence_data(s) for s in found.sentences]}


def summary(found: Explanation, top: int = TOP) -> dict[str, Any]:
    """The types and the extremes (what the report shows of each system)."""
    helping, hurting = extremes(found, top)
    return {"types": {t.type: {"edits": t.edits, "total": t.total, "mean": t.mean,
                               "helped": t.helped, "hurt": t.hurt} for t in by_type(found)},
            "helpful": [_edit_data(s, e) for s, e in helping],
            "harmful": [_edit_data(s, e) for s, e in hurting]}


def _edit_data(sentence: SentenceShares | None, edit: EditShare) -> dict[str, Any]:
    placed_in = {} if sentence is None else {"sentence": sentence.index + 1}
    return {**placed_in, "start": edit.start, "end": edit.end, "original": edit.original,
            "correction": edit.correction, "type": edit.type,
            "attribution": edit.attribution}


def _sentence_data(sentence: SentenceShares) -> dict[str, Any]:
    return {"sentence": sentence.index + 1, "source": sentence.source,
            "hypothesis": sentence.hypothesis, "source_score": sentence.source_score,
            "hypothesis_score": sentence.hypothesis_score, "change": sentence.change,
            "method": sentence.method, "left_out": sentence.skipped,
            "edits": [_edit_data(None, e) for e in sentence.edits]}
