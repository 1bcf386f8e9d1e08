"""GREEN's counts from set intersections (`ngrams.counts`) against the per-n-gram sums they
stand for, on random token sequences with repeated n-grams, and on characters."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from m2lsp.scoring.green.ngrams import GreenSettings, counts

WORDS = st.lists(st.sampled_from(["a", "b", "c", "d", "the"]), max_size=12).map(" ".join)


def by_ngram(source: str, reference: str, corrected: str, options: GreenSettings
             ) -> tuple[tuple[int, int, int], ...]:
    """The definition, one n-gram at a time (the authors' `green` loops this way)."""
    def grams(text: str, n: int) -> Counter:
        if options.variant == "gec-metrics":
            text = text.strip()
            if not text:
                return Counter()
            tokens = text.split(" ") if options.unit == "word" else text
        else:
            tokens = text.split() if options.unit == "word" else text
        return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))

    out = []
    for n in range(1, options.n + 1):
        s, r, c = grams(source, n), grams(reference, n), grams(corrected, n)
        tp = fp = fn = 0
        for g in s.keys() | r.keys() | c.keys():
            ms, mr, mc = s[g], r[g], c[g]
            tp += max(ms - max(mr, mc), 0) + max(min(mr, mc) - ms, 0) + min(ms, mr, mc)
            fp += max(min(ms, mr) - mc, 0) + max(mc - max(ms, mr), 0)
            fn += max(min(ms, mc) - mr, 0) + max(mr - max(ms, mc), 0)
        out.append((tp, fp, fn))
    return tuple(out)


@settings(max_examples=400, deadline=None)
@given(WORDS, WORDS, WORDS, st.sampled_from(["authors", "gec-metrics"]),
       st.sampled_from(["word", "char"]), st.integers(1, 5))
def test_intersections_are_the_per_ngram_sums(source, reference, corrected, variant, unit,
                                              n) -> None:
    options = GreenSettings(n=n, unit=unit, variant=variant)
    assert counts(source, reference, corrected, options) == by_ngram(
        source, reference, corrected, options)


def test_repeats_count_each_occurrence() -> None:
    options = GreenSettings(n=2)
    assert counts("a a a b", "a a b", "a a a a b", options) == by_ngram(
        "a a a b", "a a b", "a a a a b", options)
