"""Corpus GLEU over sampled references, and sentence GLEU, from per-sentence statistics.

Each sentence's statistics against each of its references are computed once; an iteration
only adds up one vector per sentence, so 500 iterations cost 500 sums, not 500 scorings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from m2lsp.scoring.gleu import numeric
from m2lsp.scoring.gleu.sampling import jfleg_choices, python2_choices
from m2lsp.scoring.gleu.statistics import ORDER, SentenceCounts, Stats, gleu, gleu_package
from m2lsp.scoring.signature import Signature


@dataclass(frozen=True)
class GleuSettings:
    """How GLEU is computed; the defaults are JFLEG's `gleu.py`."""

    iterations: int = 500
    """Corpus scorings, each with one reference per sentence drawn at random."""
    order: int = ORDER
    """Longest n-gram."""
    fixed_seed: bool = False
    """Draw and average as the `gleu` package's `--fix-seed` (Python 2's draws; MultiGEC)."""
    digits: int = 2
    """With `fixed_seed`: decimals of the score x 100 (the package's `-d`)."""
    variant: str = "jfleg"
    """Or gec-metrics: its GLEU class (`gleu.gec_metrics`)."""

    def signature(self, references: int) -> Signature:
        """How the numbers were made (`Signature.signed` adds the references' hash)."""
        scorer = ("gec-metrics-0.1.2-gleu" if self.variant == "gec-metrics"
                  else "gleu-package-1.1.0-fix-seed" if self.fixed_seed
                  else "jfleg-gleu.py-python3")
        return Signature("GLEU", (("refs", str(references)), ("iterations", str(self.iterations)),
                                  ("order", str(self.order)), ("scorer", scorer)))


@dataclass(frozen=True)
class Summary:
    """Mean, standard deviation and 95% normal interval of some GLEU values."""

    mean: float
    stdev: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Summary:
        mean = numeric.mean(values)
        stdev = numeric.stdev(values, mean)
        return cls(mean, stdev, *numeric.normal_interval(mean, stdev))

    def strings(self) -> list[str]:
        """As `gleu.py` prints them: `['%f', '%f', '(%.3f,%.3f)']`."""
        # gleu.py's own %-formatting, kept: it is what the digits must equal
        return ["%f" % self.mean, "%f" % self.stdev,  # noqa: UP031
                "(%.3f,%.3f)" % (self.low, self.high)]  # noqa: UP031


@dataclass(frozen=True)
class GleuResult:
    """GLEU of one hypothesis file."""

    settings: GleuSettings
    references: int
    table: tuple[tuple[Stats, ...], ...]  # per sentence, per reference
    iterations: tuple[float, ...]  # the corpus GLEU of each iteration

    @property
    def corpus(self) -> Summary:
        return Summary.of(self.iterations)

    def sentence(self, index: int) -> Summary:
        """A sentence's GLEU (smoothed) against each of its references, summarised."""
        return Summary.of(self.sentence_values(index))

    def sentence_values(self, index: int) -> list[float]:
        """A sentence's GLEU (smoothed) against each of its references."""
        return [gleu(stats, smooth=True) for stats in self.table[index]]


def statistics_table(sources: Sequence[Sequence[str]],
                     references: Sequence[Sequence[Sequence[str]]],
                     hypotheses: Sequence[Sequence[str]], order: int = ORDER
                     ) -> tuple[tuple[Stats, ...], ...]:
    """Each hypothesis's statistics against each of its sentence's references."""
    table = []
    for source, refs, hypothesis in zip(sources, references, hypotheses, strict=True):
        counts = SentenceCounts(source, hypothesis, order)
        table.append(counts.against_all(refs))
    return tuple(table)


def evaluate(sources: Sequence[Sequence[str]], references: Sequence[Sequence[Sequence[str]]],
             hypotheses: Sequence[Sequence[str]], settings: GleuSettings) -> GleuResult:
    """GLEU of `hypotheses`: `references[i]` are sentence i's references (the same number for
    every sentence)."""
    table = statistics_table(sources, references, hypotheses, settings.order)
    count = len(references[0]) if references else 0
    draw = python2_choices if settings.fixed_seed else jfleg_choices
    choices = draw(settings.iterations, len(table), count)
    score = gleu_package if settings.fixed_seed else gleu
    # gleu.py sums each iteration into a vector of 2 + 2 * 4 numbers whatever its -n, and
    # zip stops at the shorter: its corpus score counts at most 4-grams
    width = 2 + 2 * (settings.order if settings.fixed_seed else min(settings.order, ORDER))
    return GleuResult(settings, count, table,
                      tuple(score(s) for s in iteration_sums(table, choices, width)))


def iteration_sums(table: Sequence[Sequence[Stats]], choices: Sequence[Sequence[int]],
                   width: int) -> list[Stats]:
    """For each iteration, the statistics summed over sentences for the chosen references.

    Each vector is packed into one integer, a field of `bits` bits per statistic, wide enough
    for any sum: adding the packed integers adds every field at once (exact integers, no
    carry between fields), so an iteration is one C-level sum over the chosen entries."""
    if not table or not table[0]:
        return [(0,) * width for _ in choices]
    refs = len(table[0])
    most = sum(max(max(stats) for stats in row) for row in table)
    bits = max(most.bit_length(), 1)
    packed = [_pack(stats, bits) for row in table for stats in row]
    offsets = range(0, len(table) * refs, refs)
    get = packed.__getitem__
    return [_unpack(sum(map(get, map(int.__add__, offsets, row))), width, bits)
            for row in choices]


def _pack(stats: Stats, bits: int) -> int:
    value = 0
    for k, number in enumerate(stats):
        value |= number << (k * bits)
    return value


def _unpack(value: int, width: int, bits: int) -> Stats:
    mask = (1 << bits) - 1
    return tuple((value >> (k * bits)) & mask for k in range(width))
