"""What a report shows, computed once: every system scored through the metric registry, its
headline numbers (the metric's own, as `m2lsp score --format json` prints them) with 95%
paired-bootstrap intervals, every pair tested (paired bootstrap and approximate
randomisation, as `m2lsp compare`, Holm-corrected across the pairs), cluster ranks, counts
per error type, and each sentence as the editor reads it.  `report_json` is the data every
rendering is drawn from."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from m2lsp.errors import UsageError
from m2lsp.parsing.source import Input
from m2lsp.reporting.significance import ALPHA, cluster_ranks, holm, rank_range
from m2lsp.scoring.metric import Metric, Request, json_key

MAX_SENTENCES = 20_000  # sentences the page carries (the JSON has them all)


@dataclass(frozen=True)
class SystemResult:
    name: str
    path: str
    scores: dict[str, float]  # the metric's headline numbers, by its JSON keys
    intervals: dict[str, tuple[float, float]]  # 95% bootstrap intervals ({}: none)
    signature: str
    rank: int | None = None  # cluster rank; without tests, the place by the main number
    rank_range: tuple[int, int] | None = None
    proposed: int | None = None  # edits the system made (None: the metric does not say)


@dataclass(frozen=True)
class PairTest:
    a: int
    b: int
    difference: float  # main(A) - main(B)
    interval: tuple[float, float]
    p_bootstrap: float
    p_randomised: float
    p_bootstrap_holm: float
    p_randomised_holm: float

    @property
    def significant(self) -> bool:
        """Both Holm-corrected p-values below 0.05."""
        return max(self.p_bootstrap_holm, self.p_randomised_holm) < ALPHA


@dataclass(frozen=True)
class TypeRow:
    type: str
    counts: tuple[tuple[int, int, int, float] | None, ...]  # per system: TP, FP, FN, F


@dataclass(frozen=True)
class Report:
    metric: str
    main: str  # the headline number systems are ranked and tested on (a key of scores)
    names: tuple[str, ...]  # every headline number's key, in the metric's order
    labels: tuple[str, ...]  # and how the metric names it (Precision, F_0.5 ...)
    beta: float | None
    systems: tuple[SystemResult, ...]
    pairs: tuple[PairTest, ...]
    types: tuple[TypeRow, ...]
    sentences: tuple[dict[str, Any], ...]
    sentence_count: int
    samples: int
    seed: int
    gold: str
    per_sentence: bool = True  # the metric has per-sentence statistics: intervals, tests


def build_report(metric: Metric, request: Request, systems: Sequence[Input],
                 names: Sequence[str], samples: int = 1000, seed: int = 12345,
                 stage: Callable[[str], None] | None = None) -> Report:
    """Score `systems` against `request.gold` with `metric` and test every pair; `stage`
    hears what is being done (for a progress line)."""
    if len(names) != len(systems):
        raise UsageError(f"--names gives {len(names)} names for {len(systems)} systems")
    if len(set(names)) != len(names):
        raise UsageError("--names: two systems have the same name")
    say = stage or (lambda _: None)
    say(f"scoring {len(systems)} system{'s' if len(systems) != 1 else ''}")
    scores = list(metric.run_many(request, list(systems)))
    stats = [s.sentence_stats() for s in scores]
    data = [s.json(request) for s in scores]
    first = stats[0]
    if first is not None and all(st is not None for st in stats):
        keys = tuple(json_key(n) for n in first.names)
        labels, main = tuple(first.names), json_key(first.names[first.main])
    else:  # the metric's headline (its own choice, else its JSON's floats), the first main
        data = [{**d, **_headline_of(s, d)} for s, d in zip(scores, data, strict=True)]
        keys = labels = tuple(_headline_of(scores[0], data[0]))
        main = keys[0] if keys else ""
    if all(st is not None for st in stats) and len(systems) > 1:
        count = len(systems) * (len(systems) - 1) // 2
        say(f"testing {count} pair{'s' if count != 1 else ''}, {samples} samples")
    results, pairs = _tested(scores, stats, data, names, systems, keys, main, samples, seed)
    results = [replace(r, proposed=_proposed(d)) for r, d in zip(results, data, strict=True)]
    if not pairs:
        results = _placed(results, main)
    say("reading the sentences")
    reviews = [_reviews(s) for s in scores]
    return Report(metric.name, main, keys, labels, _beta(data[0]), tuple(results),
                  tuple(pairs), _types(scores), _sentences(reviews, request.gold),
                  len(reviews[0]) if reviews[0] else 0, samples, seed, str(request.gold),
                  all(st is not None for st in stats))


def _proposed(data: dict[str, Any]) -> int | None:
    """How many edits a system made, from its JSON's counts (m2: proposed; errant: TP+FP)."""
    counts = data.get("counts")
    if not isinstance(counts, dict):
        return None
    if "proposed" in counts:
        return int(counts["proposed"])
    if "true_positives" in counts and "false_positives" in counts:
        return int(counts["true_positives"]) + int(counts["false_positives"])
    return None


def _placed(results: list[SystemResult], main: str) -> list[SystemResult]:
    """Without tests, each system's place by its main number (ties share one)."""
    from m2lsp.reporting.tables import LOWER_IS_BETTER

    sign = 1 if main in LOWER_IS_BETTER else -1
    values = [sign * r.scores.get(main, float("inf")) for r in results]
    return [replace(r, rank=1 + sum(1 for v in values if v < values[i]))
            for i, r in enumerate(results)]


def _headline_of(score: Any, data: dict[str, Any]) -> dict[str, float]:
    """A score's headline numbers without per-sentence statistics (`Score.headline`)."""
    return dict(score.headline(data))


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _beta(data: dict[str, Any]) -> float | None:
    beta = data.get("beta")
    return float(beta) if isinstance(beta, int | float) else None


def _tested(scores: list[Any], stats: list[Any], data: list[dict[str, Any]],
            names: Sequence[str], systems: Sequence[Input], keys: tuple[str, ...], main: str,
            samples: int, seed: int) -> tuple[list[SystemResult], list[PairTest]]:
    from m2lsp.scoring.bootstrap import Systems

    results = [SystemResult(name, str(path), _headline(d, st, keys), {}, s.signature)
               for name, path, d, s, st in zip(names, systems, data, scores, stats,
                                               strict=True)]
    if any(st is None for st in stats) or not results:
        return results, []
    compared = Systems([st.rows for st in stats], stats[0].aggregate, stats[0].main, samples,
                       seed)
    resampled = compared.resampled()
    for i, ci in enumerate(compared.intervals(resampled)):
        results[i] = replace(results[i], intervals={
            k: (iv.low, iv.high) for k, iv in zip(keys, ci.intervals, strict=True)})
    pairs = _pairs(compared, resampled, len(results))
    return _ranked(results, pairs, main), pairs


def _headline(data: dict[str, Any], stats: Any, keys: tuple[str, ...]) -> dict[str, float]:
    """The numbers as the metric's JSON gives them; one it names otherwise (cgec's `bleu`
    for BLEU_c) from its own aggregate of the sentence statistics, which made it."""
    totals = None
    out = {}
    for k, key in enumerate(keys):
        if _is_number(data.get(key)):
            out[key] = data[key]
        elif stats is not None:
            if totals is None:
                from m2lsp.scoring.bootstrap import Columns

                totals = stats.aggregate(Columns(stats.rows).total())
            out[key] = totals[k]
    return out


def _pairs(compared: Any, resampled: Any, count: int) -> list[PairTest]:
    found = [(a, b, compared.compare(a, b, resampled))
             for a, b in combinations(range(count), 2)]
    boot = holm([c.p_value for _, _, c in found])
    shuffled = holm([c.p_randomised for _, _, c in found])
    return [PairTest(a, b, c.a - c.b, (c.difference.low, c.difference.high), c.p_value,
                     c.p_randomised, boot[k], shuffled[k])
            for k, (a, b, c) in enumerate(found)]


def _ranked(results: list[SystemResult], pairs: list[PairTest], main: str
            ) -> list[SystemResult]:
    beats = {(p.a, p.b) if p.difference > 0 else (p.b, p.a) for p in pairs if p.significant}

    def better(i: int, j: int) -> bool:
        return (i, j) in beats

    ranks = cluster_ranks([r.scores.get(main, 0.0) for r in results], better)
    return [replace(r, rank=ranks[i], rank_range=rank_range(i, len(results), better))
            for i, r in enumerate(results)]


def _types(scores: list[Any]) -> tuple[TypeRow, ...]:
    tables = [dict((t[0], t[1:]) for t in s.type_counts()) for s in scores]
    names = sorted({name for table in tables for name in table})
    return tuple(TypeRow(name, tuple(t.get(name) for t in tables)) for name in names)


def _reviews(score: Any) -> list[Any]:
    return list(score.reviews())


def _sentences(reviews: list[list[Any]], gold: Input | None) -> tuple[dict[str, Any], ...]:
    """Each sentence: its source, the gold corrections, each system's output, counts, F
    and edits in words; `spread` is how far the systems' F-scores lie apart."""
    if not reviews or not reviews[0]:
        return ()
    corrections = _gold_corrections(gold)
    out = []
    for row in zip(*reviews, strict=True):
        first = row[0]
        fs = [r.f for r in row]
        out.append({
            "index": first.index + 1,  # 1-based: the page's #s<index> anchors
            "line": first.line, "source": first.source,
            "gold": corrections.get(first.line, []),
            "spread": round(statistics.pstdev(fs), 4) if len(fs) > 1 else 0.0,
            # null text: the system left the source as it is (keeps the page light)
            "systems": [{"text": None if r.hypothesis == first.source else r.hypothesis,
                         "annotator": r.annotator, "f": round(r.f, 4), "tp": r.correct,
                         "fp": r.proposed - r.correct, "fn": r.gold - r.correct,
                         "edits": [[m.kind, m.message, m.type] for m in r.marks]}
                        for r in row]})
    return tuple(out)


def _gold_corrections(gold: Input | None) -> dict[int, list[list[str]]]:
    """Each block's S line -> [annotator, corrected sentence] of every annotator."""
    if gold is None:
        return {}
    from m2lsp.formats.m2.annotators import annotators
    from m2lsp.model import corrected_sentence
    from m2lsp.parsing.m2 import parse_m2
    from m2lsp.parsing.source import read_source

    try:
        document = parse_m2(read_source(gold, "gold"))
    except Exception:  # not M2 (CGED truth): no corrections to show
        return {}
    everyone = annotators(document)
    out = {}
    for start, block in zip(document.starts, document.blocks, strict=True):
        if block.sentence is not None:
            present = [a for a in everyone if a in block.by_annotator] or everyone[:1]
            out[start] = [[a, corrected_sentence(block, a) or ""] for a in present]
    return out


def report_json(report: Report, limit: int | None = None) -> dict[str, Any]:
    """The data every rendering is drawn from (`--format json`; the page embeds it, with at
    most `limit` sentences: those where the systems differ most).  An edit is [kind,
    message (an index into `messages`), error type]."""
    sentences = list(report.sentences)
    if limit is not None and len(sentences) > limit:
        sentences = sorted(sentences, key=lambda s: -s["spread"])[:limit]
        sentences.sort(key=lambda s: s["line"])
    messages, sentences = _interned(sentences)
    return {"warnings": _warnings(report), **_body(report, sentences, messages)}


def _warnings(report: Report) -> list[str]:
    """What the reader must know to read the tests right."""
    count = len(report.pairs)
    if count and count / (report.samples + 1) >= ALPHA:
        least = int(count / ALPHA)
        return [f"with {report.samples} samples the smallest randomisation p is "
                f"1/{report.samples + 1}, which Holm's correction over {count} "
                f"pair{'s' if count != 1 else ''} lifts to {count / (report.samples + 1):.3f}"
                f": no pair can be significant at {ALPHA}; use --samples {least} or more"]
    return []


def _body(report: Report, sentences: list[dict[str, Any]], messages: list[str]
          ) -> dict[str, Any]:
    return {
        "metric": report.metric, "main": report.main, "names": list(report.names),
        "labels": list(report.labels), "beta": report.beta, "gold": report.gold,
        "samples": report.samples, "seed": report.seed, "alpha": ALPHA,
        "per_sentence": report.per_sentence,
        "systems": [{"name": s.name, "path": s.path, "scores": s.scores,
                     "intervals": {k: list(v) for k, v in s.intervals.items()},
                     "signature": s.signature, "rank": s.rank, "proposed": s.proposed,
                     "rank_range": list(s.rank_range) if s.rank_range else None}
                    for s in report.systems],
        "pairs": [{"a": p.a, "b": p.b, "difference": p.difference,
                   "interval": list(p.interval), "p_bootstrap": p.p_bootstrap,
                   "p_randomised": p.p_randomised, "p_bootstrap_holm": p.p_bootstrap_holm,
                   "p_randomised_holm": p.p_randomised_holm, "significant": p.significant}
                  for p in report.pairs],
        "macro": _macro(report),
        "types": [{"type": t.type, "systems": [None if c is None else
                                               {"tp": c[0], "fp": c[1], "fn": c[2], "f": c[3]}
                                               for c in t.counts]}
                  for t in report.types],
        "sentence_count": report.sentence_count, "sentences": sentences,
        "messages": messages,
    }


def _macro(report: Report) -> list[dict[str, Any] | None] | None:
    """Each system's macro-averaged P, R, F over the error types (scoring.macro); None
    when the metric does not count by type or has no F-beta."""
    if not report.types or report.beta is None:
        return None
    from m2lsp.scoring.macro import macro_average

    out = []
    for k in range(len(report.systems)):
        rows = [(t.type, c[0], c[1], c[2]) for t in report.types
                if (c := t.counts[k]) is not None]
        found = macro_average(rows, report.beta)
        out.append(None if found is None else found.data())
    return out


def _interned(sentences: list[dict[str, Any]]) -> tuple[list[str], list[dict[str, Any]]]:
    """Each edit's message as an index into one list: a missed edit reads the same for
    every system that misses it (a third of the page's weight on CoNLL-2014)."""
    index: dict[str, int] = {}
    out = []
    for sentence in sentences:
        systems = [{**system, "edits": [[kind, index.setdefault(message, len(index)), kind_of]
                                        for kind, message, kind_of in system["edits"]]}
                   for system in sentence["systems"]]
        out.append({**sentence, "systems": systems})
    return list(index), out
