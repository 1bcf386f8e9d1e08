"""GREEN's counts -- compiled (`_green.counts`, what `ngrams.counts` runs when it is built)
and from Python's set intersections (`ngrams.python_counts`, the fallback) -- against the
per-n-gram sums they stand for, on random token sequences with repeated n-grams, and on
characters."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from m2lsp.scoring.green import ngrams
from m2lsp.scoring.green.ngrams import GreenSettings, python_counts

COMPILED = pytest.param("compiled", marks=pytest.mark.skipif(
    ngrams.compiled is None, reason="_green.c was not built (no C compiler at install)"))
IMPLEMENTATIONS = [COMPILED, "python"]


def counts_by(implementation: str):
    return ngrams.counts if implementation == "compiled" else python_counts

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


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@settings(max_examples=400, deadline=None)
@given(WORDS, WORDS, WORDS, st.sampled_from(["authors", "gec-metrics"]),
       st.sampled_from(["word", "char"]), st.integers(1, 5))
def test_counts_are_the_per_ngram_sums(implementation, source, reference, corrected,
                                       variant, unit, n) -> None:
    options = GreenSettings(n=n, unit=unit, variant=variant)
    assert counts_by(implementation)(source, reference, corrected, options) == by_ngram(
        source, reference, corrected, options)


LONG = st.lists(st.sampled_from("abcdefg"), min_size=50, max_size=400).map(" ".join)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@settings(max_examples=40, deadline=None)
@given(LONG, LONG, LONG, st.integers(1, 8))
def test_long_sentences(implementation, source, reference, corrected, n) -> None:
    """Hundreds of tokens over a few words (the compiled sort's merges over many widths,
    long runs of equal n-grams)."""
    options = GreenSettings(n=n)
    assert counts_by(implementation)(source, reference, corrected, options) == by_ngram(
        source, reference, corrected, options)


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_repeats_count_each_occurrence(implementation) -> None:
    options = GreenSettings(n=2)
    assert counts_by(implementation)("a a a b", "a a b", "a a a a b", options) == by_ngram(
        "a a a b", "a a b", "a a a a b", options)


@pytest.mark.skipif(ngrams.compiled is None, reason="_green.c was not built")
@pytest.mark.parametrize(("arguments", "error"), [
    (([0], [1], [2], 0), ValueError),  # no n-gram size
    (([-1], [1], [2], 1), OverflowError),  # ids are non-negative
    (([0], 5, [2], 1), TypeError),  # tokens are a sequence
    (([0], ["a"], [2], 1), TypeError),  # of ints
])
def test_compiled_refuses_what_it_cannot_count(arguments, error) -> None:
    """Wrong input to the compiled function is a Python exception, never a crash (the
    Python side never passes it: ids come from `token_ids`)."""
    with pytest.raises(error):
        ngrams.compiled.counts(*arguments)


@pytest.mark.skipif(ngrams.compiled is None, reason="_green.c was not built")
def test_compiled_counts_nothing_of_empty_sentences() -> None:
    assert ngrams.compiled.counts((), (), (), 3) == ((0, 0, 0),) * 3


COUNTS = st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6))


@settings(max_examples=2000, deadline=None)
@given(st.lists(COUNTS, min_size=1, max_size=6), st.sampled_from([0.5, 1.0, 2.0, 0.3]))
def test_the_authors_cumulative_f_written_out_is_the_generic_one(per_n, beta) -> None:
    """Choosing a reference runs the authors' cumulative F written out; it gives the very
    floats the generic one (precision_recall, f_score) gives, zeros and ones included."""
    options = GreenSettings(n=len(per_n), beta=beta)
    assert ngrams.cumulative_f(per_n, options) == ngrams._cumulative_f(per_n, options)
