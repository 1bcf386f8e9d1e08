"""CGEC metrics of Lin et al., *A New Evaluation Method: Evaluation Data and Metrics for
Chinese Grammar Error Correction*: sentence accuracy, char-level BLEU and char-level meaning
preservation.  Every sentence is compared as characters with all whitespace removed, so no
word segmentation enters any number (the paper's point).

- **Acc_sen**: the share of hypotheses equal to one of their references.
- **BLEU_c** (corpus level, as Papineni et al. and sacrebleu compute it): n = 1..4 with
  uniform weights; a hypothesis n-gram counts up to its largest count in any one reference
  (clipping); the brevity penalty compares the total hypothesis length c with the total of
  each sentence's *closest* reference length r (a tie goes to the shorter reference):
  exp(1 - r/c) when c <= r, else 1.  Choices the paper leaves open: **no smoothing** (a
  precision of 0 makes BLEU 0) -- equal to sacrebleu's `corpus_bleu` on space-separated
  characters with `tokenize="none", smooth_method="none"` (divided by 100).
- **MP** (meaning preservation against the source, reference-less): per sentence
  P·R / (t·P + (1−t)·R) with t = 0.85, P = m/|C|, R = m/|O|, where m, the "matched
  characters", is the size of the multiset intersection of the two strings' characters (an
  exact-match METEOR alignment, as in Asano et al. whose t it borrows); 0 when m = 0, 1 for
  two empty strings.  MP is the mean over sentences.
- **MP_average**: the same score of every reference against its source, averaged over all
  (sentence, reference) pairs; **MP'** = |MP − MP_average|.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from m2lsp.scoring.signature import Signature

T = 0.85
ORDER = 4
SIGNATURE = Signature("CGEC", (
    ("chars", "no-whitespace"), ("acc-sen", "exact-any-ref"),
    ("bleu", "n4,uniform,clipped,closest-ref,corpus,no-smoothing"),
    ("mp", "t0.85,char-multiset,mean"), ("mp-average", "all-refs-pooled")))


def chars(text: str) -> str:
    """The sentence as the metrics see it: every whitespace character removed."""
    return "".join(text.split())


@dataclass(frozen=True)
class Bleu:
    score: float
    precisions: tuple[float, ...]
    brevity_penalty: float
    hypothesis_length: int
    reference_length: int


@dataclass(frozen=True)
class CgecScore:
    sentences: int
    exact: int  # hypotheses equal to a reference
    bleu: Bleu
    mp: float
    mp_average: float
    rows: tuple[tuple[float, ...], ...] = ()  # per sentence (`sentence_rows`)

    @property
    def accuracy(self) -> float:
        return self.exact / self.sentences if self.sentences else 0.0

    @property
    def mp_revised(self) -> float:
        return abs(self.mp - self.mp_average)


def evaluate(sources: Sequence[str], hypotheses: Sequence[str],
             references: Sequence[Sequence[str]]) -> CgecScore:
    """Score hypotheses (one per source) against each source's references."""
    if not len(sources) == len(hypotheses) == len(references):
        raise ValueError("sources, hypotheses and references differ in number")
    rows = sentence_rows(sources, hypotheses, references)
    sums = [sum(column) for column in zip(*rows, strict=True)] or [0] * (3 + 2 + 2 * ORDER)
    src = [chars(s) for s in sources]
    refs = [[chars(r) for r in rs] or [s] for rs, s in zip(references, src, strict=True)]
    pairs = [meaning(r, s) for rs, s in zip(refs, src, strict=True) for r in rs]
    mp_average = sum(pairs) / len(pairs) if pairs else 0.0
    return CgecScore(len(src), int(sums[1]), bleu_from([int(v) for v in sums[3:]]),
                     sums[2] / len(src) if src else 0.0, mp_average, tuple(rows))


def meaning(corrected: str, original: str) -> float:
    """S_CM(C, O) with t = 0.85 and m the multiset intersection of characters."""
    if not corrected and not original:
        return 1.0
    matched = sum((Counter(corrected) & Counter(original)).values())
    if matched == 0:
        return 0.0
    p, r = matched / len(corrected), matched / len(original)
    return p * r / (T * p + (1 - T) * r)


def bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> Bleu:
    """Corpus char-level BLEU (see the module docstring)."""
    totals = [0] * (2 + 2 * ORDER)
    for hyp, refs in zip(hypotheses, references, strict=True):
        for k, value in enumerate(bleu_stats(hyp, refs)):
            totals[k] += value
    return bleu_from(tuple(totals))


def bleu_stats(hyp: str, refs: Sequence[str]) -> tuple[int, ...]:
    """One sentence's BLEU statistics, which add up over a corpus: hypothesis length, closest
    reference length, then clipped matches and candidates for n = 1..ORDER."""
    matches, candidates = [], []
    for n in range(1, ORDER + 1):
        counts = _ngrams(hyp, n)
        most: Counter[str] = Counter()
        for ref in refs:
            most |= _ngrams(ref, n)
        matches.append(sum((counts & most).values()))
        candidates.append(sum(counts.values()))
    closest = min((abs(len(x) - len(hyp)), len(x)) for x in refs)[1]
    return (len(hyp), closest, *matches, *candidates)


def bleu_from(stats: Sequence[int]) -> Bleu:
    """BLEU from summed `bleu_stats`."""
    c, r = stats[0], stats[1]
    correct, total = stats[2:2 + ORDER], stats[2 + ORDER:]
    precisions = tuple(k / t if t else 0.0 for k, t in zip(correct, total, strict=True))
    bp = 1.0 if c > r else (math.exp(1 - r / c) if c else 0.0)
    if min(precisions) == 0:
        return Bleu(0.0, precisions, bp, c, r)
    score = bp * math.exp(sum(math.log(p) for p in precisions) / ORDER)
    return Bleu(score, precisions, bp, c, r)


def sentence_rows(sources: Sequence[str], hypotheses: Sequence[str],
                  references: Sequence[Sequence[str]]) -> list[tuple[float, ...]]:
    """Per sentence: (1, exact 0/1, MP, BLEU statistics...): sums of rows give Acc_sen,
    mean MP and corpus BLEU of any resample of sentences (`aggregate`)."""
    rows = []
    for source, hypothesis, refs in zip(sources, hypotheses, references, strict=True):
        s, h = chars(source), chars(hypothesis)
        rs = [chars(r) for r in refs] or [s]
        rows.append((1, int(h in rs), meaning(h, s), *bleu_stats(h, rs)))
    return rows


def aggregate(sums: Sequence[float]) -> tuple[float, float, float]:
    """Acc_sen, BLEU_c and MP from summed `sentence_rows`."""
    count = sums[0] or 1
    return sums[1] / count, bleu_from([int(v) for v in sums[3:]]).score, sums[2] / count


def _ngrams(text: str, n: int) -> Counter[str]:
    return Counter(text[i:i + n] for i in range(len(text) - n + 1))
