"""`m2lsp explain`'s core: a system's sentences, their edits (ERRANT's, as gec-metrics'
attributors extract them: `errant.annotate` of the whitespace-split source and hypothesis),
the edited sentences each attributor needs, their scores (one run of the metric over all
sentences of the corpus, each distinct sentence once), and each edit's attribution."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from m2lsp.annotation.edit_lists import Edit
from m2lsp.attribution.applying import applied
from m2lsp.attribution.attributors import Bounds, Plan, combine, plan
from m2lsp.attribution.variants import Scoring, Unit, score_units


@dataclass(frozen=True)
class Settings:
    attributor: str = "add"
    seed: int = 12345
    bounds: Bounds = field(default_factory=Bounds)
    max_edits: int | None = None  # sentences with more edits are left out (gec-metrics'
    # max_num_edits)


@dataclass(frozen=True)
class EditShare:
    """One hypothesis edit and its share of the sentence's score change."""

    start: int
    end: int
    original: str
    correction: str
    type: str
    attribution: float


@dataclass(frozen=True)
class SentenceShares:
    """One sentence: dM(H) = M(S, H) - M(S, S) and its edits' shares (`method`: the
    attributor that ran; `skipped`: why none did)."""

    index: int
    source: str
    hypothesis: str
    source_score: float | None
    hypothesis_score: float | None
    method: str | None
    edits: tuple[EditShare, ...]
    skipped: str | None = None

    @property
    def change(self) -> float:
        if self.source_score is None or self.hypothesis_score is None:
            return 0.0
        return self.hypothesis_score - self.source_score


@dataclass(frozen=True)
class Explanation:
    metric: str
    attributor: str
    settings: Settings
    sentences: tuple[SentenceShares, ...]
    signature: str


def explain(scoring: Scoring, sources: Sequence[str], hypotheses: Sequence[str],
            edits: Sequence[Sequence[Edit]], settings: Settings,
            inputs: Sequence[str] = (), joined: Callable[[str], str] | None = None,
            label: str = "errant-en") -> Explanation:
    """Each hypothesis edit's attribution (`edits[i]`: sentence i's ERRANT edits, noop
    left out, UNK kept, as gec-metrics' attributors see them; `inputs`: the texts the
    signature's hash covers; `joined`: what the metric reads of an edited sentence (its
    tokens joined otherwise: Chinese without spaces); `label`: whose edits they are)."""
    rng = random.Random(settings.seed)
    plans = [_plan(e, settings, rng) for e in edits]
    units, where, made = _units(sources, hypotheses, edits, plans)
    read = units if joined is None else [(i, joined(text)) for i, text in units]
    scored = score_units(scoring, read)
    found = [_shares(i, sources[i], hypotheses[i], edits[i], plans[i], where, made,
                     scored.scores) for i in range(len(sources))]
    return Explanation(scoring.metric.name, settings.attributor, settings, tuple(found),
                       _signature(scored.signature, scoring, settings, inputs, label))


def _signature(metric: str, scoring: Scoring, settings: Settings, inputs: Sequence[str],
               label: str = "errant-en") -> str:
    from m2lsp.scoring.signature import Signature, signed

    fields = [("attributor", settings.attributor), ("seed", str(settings.seed)),
              ("samples", str(settings.bounds.samples)),
              ("max-exact", str(settings.bounds.max_exact)),
              ("max-edits", str(settings.max_edits or "none")),
              ("edits", label), ("scorer", "gec-metrics-0.1.2")]
    return signed(Signature(f"Explain({metric or scoring.metric.name})", tuple(fields)),
                  *inputs)


def _plan(edits: Sequence[Edit], settings: Settings, rng: random.Random
          ) -> Plan | str | None:
    """The sentence's plan, or why it has none (None: no edits)."""
    if not edits:
        return None
    if settings.max_edits is not None and len(edits) > settings.max_edits:
        return f"{len(edits)} edits, more than --max-edits {settings.max_edits}"
    return plan(settings.attributor, len(edits), rng, settings.bounds)


Where = dict[Unit, int]
Made = dict[tuple[int, tuple[int, ...]], str]  # (sentence, its edits applied) -> text


def _units(sources: Sequence[str], hypotheses: Sequence[str],
           edits: Sequence[Sequence[Edit]], plans: Sequence[Plan | str | None]
           ) -> tuple[list[Unit], Where, Made]:
    """Every distinct (sentence, edited sentence) to score, where each is, and the text of
    each edit subset (made once: sampled orders share their prefixes' sets)."""
    where: Where = {}
    made: Made = {}
    for i, chosen in enumerate(plans):
        if not isinstance(chosen, Plan):
            continue
        for subset in chosen.subsets:
            key = (i, tuple(sorted(subset)))
            if key not in made:
                made[key] = applied(sources[i], [edits[i][j] for j in key[1]])
            where.setdefault((i, made[key]), len(where))
        for text in (sources[i], hypotheses[i]):
            where.setdefault((i, text), len(where))
    return list(where), where, made


def _shares(index: int, source: str, hypothesis: str, edits: Sequence[Edit],
            chosen: Plan | str | None, where: Where, made: Made, scores: Sequence[float]
            ) -> SentenceShares:
    if not isinstance(chosen, Plan):
        return SentenceShares(index, source, hypothesis, None, None, None, (),
                              skipped=chosen)
    score: Callable[[str], float] = lambda text: scores[where[(index, text)]]  # noqa: E731
    base, whole = score(source), score(hypothesis)
    deltas = [score(made[(index, tuple(sorted(s)))]) - base for s in chosen.subsets]
    values = combine(chosen, deltas, whole - base)
    shares = tuple(EditShare(e.o_start, e.o_end, _original(source, e), e.c_str, e.type, v)
                   for e, v in zip(edits, values, strict=True))
    return SentenceShares(index, source, hypothesis, base, whole, chosen.method, shares)


def _original(source: str, edit: Edit) -> str:
    return " ".join(source.split(" ")[edit.o_start:edit.o_end])


def switched(found: Explanation) -> list[SentenceShares]:
    """The sentences exact Shapley left to sampling (past its bound)."""
    if found.attributor != "shapley":
        return []
    return [s for s in found.sentences if s.method == "shapley-sampling"]


def extracted(sources: Sequence[str], hypotheses: Sequence[str], annotation: Any,
              jobs: int = 1) -> list[list[Edit]]:
    """Each pair's ERRANT edits as the attributors take them (noop out, UNK in)."""
    from m2lsp.annotation.edit_lists import edit_lists

    return edit_lists(sources, hypotheses, annotation, jobs, left_out=frozenset({"noop"}))
