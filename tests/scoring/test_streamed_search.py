"""The C core's streamed search (one generation of the lattice, exact integer values, then a
floating-point pass over the near-final sources; on the same thread or a second one)
against its scan-by-scan simulation of the scorer's Bellman-Ford and against the stored
lattice.  Each case also checks which route ran: a fallback to the stored lattice would
make the comparison prove nothing."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from m2lsp.scoring.m2 import lattice as lattice_module

compiled = lattice_module.compiled
pytestmark = pytest.mark.skipif(compiled is None, reason="the C core is not built")

STORE, STREAM, THREADED = 0, 1, 2
DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "conll2014"


def ids(*texts: str) -> tuple[list[int], ...]:
    vocabulary: dict[str, int] = {}
    return tuple([vocabulary.setdefault(w, len(vocabulary)) for w in t.split()] for t in texts)


def routes_taken(source, target, max_unchanged, annotators):
    """The streamed result (the search on the same thread, then on a second one: both must
    agree), the stored and scan-by-scan results, and (streamed, fell back) of the first."""
    before = compiled.stream_counts()
    streamed = compiled.best_paths(source, target, max_unchanged, annotators, True, STREAM)
    after = compiled.stream_counts()
    threaded = compiled.best_paths(source, target, max_unchanged, annotators, True, THREADED)
    assert threaded == streamed
    stored = compiled.best_paths(source, target, max_unchanged, annotators, True, STORE)
    scanned = compiled.best_paths(source, target, max_unchanged, annotators, False)
    return streamed, stored, scanned, (after[0] - before[0], after[1] - before[1])


def gold(start, end, original, *corrections):
    return (start, end, tuple(original), [tuple(c) for c in corrections])


def _cases():
    s, t, x, y = ids("a b c d e", "a x y b c d e", "x", "y")[0:4]
    yield ("insertion span walked from both ends", s, t, 2,
           [[gold(1, 1, [], t[1:3]), gold(1, 1, [], y)], [gold(1, 1, [], x)]])
    s, t = ids("b c d e f g", "x b c d e f g")
    yield "row-0 insertion at the hypothesis position", s, t, 2, [[gold(0, 0, [], t[:1])]]
    s, t = ids("p q r s p q r s p q r", "p p p q q q r r r s s s p")
    yield "repeated tokens, unchanged runs removed", s, t, 2, [
        [gold(1, 2, s[1:2], t[3:4]), gold(4, 4, [], t[:2])], []]
    yield "the same with three unchanged words", s, t, 3, [[gold(2, 3, s[2:3], t[6:8])]]
    s, t = ids("one two three four five six seven", "one too three for five six seven")
    yield "substitutions matching two annotators", s, t, 2, [
        [gold(1, 2, s[1:2], t[1:2]), gold(3, 4, s[3:4], t[3:4])], [gold(1, 2, s[1:2], t[1:2])]]


@pytest.mark.parametrize("name, source, target, max_unchanged, annotators",
                         list(_cases()), ids=[c[0] for c in _cases()])
def test_named_cases_stream_and_agree(name, source, target, max_unchanged, annotators):
    streamed, stored, scanned, route = routes_taken(source, target, max_unchanged, annotators)
    assert route == (1, 0), name
    assert streamed == stored == scanned


def test_paths_with_over_999_epsilons_stream_and_agree():
    """A long sentence (n + m = 1199): the stored route's by-time search gives up on more
    than 999 epsilons on a path and simulates Bellman-Ford scan by scan; the exact values
    of the streamed search need no such bound."""
    rng = random.Random(9)
    source = [rng.randint(0, 40) for _ in range(400)]
    target = ([x if rng.random() < 0.6 else rng.randint(0, 3) for x in source]
              + [1, 2, 1] * 133)
    annotators = [[(a, a + 1, tuple(source[a:a + 1]), [(target[a],)])
                   for a in rng.sample(range(400), 4)] for _ in range(2)]
    streamed, stored, scanned, route = routes_taken(source, target, 2, annotators)
    assert route == (1, 0)
    assert streamed == stored == scanned


def test_a_list_too_short_for_the_exact_values_falls_back_and_agrees():
    """One deletion, listed once per cost matrix: |E| = 2, not above n + m + 1 = 2."""
    streamed, stored, scanned, route = routes_taken([0], [], 2, [[gold(0, 1, [0], [])]])
    assert route == (0, 1)
    assert streamed == stored == scanned


def _random_case(rng: random.Random):
    n, m, top = rng.randint(0, 12), rng.randint(0, 12), rng.randint(1, 4)
    source = [rng.randint(0, top) for _ in range(n)]
    target = [rng.randint(0, top) for _ in range(m)]
    annotators = []
    for _ in range(rng.randint(1, 3)):
        edits = []
        for _ in range(rng.randint(0, 5)):
            start = rng.randint(0, n)
            end = min(n, start + rng.choice([0, 0, 1, 2]))
            j = rng.randint(0, m)
            corrections = [target[j:j + rng.randint(0, 3)]]
            if rng.random() < 0.3:
                corrections.append(target[rng.randint(0, m):][:rng.randint(1, 2)])
            original = source[start:end] if rng.random() < 0.9 else None
            edits.append((start, end, None if original is None else tuple(original),
                          [tuple(c) for c in corrections]))
        annotators.append(edits)
    return source, target, rng.randint(0, 3), annotators


@pytest.mark.parametrize("seed", range(4))
def test_random_sentences_stream_and_agree_with_the_scan(seed):
    rng = random.Random(seed)
    streamed_total = fallbacks_total = 0
    for _ in range(1500):
        source, target, max_unchanged, annotators = _random_case(rng)
        if source == target:
            continue
        streamed, _, scanned, (done, fell_back) = routes_taken(source, target, max_unchanged,
                                                               annotators)
        assert streamed == scanned, (source, target, max_unchanged, annotators)
        streamed_total += done
        fallbacks_total += fell_back
    assert streamed_total > 10 * fallbacks_total


@pytest.mark.slow
@pytest.mark.skipif(not (DATA / "gold").is_dir(), reason="../shared/data/conll2014 is absent")
def test_the_degenerate_hypothesis_of_sentence_333_streams_and_agrees():
    """CoNLL-2014 test sentence 333 against the repeated-token hypothesis of the official
    scorer's issues #8 and #12 (9252 vertices, 18.7M list entries)."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from bench_m2 import DEGENERATE, GOLD

    from m2lsp.parsing.m2 import parse_m2
    from m2lsp.parsing.source import SourceText
    from m2lsp.scoring.m2.inputs import read_gold

    text = SourceText(GOLD.read_text(encoding="utf-8"))
    sentence = read_gold(parse_m2(text), text)[332]
    vocabulary: dict[str, int] = {}
    source = [vocabulary.setdefault(w, len(vocabulary)) for w in sentence.source.split()]
    target = [vocabulary.setdefault(w, len(vocabulary)) for w in DEGENERATE.split()]

    def encode(words: str):
        found = [vocabulary.get(w) for w in words.split(" ")] if words else []
        return None if None in found else tuple(found)

    annotators = [[(e.start, e.end, encode(e.original), [encode(c) for c in e.corrections])
                   for e in edits] for _, edits in sentence.annotators]
    before = compiled.stream_counts()
    streamed = compiled.best_paths(source, target, 2, annotators, True, STREAM)
    assert compiled.stream_counts()[0] == before[0] + 1
    assert streamed == compiled.best_paths(source, target, 2, annotators, True, THREADED)
    assert streamed == compiled.best_paths(source, target, 2, annotators, True, STORE)


@pytest.mark.slow
@pytest.mark.skipif(not (DATA / "gold").is_dir(), reason="../shared/data/conll2014 is absent")
@pytest.mark.parametrize("seed", range(3))
def test_any_gold_of_the_degenerate_sentence_streams(seed):
    """Other annotations of sentence 333 (1-10 annotators, up to 31 small edits each, many
    of them matching the hypothesis as ERRANT-style edits would) stream too: a fallback to
    the stored lattice would take it over 800 MB."""
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from bench_m2 import DEGENERATE, GOLD

    from m2lsp.parsing.m2 import parse_m2
    from m2lsp.parsing.source import SourceText
    from m2lsp.scoring.m2.inputs import read_gold

    text = SourceText(GOLD.read_text(encoding="utf-8"))
    source_words = read_gold(parse_m2(text), text)[332].source.split()
    target_words = DEGENERATE.split()
    source, target = _encoded(source_words, target_words)
    rng = random.Random(seed)
    annotators = []
    for _ in range(rng.randint(1, 10)):
        edits, at = [], 0
        while len(edits) < 31 and at < len(source):
            start = at + rng.randint(0, 6)
            end = min(len(source), start + rng.choice([0, 1, 1, 2]))
            j = rng.randrange(len(target))
            correction = tuple(target[j:j + rng.randint(0 if end > start else 1, 3)])
            edits.append((start, end, tuple(source[start:end]), [correction]))
            at = end + 1
        annotators.append(edits)
    before = compiled.stream_counts()
    streamed = compiled.best_paths(source, target, 2, annotators, True, STREAM)
    after = compiled.stream_counts()
    assert (after[0] - before[0], after[1] - before[1]) == (1, 0)
    if seed == 0:  # the stored lattice once: 1.4 s and 800 MB
        assert streamed == compiled.best_paths(source, target, 2, annotators, True, STORE)


def _encoded(source: list[str], target: list[str]) -> tuple[list[int], list[int]]:
    vocabulary: dict[str, int] = {}
    return ([vocabulary.setdefault(w, len(vocabulary)) for w in source],
            [vocabulary.setdefault(w, len(vocabulary)) for w in target])
