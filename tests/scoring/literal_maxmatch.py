"""MaxMatch for one sentence and one annotator: weigh the lattice against the gold edits, find
the best path, and match its edits with the gold edits, as NUS M2 scorer 3.2 does.

- Weights: every edge costs its distance; an edge whose step equals a gold edit (same span,
  same original text, correction among the alternatives) costs -|E| instead; other edges
  that change something cost 0.001 more.  Insertions at one position are matched with the
  scorer's two-pointer walk, which also adds 0.001 to edges it skips; an edge listed twice
  in the lattice is weighed twice (so its 0.001 is added twice).
- Path: Bellman-Ford over the edge list in order, |V|-1 passes, a vertex keeping the first
  predecessor that reached its final distance (ties go to the earlier relaxation).
- Matching: system edits in sentence order, each compared with the gold edits from just
  after the last match on, and counted once for every gold edit it equals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from tests.scoring.literal_lattice import NOOP, Edge, Lattice, Step, Vertex

EPSILON = 0.001


class GoldEdit(NamedTuple):
    """A gold edit as the scorer reads it: token offsets, original text, alternatives."""

    start: int
    end: int
    original: str
    corrections: list[str]


class SystemEdit(NamedTuple):
    """An edit on the chosen path: (start, end, original, correction)."""

    start: int
    end: int
    original: str
    correction: str


def _matches(step: Step, gold: GoldEdit) -> bool:
    return (step.start == gold.start and step.end == gold.end
            and step.original == gold.original and step.correction in gold.corrections)


def weigh(lattice: Lattice, gold: Sequence[GoldEdit]) -> dict[Edge, float]:
    """Edge weights for one annotator's gold edits."""
    weights = dict(lattice.dist)
    by_span: dict[tuple[int, int], list[Edge]] = {}
    steps = lattice.steps
    for edge in lattice.edges:
        step = steps[edge]
        by_span.setdefault((step.start, step.end), []).append(edge)
    golds: dict[tuple[int, int], list[GoldEdit]] = {}
    for edit in gold:
        golds.setdefault((edit.start, edit.end), []).append(edit)
    bonus = -len(lattice.edges)
    for span in sorted(by_span):
        edges = sorted(by_span[span])
        candidates = golds.get(span, [])
        if span[0] == span[1]:
            _weigh_insertions(edges, candidates, steps, weights, bonus)
        else:
            _weigh_spans(edges, candidates, steps, weights, bonus)
    return weights


def _weigh_spans(edges: list[Edge], golds: list[GoldEdit], steps: dict[Edge, Step],
                 weights: dict[Edge, float], bonus: float) -> None:
    for edge in edges:
        step = steps[edge]
        if any(_matches(step, gold) for gold in golds):
            weights[edge] = bonus
        elif step.kind != NOOP:
            weights[edge] += EPSILON


def _weigh_insertions(edges: list[Edge], golds: list[GoldEdit], steps: dict[Edge, Step],
                      weights: dict[Edge, float], bonus: float) -> None:
    """The scorer's walk over insertion edges at one position, alternating from the left and
    the right end and consuming gold edits from the matching end."""
    left, right = 0, len(edges) - 1
    current = left
    gold_left, gold_right = 0, len(golds) - 1
    while left <= right:
        edge = edges[current]
        step = steps[edge]
        order = range(gold_left, gold_right + 1)
        if current != left:
            order = reversed(order)
        found = next((g for g in order if _matches(step, golds[g])), None)
        if found is None:
            if step.kind != NOOP:
                weights[edge] += EPSILON
            if current == left:
                left, current = left + 1, right
            else:
                right, current = right - 1, left
            continue
        weights[edge] = bonus
        if current == left:
            gold_left = found + 1
            left += 1
            while left < len(edges) and edges[left][0] != edges[current][1]:
                weights[edges[left]] += EPSILON
                left += 1
            current = left
        else:
            gold_right = found - 1
            right -= 1
            while right >= 0 and edges[right][1] != edges[current][0]:
                weights[edges[right]] += EPSILON
                right -= 1
            current = right


def best_path(lattice: Lattice, weights: dict[Edge, float]) -> list[SystemEdit]:
    """The edits of the shortest path, last edit first (the scorer's order)."""
    distance: dict[Vertex, float] = dict.fromkeys(lattice.vertices, float("inf"))
    distance[(0, 0)] = 0
    previous: dict[Vertex, Vertex] = {}
    edges = lattice.edges
    for _ in range(len(lattice.vertices) - 1):
        for edge in edges:
            u, v = edge
            candidate = distance[u] + weights[edge]
            if candidate < distance[v]:
                distance[v] = candidate
                previous[v] = u
    return _backtrack(lattice, previous)


def _backtrack(lattice: Lattice, previous: dict[Vertex, Vertex]) -> list[SystemEdit]:
    out = []
    vertex = lattice.end
    while vertex in previous:
        before = previous[vertex]
        step = lattice.steps[(before, vertex)]
        if step.kind != NOOP:
            out.append(SystemEdit(step.start, step.end, step.original, step.correction))
        vertex = before
    return out


def match(system: list[SystemEdit], gold: Sequence[GoldEdit]) -> list[SystemEdit]:
    """System edits counted as correct (an edit once per gold edit it equals)."""
    correct = []
    resume = 0
    for edit in reversed(system):
        for index in range(resume, len(gold)):
            g = gold[index]
            if (edit.start, edit.end, edit.original) == (g.start, g.end, g.original) \
                    and edit.correction in g.corrections:
                correct.append(edit)
                resume = index + 1
    return correct
