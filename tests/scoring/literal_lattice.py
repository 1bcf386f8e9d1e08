"""The edit lattice of MaxMatch (Dahlmeier & Ng 2012), built as the NUS M2 scorer 3.2 builds
it, so that every tie is broken the same way.

Vertices are cells (i, j) of the Levenshtein matrix between source tokens (i) and
hypothesis tokens (j); edges are the single-token edit steps on some shortest path.  The
scorer builds two lattices, with substitution cost 1 and 2, and merges them; then it adds
"transitive" edges that merge consecutive edits (with at most `max_unchanged_words`
unchanged tokens inside), and drops transitive edges made only of unchanged tokens.

Release 3.2's details that change results, all reproduced here:

- An insertion in row 0 (before the first source token) is recorded at offset j-1, the
  hypothesis position, not 0 (later releases changed this).
- The merged edge list keeps an edge twice when both lattices have it (the merge tests
  `edge not in V`, which always holds); duplicates get weights added twice later.
- Transitive edges are appended each time a pivot strictly improves an edge's distance,
  so an edge can be listed more than once.
- Unchanged-only transitive edges are removed while iterating over the same list, which
  skips the element after each removal, so some of them survive.
"""

from __future__ import annotations

from typing import NamedTuple

INS, DEL, SUB, NOOP = "ins", "del", "sub", "noop"

Vertex = tuple[int, int]
Edge = tuple[Vertex, Vertex]


class Step(NamedTuple):
    """An edit on a lattice edge: what it does to source tokens start..end (exclusive)."""

    kind: str
    start: int
    end: int
    original: str
    correction: str
    unchanged: int  # unchanged tokens inside (noop steps count 1)


class LatticeCrash(Exception):
    """Where NUS M2 scorer 3.2 itself raises an exception (so no score exists to match)."""


def backpointers(source: list[str], target: list[str],
                 sub_cost: int) -> dict[Vertex, list[tuple[Vertex, Step]]]:
    """For each cell, its predecessors on shortest paths, in the scorer's order:
    substitution (or no change), deletion, insertion."""
    rows, cols = len(source) + 1, len(target) + 1
    back: dict[Vertex, list[tuple[Vertex, Step]]] = {}
    previous = list(range(cols))
    for j in range(1, cols):
        back[(0, j)] = [((0, j - 1), Step(INS, j - 1, j - 1, "", target[j - 1], 0))]
    for i in range(1, rows):
        current = [i] + [0] * (cols - 1)
        token = source[i - 1]
        back[(i, 0)] = [((i - 1, 0), Step(DEL, i - 1, i, token, "", 0))]
        for j in range(1, cols):
            same = token == target[j - 1]
            substitution = previous[j - 1] + (0 if same else sub_cost)
            deletion = previous[j] + 1
            insertion = current[j - 1] + 1
            best = min(substitution, deletion, insertion)
            current[j] = best
            options = []
            if substitution == best:
                options.append(((i - 1, j - 1), Step(NOOP, i - 1, i, token, token, 1) if same
                                else Step(SUB, i - 1, i, token, target[j - 1], 0)))
            if deletion == best:
                options.append(((i - 1, j), Step(DEL, i - 1, i, token, "", 0)))
            if insertion == best:
                options.append(((i, j - 1), Step(INS, i, i, "", target[j - 1], 0)))
            back[(i, j)] = options
        previous = current
    return back


def reachable_edges(back: dict[Vertex, list[tuple[Vertex, Step]]], end: Vertex
                    ) -> tuple[set[Vertex], dict[Edge, Step]]:
    """Vertices and edges met walking the backpointers from the last cell."""
    seen = {end}
    stack = [end]
    edges: dict[Edge, Step] = {}
    while stack:
        vertex = stack.pop()
        for previous, step in back.get(vertex, ()):
            edges[(previous, vertex)] = step
            if previous not in seen:
                seen.add(previous)
                stack.append(previous)
    return seen, edges


class Lattice:
    """The merged lattice: sorted vertices, the edge list (with the scorer's duplicates),
    each edge's distance (number of unit steps) and step."""

    def __init__(self, source: list[str], target: list[str]) -> None:
        end = (len(source), len(target))
        vertices1, edges1 = reachable_edges(backpointers(source, target, 1), end)
        vertices2, edges2 = reachable_edges(backpointers(source, target, 2), end)
        self.vertices: list[Vertex] = sorted(vertices1 | vertices2)
        self.edges: list[Edge] = sorted([*edges1, *edges2])
        self.steps: dict[Edge, Step] = {**edges2, **edges1}
        self.dist: dict[Edge, float] = dict.fromkeys(self.steps, 1)
        self.original: dict[Vertex, list[Vertex]] = {}
        for (u, v) in sorted(self.steps):
            self.original.setdefault(u, []).append(v)

    @property
    def end(self) -> Vertex:
        return self.vertices[-1]


def merge_steps(first: Step, second: Step) -> Step:
    """One step doing `first` then `second` (tokens joined by a space)."""
    kinds = {first.kind, second.kind}
    original = _join(first.original, second.original)
    correction = _join(first.correction, second.correction)
    unchanged = first.unchanged + second.unchanged
    if kinds == {NOOP}:
        kind = NOOP
    elif first.kind == INS and second.kind == INS:
        kind = INS
    elif first.kind == DEL and second.kind == DEL:
        kind = DEL
    else:
        kind = SUB
    return Step(kind, first.start, second.end, original, correction, unchanged)


def _join(left: str, right: str) -> str:
    """The scorer joins the two sides' strings with a space unless one side is an insertion
    or deletion, whose empty string is dropped (see merge_steps' table)."""
    if not left:
        return right
    if not right:
        return left
    return left + " " + right


def add_transitive_edges(lattice: Lattice, max_unchanged: int) -> None:
    """Floyd-Warshall over the sorted vertices, as the scorer runs it: an edge (i, j) is
    added or replaced each time a pivot k gives a strictly shorter path whose merged step
    has at most `max_unchanged` unchanged tokens."""
    incoming: dict[Vertex, list[Vertex]] = {}
    for (u, v) in lattice.steps:
        incoming.setdefault(v, []).append(u)
    dist, steps, edges = lattice.dist, lattice.steps, lattice.edges
    for k in lattice.vertices:
        sources = sorted(incoming.get(k, ()))
        targets = lattice.original.get(k, ())
        for i in sources:
            d_ik = dist[(i, k)]
            step_ik = steps[(i, k)]
            for j in targets:
                candidate = d_ik + dist[(k, j)]
                if candidate < dist.get((i, j), _INF):
                    merged = merge_steps(step_ik, steps[(k, j)])
                    if merged.unchanged <= max_unchanged:
                        if (i, j) not in steps:
                            incoming.setdefault(j, []).append(i)
                        edges.append((i, j))
                        dist[(i, j)] = candidate
                        steps[(i, j)] = merged


_INF = float("inf")


def remove_unchanged_edges(lattice: Lattice) -> None:
    """Drop transitive edges made only of unchanged tokens, iterating over the list being
    shortened exactly as the scorer does (each removal skips the next element)."""
    edges, steps, dist = lattice.edges, lattice.steps, lattice.dist
    for edge in edges:
        step = steps.get(edge)
        if step is None:
            raise LatticeCrash("a removed edge is met again (KeyError in the NUS scorer)")
        if step.kind == NOOP and dist[edge] > 1:
            edges.remove(edge)
            dist[edge] = _INF
            del steps[edge]
