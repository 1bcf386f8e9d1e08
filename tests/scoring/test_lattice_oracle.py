"""The fast lattice against a literal port of NUS M2 scorer 3.2's algorithm (tests/scoring/
literal_*.py: the scorer's loops as it runs them, cubic and slow): on thousands of random
sentences built to produce ties, repeats and duplicate edges, both give the same edits."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from m2lsp.scoring.m2 import lattice as lattice_module
from m2lsp.scoring.m2.lattice import GoldEdit, LatticeCrash, SentenceLattice
from tests.scoring import literal_lattice as literal
from tests.scoring.literal_maxmatch import GoldEdit as LiteralGold
from tests.scoring.literal_maxmatch import best_path, weigh

VOCABULARY = ["a", "a", "b", "c", "the", "."]
tokens = st.lists(st.sampled_from(VOCABULARY), max_size=7)


def literal_edits(source, target, gold, max_unchanged):
    lattice = literal.Lattice(source, target)
    literal.add_transitive_edges(lattice, max_unchanged)
    literal.remove_unchanged_edges(lattice)
    golds = [LiteralGold(*g) for g in gold]
    return [tuple(e) for e in best_path(lattice, weigh(lattice, golds))], lattice


def gold_from(lattice, rng: random.Random, count: int) -> list[GoldEdit]:
    """Gold edits most of which equal some lattice edge, so that matches happen."""
    steps = [s for s in lattice.steps.values() if s.kind != literal.NOOP]
    out = []
    for _ in range(count):
        if steps and rng.random() < 0.8:
            step = rng.choice(steps)
            corrections = [step.correction] + (["zz"] if rng.random() < 0.3 else [])
            out.append(GoldEdit(step.start, step.end, step.original, corrections))
        else:
            start = rng.randint(0, 3)
            out.append(GoldEdit(start, start + rng.randint(0, 1), "", ["a"]))
    return out


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(tokens, tokens, st.integers(0, 3), st.integers(0, 10**6))
def test_fast_lattice_equals_the_literal_algorithm(source, target, max_unchanged, seed):
    if source == target:
        return
    rng = random.Random(seed)
    try:
        _, lattice = literal_edits(source, target, [], max_unchanged)
    except (KeyError, literal.LatticeCrash):
        with pytest.raises(LatticeCrash):
            SentenceLattice(source, target, max_unchanged).best_edits([])
        return
    for _ in range(3):
        gold = gold_from(lattice, rng, rng.randint(0, 4))
        expected, _ = literal_edits(source, target, gold, max_unchanged)
        fast = SentenceLattice(source, target, max_unchanged)
        assert [tuple(e) for e in fast.best_edits(gold)] == expected
        assert fast.edges == [_encode(fast, u, v) for (u, v) in lattice.edges]


def _encode(fast: SentenceLattice, u, v) -> int:
    return (u[0] * fast.width + u[1]) * fast.size + (v[0] * fast.width + v[1])


@pytest.mark.slow
@pytest.mark.skipif(lattice_module.compiled is None, reason="the C core is not built")
@settings(max_examples=3000, deadline=None)
@given(tokens, tokens, st.integers(0, 3), st.integers(0, 10**6))
def test_compiled_core_equals_the_python_lattice(source, target, max_unchanged, seed):
    if source == target:
        return
    rng = random.Random(seed)
    try:
        _, lattice = literal_edits(source, target, [], max_unchanged)
    except (KeyError, literal.LatticeCrash):
        with pytest.raises(LatticeCrash):
            lattice_module.best_paths(source, target, max_unchanged, [[]])
        return
    annotators = [gold_from(lattice, rng, rng.randint(0, 4)) for _ in range(3)]
    python = lattice_module.best_paths(source, target, max_unchanged, annotators,
                                       use_compiled=False)
    assert lattice_module.best_paths(source, target, max_unchanged, annotators) == python


@pytest.mark.slow
@pytest.mark.skipif(lattice_module.compiled is None, reason="the C core is not built")
@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(VOCABULARY), max_size=12),
       st.lists(st.sampled_from(VOCABULARY), max_size=12), st.integers(0, 3),
       st.integers(0, 10**6))
def test_one_pass_shortest_paths_equal_the_bellman_ford_simulation(source, target,
                                                                    max_unchanged, seed):
    """The C core's one-pass search (by relaxation time) against its scan-by-scan
    simulation of the scorer's Bellman-Ford, on longer sentences with many ties."""
    if source == target:
        return
    rng = random.Random(seed)
    vocabulary: dict[str, int] = {}
    s = [vocabulary.setdefault(t, len(vocabulary)) for t in source]
    t = [vocabulary.setdefault(x, len(vocabulary)) for x in target]
    spans = [(a, b) for a in range(len(source) + 1) for b in range(a, min(a + 3, len(source) + 1))]
    annotators = []
    for _ in range(2):
        gold = []
        for _ in range(rng.randint(0, 4)):
            a, b = rng.choice(spans)
            original = tuple(s[a:b])
            j = rng.randint(0, len(t))
            correction = tuple(t[j:j + rng.randint(0, 2)])
            gold.append((a, b, original, [correction]))
        annotators.append(gold)
    fast = lattice_module.compiled.best_paths(s, t, max_unchanged, annotators, True, 0)
    slow = lattice_module.compiled.best_paths(s, t, max_unchanged, annotators, False)
    assert fast == slow
    streamed = lattice_module.compiled.best_paths(s, t, max_unchanged, annotators, True, 1)
    assert streamed == slow
