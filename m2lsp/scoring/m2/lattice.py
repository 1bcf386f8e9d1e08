"""The edit lattice of MaxMatch (Dahlmeier & Ng 2012) and its best path, computed as NUS M2
scorer 3.2 computes them, so that every tie is broken the same way, but in time close to
linear in the size of the lattice instead of cubic.

What the scorer does, step by step, and what is done here instead:

1. Two Levenshtein matrices between source tokens (rows i) and hypothesis tokens
   (columns j), with substitution cost 1 and 2.  Here: only the diagonal band that can hold
   a shortest path is computed (the band is widened until it provably holds one).
2. For each matrix, the cells and unit edits on shortest paths, walking back from the last
   cell; the two edge lists are concatenated and sorted.  The scorer keeps an edge twice
   when both matrices have it (its merge tests `edge not in V`, which always holds): kept.
   An insertion in row 0 is recorded at offset j-1 (release 3.2; later releases changed it):
   kept.
3. Transitive edges by Floyd-Warshall over the sorted vertices: for each pivot k, each edge
   (i, k) and each original edge (k, j), a strictly shorter (i, j) whose merged edit keeps at
   most `max_unchanged_words` unchanged tokens is appended -- again on each improvement, so
   an edge can be listed twice.  Here: the same loop over adjacency lists, which visits only
   existing edges (the scorer visits all |V|^3 triples).  Edit strings are not built: the
   original and corrected text of any edge are the source and hypothesis tokens between its
   end points, so they are made on demand.
4. Transitive edges made only of unchanged tokens are removed while iterating over the same
   list, so the element after each removed one is skipped and survives: kept.
5. Weights per annotator: an edge equal to a gold edit costs -|E|, any other changing edge
   its distance + 0.001 per occurrence in the list (insertions at one position go through the
   scorer's two-pointer walk, which adds 0.001 to the edges it skips).  Here: spans without a
   gold edit are weighed in one pass; only spans with gold edits are grouped and sorted.
6. Bellman-Ford, |V|-1 passes over the edge list in order, strict improvements only: the
   first relaxation to reach a vertex's final distance wins ties.  Here: the same relaxations
   in the same order, but an edge is scanned only when its source improved since its last
   scan -- scans that cannot change anything are skipped, so floating-point sums and ties
   come out identical.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import m2lsp.defaults as defaults

INS, DEL, SUB, NOOP = 0, 1, 2, 3
EPSILON = 0.001
_INF = float("inf")


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


class LatticeCrash(Exception):
    """Where NUS M2 scorer 3.2 itself raises an exception (no score exists to match)."""


# The default bound on one sentence pair's lattice: with the interpreter and the files, a
# scoring command stays under 1 GiB whatever the hypothesis.
DEFAULT_MEMORY_LIMIT = defaults.MAX_LATTICE_MEMORY_MIB * 2**20
# Of the memory this process may still take, the share a lattice may use when the bound is
# "none" (--max-lattice-memory 0): the rest is for the interpreter, the results and what
# the C library keeps but does not count.
AVAILABLE_SHARE = 0.8


def available_memory() -> int | None:
    """Bytes this process may still take: the smaller of the system's available memory
    (MemAvailable) and what the address-space limit (`ulimit -v`) leaves; None where
    neither can be read."""
    found = [x for x in (_mem_available(), _address_space_left()) if x is not None]
    return min(found) if found else None


def _mem_available() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _address_space_left() -> int | None:
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY:
            return None
        with open("/proc/self/statm", encoding="ascii") as statm:
            used = int(statm.read().split()[0]) * resource.getpagesize()
    except (ImportError, OSError, ValueError, IndexError):
        return None
    return max(soft - used, 0)


# What the pure-Python lattice keeps per list entry (edge info, dict slots, lists), and per
# matrix cell: its bound is checked against these, as the compiled core checks its own.
_PY_ENTRY_BYTES = 320
_PY_CELL_BYTES = 64


class LatticeTooLarge(Exception):
    """A sentence pair whose lattice needs more memory than the bound allows: the work
    stopped before taking it.  `entries` are the scorer's edge-list entries made so far (0
    when the bound was known to be exceeded before any was made); `needed` is what was
    held when it stopped, a lower bound; `done` of `total` pivot vertices of the closure
    had been gone through (0 of 0: not known)."""

    def __init__(self, vertices: int, entries: int, needed: float, limit: float,
                 done: int = 0, total: int = 0, annotators: int = 0,
                 paths: bool = False) -> None:
        super().__init__(vertices, entries, needed, limit, done, total, annotators, paths)
        self.vertices, self.entries = vertices, entries
        self.needed, self.limit = needed, limit
        self.done, self.total = done, total
        self.annotators = annotators  # the sentence's annotators (0: not said)
        self.paths = paths  # stopped before the lattice: its annotators' paths alone are too many

    @property
    def projected(self) -> float | None:
        """The whole lattice's size if the rest of the closure costs what its first part
        did (an order of magnitude, not a bound), or None when too little was built."""
        if self.done <= 0 or self.total <= self.done or self.entries <= 0:
            return None
        return self.needed * self.total / self.done


class Info(NamedTuple):
    """What the scorer knows of an edge: its length in unit edits, kind, span, and how many
    unchanged tokens it carries."""

    dist: int
    kind: int
    start: int
    end: int
    unchanged: int


class SentenceLattice:
    """The lattice of one sentence: vertices are ints `i * width + j`, edges ints
    `u * size + v` (both sort as the scorer sorts its tuples)."""

    def __init__(self, source: Sequence[str], target: Sequence[str],
                 max_unchanged: int = 2, memory_limit: float = 0) -> None:
        self.source, self.target = list(source), list(target)
        self.width = len(target) + 1
        self.size = (len(source) + 1) * self.width
        self.memory_limit = memory_limit
        self.info: dict[int, Info] = {}
        self._check_memory(0, self.size * _PY_CELL_BYTES)
        vertices, edges = self._original_edges()
        self.vertices = sorted(vertices)
        self.edges = edges
        self._add_transitive(max_unchanged)
        self._remove_unchanged()

    def _check_memory(self, entries: int, needed: float) -> None:
        if self.memory_limit and needed > self.memory_limit:
            vertices = len(getattr(self, "vertices", ()))
            raise LatticeTooLarge(vertices, entries, needed, self.memory_limit)

    # -- 1, 2: shortest-path cells of both matrices ------------------------------------

    def _original_edges(self) -> tuple[set[int], list[int]]:
        vertices: set[int] = set()
        listed: list[int] = []
        for cost in (1, 2):
            found_vertices, found_edges = self._walk(shortest_band(self.source, self.target,
                                                                   cost), cost)
            vertices |= found_vertices
            listed.extend(found_edges)
        listed.sort()
        return vertices, listed

    def _walk(self, table: Band, cost: int) -> tuple[set[int], set[int]]:
        """Cells and unit edges on shortest paths, walking back from the last cell."""
        source, target, width, size = self.source, self.target, self.width, self.size
        end = (len(source), len(target))
        seen = {end}
        stack = [end]
        edges: set[int] = set()
        value = table.value
        while stack:
            i, j = stack.pop()
            here = i * width + j
            for pi, pj in _predecessors(table, source, target, cost, i, j, value(i, j)):
                previous = pi * width + pj
                edge = previous * size + here
                if edge not in self.info:
                    self.info[edge] = _unit_info(source, target, pi, pj, i, j)
                edges.add(edge)
                if (pi, pj) not in seen:
                    seen.add((pi, pj))
                    stack.append((pi, pj))
        return {i * width + j for i, j in seen}, edges

    # -- 3: transitive edges -----------------------------------------------------------

    def _add_transitive(self, max_unchanged: int) -> None:
        size, info, edges = self.size, self.info, self.edges
        room = (self.memory_limit // _PY_ENTRY_BYTES) if self.memory_limit else float("inf")
        incoming: dict[int, list[int]] = {}
        outgoing: dict[int, list[int]] = {}
        for edge in info:
            u, v = divmod(edge, size)
            incoming.setdefault(v, []).append(u)
            outgoing.setdefault(u, []).append(v)
        for listed in outgoing.values():
            listed.sort()
        for k in self.vertices:
            sources = incoming.get(k)
            targets = outgoing.get(k)
            if not sources or not targets:
                continue
            sources.sort()
            for i in list(sources):
                first = info[i * size + k]
                for j in targets:
                    second = info[k * size + j]
                    candidate = first.dist + second.dist
                    key = i * size + j
                    current = info.get(key)
                    if current is not None and candidate >= current.dist:
                        continue
                    unchanged = first.unchanged + second.unchanged
                    if unchanged > max_unchanged:
                        continue
                    if current is None:
                        incoming.setdefault(j, []).append(i)
                    info[key] = Info(candidate, _merged_kind(first.kind, second.kind),
                                     first.start, second.end, unchanged)
                    edges.append(key)
                    if len(edges) > room:
                        self._check_memory(len(edges), len(edges) * _PY_ENTRY_BYTES)

    # -- 4: unchanged-only transitive edges --------------------------------------------

    def _remove_unchanged(self) -> None:
        info, edges = self.info, self.edges
        kept: list[int] = []
        removed: set[int] = set()
        position, count = 0, len(edges)
        while position < count:
            edge = edges[position]
            if edge in removed:
                raise LatticeCrash("the NUS scorer meets an edge it has just deleted")
            data = info[edge]
            if data.kind == NOOP and data.dist > 1:
                removed.add(edge)
                del info[edge]
                if position + 1 < count:
                    kept.append(edges[position + 1])  # the scorer's iterator skips it
                position += 2
                continue
            kept.append(edge)
            position += 1
        if removed and any(edge in removed for edge in kept):
            raise LatticeCrash("the NUS scorer weighs an edge it has deleted")
        self.edges = kept

    # -- 5, 6: one annotator -------------------------------------------------------------

    def texts(self, edge: int) -> tuple[str, str]:
        """An edge's original and corrected text: the tokens between its end points."""
        u, v = divmod(edge, self.size)
        i1, j1 = divmod(u, self.width)
        i2, j2 = divmod(v, self.width)
        return " ".join(self.source[i1:i2]), " ".join(self.target[j1:j2])

    def best_edits(self, gold: Sequence[GoldEdit]) -> list[SystemEdit]:
        """The edits on the best path for these gold edits, last edit first (the scorer's
        order)."""
        weights = self.weights(gold)
        predecessor = self.shortest_paths(weights)
        out = []
        vertex = self.vertices[-1]
        size, info = self.size, self.info
        while vertex in predecessor:
            before = predecessor[vertex]
            edge = before * size + vertex
            data = info[edge]
            if data.kind != NOOP:
                out.append(SystemEdit(data.start, data.end, *self.texts(edge)))
            vertex = before
        return out

    def weights(self, gold: Sequence[GoldEdit]) -> dict[int, float]:
        info = self.info
        weights: dict[int, float] = {edge: data.dist for edge, data in info.items()}
        spans: dict[tuple[int, int], list[GoldEdit]] = {}
        for edit in gold:
            spans.setdefault((edit.start, edit.end), []).append(edit)
        contested: dict[tuple[int, int], list[int]] = {}
        for edge in self.edges:
            data = info[edge]
            span = (data.start, data.end)
            if span in spans:
                contested.setdefault(span, []).append(edge)
            elif data.kind != NOOP:
                weights[edge] += EPSILON
        bonus = -len(self.edges)
        for span in sorted(contested):
            edges = sorted(contested[span])
            if span[0] == span[1]:
                self._weigh_insertions(edges, spans[span], weights, bonus)
            else:
                self._weigh_span(edges, spans[span], weights, bonus)
        return weights

    def _matches(self, edge: int, gold: GoldEdit) -> bool:
        original, correction = self.texts(edge)
        return original == gold.original and correction in gold.corrections

    def _weigh_span(self, edges: list[int], golds: list[GoldEdit], weights: dict[int, float],
                    bonus: float) -> None:
        for edge in edges:
            if any(self._matches(edge, g) for g in golds):
                weights[edge] = bonus
            elif self.info[edge].kind != NOOP:
                weights[edge] += EPSILON

    def _weigh_insertions(self, edges: list[int], golds: list[GoldEdit],
                          weights: dict[int, float], bonus: float) -> None:
        """The scorer's walk over the edges of one insertion point, alternating between the
        left and right ends of the sorted list and consuming gold edits from the same end."""
        size = self.size
        left, right = 0, len(edges) - 1
        current = left
        gold_left, gold_right = 0, len(golds) - 1
        while left <= right:
            edge = edges[current]
            order: Iterable[int] = range(gold_left, gold_right + 1)
            if current != left:
                order = reversed(range(gold_left, gold_right + 1))
            found = next((g for g in order if self._matches(edge, golds[g])), None)
            if found is None:
                if self.info[edge].kind != NOOP:
                    weights[edge] += EPSILON
                if current == left:
                    left, current = left + 1, right
                else:
                    right, current = right - 1, left
                continue
            weights[edge] = bonus
            if current == left:
                gold_left, left = found + 1, left + 1
                target = edge % size
                while left < len(edges) and edges[left] // size != target:
                    weights[edges[left]] += EPSILON
                    left += 1
                current = left
            else:
                gold_right, right = found - 1, right - 1
                origin = edge // size
                while right >= 0 and edges[right] % size != origin:
                    weights[edges[right]] += EPSILON
                    right -= 1
                current = right

    def shortest_paths(self, weights: dict[int, float]) -> dict[int, int]:
        """Bellman-Ford as the scorer runs it; only scans that can change a distance run."""
        size, edges = self.size, self.edges
        passes = len(self.vertices) - 1
        distance: dict[int, float] = dict.fromkeys(self.vertices, _INF)
        distance[0] = 0
        predecessor: dict[int, int] = {}
        if passes < 1:
            return predecessor
        leaving: dict[int, list[int]] = {}
        for position, edge in enumerate(edges):
            leaving.setdefault(edge // size, []).append(position)
        last_change: dict[int, int] = {}  # vertex -> position of its last improvement
        # pass 1 scans everything in order, like the scorer
        for position, edge in enumerate(edges):
            u, v = divmod(edge, size)
            candidate = distance[u] + weights[edge]
            if candidate < distance[v]:
                distance[v] = candidate
                predecessor[v] = u
                last_change[v] = position
        pending: list[tuple[int, int]] = []
        scheduled: dict[int, int] = {}
        for vertex, changed in last_change.items() if passes >= 2 else ():
            for position in leaving.get(vertex, ()):
                if position < changed:  # scanned before the last change: scan again
                    scheduled[position] = 2
                    pending.append((2, position))
        heapq.heapify(pending)
        while pending:
            pass_number, position = heapq.heappop(pending)
            if scheduled.get(position) != pass_number:
                continue
            del scheduled[position]
            edge = edges[position]
            u, v = divmod(edge, size)
            candidate = distance[u] + weights[edge]
            if candidate < distance[v]:
                distance[v] = candidate
                predecessor[v] = u
                for later in leaving.get(v, ()):
                    when = pass_number if later > position else pass_number + 1
                    if when <= passes and scheduled.get(later, passes + 1) > when:
                        scheduled[later] = when
                        heapq.heappush(pending, (when, later))
        return predecessor


def _merged_kind(first: int, second: int) -> int:
    if first == second and first in (NOOP, INS, DEL):
        return first
    return SUB


def _unit_info(source: Sequence[str], target: Sequence[str], pi: int, pj: int, i: int,
               j: int) -> Info:
    if pi < i and pj < j:
        if source[pi] == target[pj]:
            return Info(1, NOOP, pi, i, 1)
        return Info(1, SUB, pi, i, 0)
    if pi < i:
        return Info(1, DEL, pi, i, 0)
    if i == 0:  # release 3.2 records a row-0 insertion at the hypothesis position
        return Info(1, INS, pj, pj, 0)
    return Info(1, INS, i, i, 0)


# ---------------------------------------------------------------------------------------
# Levenshtein distances in a band

class Band:
    """Distances of the cells within a diagonal band; cells outside count as unreachable."""

    def __init__(self, rows: list[list[float]], first: list[int]) -> None:
        self.rows, self.first = rows, first

    def value(self, i: int, j: int) -> float:
        offset = j - self.first[i]
        row = self.rows[i]
        return row[offset] if 0 <= offset < len(row) else _INF


def shortest_band(source: Sequence[str], target: Sequence[str], cost: int) -> Band:
    """Distances (insertion and deletion 1, substitution `cost`) of every cell that can lie on
    a shortest path; the band is doubled until it provably contains one."""
    n, m = len(source), len(target)
    width = max(abs(n - m), 1)
    while True:
        band = _band(source, target, cost, width)
        if band.value(n, m) <= width or width >= n + m:
            return band
        width *= 2


def _band(source: Sequence[str], target: Sequence[str], cost: int, width: int) -> Band:
    """Cells whose diagonal k = j - i satisfies |k| + |(m - n) - k| <= width: any path
    through another cell costs more than `width`."""
    n, m = len(source), len(target)
    last = m - n
    half = (width - abs(last)) // 2
    low, high = min(0, last) - half, max(0, last) + half
    rows: list[list[float]] = []
    first: list[int] = []
    previous: list[float] = []
    previous_first = 0
    for i in range(n + 1):
        start, stop = max(0, i + low), min(m, i + high)
        row = [_INF] * (stop - start + 1) if stop >= start else []
        for j in range(start, stop + 1):
            best: float
            if i == 0:
                best = j
            elif j == 0:
                best = i
            else:
                up = j - previous_first
                diagonal = previous[up - 1] if 0 < up <= len(previous) else _INF
                if diagonal != _INF and source[i - 1] != target[j - 1]:
                    diagonal += cost
                deletion = previous[up] + 1 if 0 <= up < len(previous) else _INF
                insertion = row[j - start - 1] + 1 if j > start else _INF
                best = min(diagonal, deletion, insertion)
            row[j - start] = best
        rows.append(row)
        first.append(start)
        previous, previous_first = row, start
    return Band(rows, first)


def _predecessors(table: Band, source: Sequence[str], target: Sequence[str], cost: int,
                  i: int, j: int, here: float) -> list[tuple[int, int]]:
    """A cell's predecessors on shortest paths, in the scorer's order: substitution (or no
    change), deletion, insertion; row 0 and column 0 have only one."""
    if i == 0:
        return [(0, j - 1)] if j else []
    if j == 0:
        return [(i - 1, 0)]
    value = table.value
    out = []
    step = 0 if source[i - 1] == target[j - 1] else cost
    if value(i - 1, j - 1) + step == here:
        out.append((i - 1, j - 1))
    if value(i - 1, j) + 1 == here:
        out.append((i - 1, j))
    if value(i, j - 1) + 1 == here:
        out.append((i, j - 1))
    return out


def match(system: list[SystemEdit], gold: Sequence[GoldEdit]) -> list[SystemEdit]:
    """System edits counted as correct, as the scorer counts them: in sentence order, each
    compared with the gold edits after the last match, once for every gold edit it equals."""
    return [edit for edit, _ in match_pairs(system, gold)]


def match_pairs(system: list[SystemEdit], gold: Sequence[GoldEdit]
                ) -> list[tuple[SystemEdit, int]]:
    """(system edit, index of the gold edit it matched) for every match `match` counts."""
    pairs = []
    resume = 0
    for edit in reversed(system):
        for index in range(resume, len(gold)):
            g = gold[index]
            if (edit.start, edit.end, edit.original) == (g.start, g.end, g.original) \
                    and edit.correction in g.corrections:
                pairs.append((edit, index))
                resume = index + 1
    return pairs


# ---------------------------------------------------------------------------------------
# The compiled core

try:  # built from _lattice.c when a C compiler was there at install time
    from m2lsp.scoring.m2 import _lattice as compiled  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - exercised where no compiler is installed
    compiled = None


def best_paths(source: Sequence[str], target: Sequence[str], max_unchanged: int,
               annotators: Sequence[Sequence[GoldEdit]], use_compiled: bool = True,
               memory_limit: float = DEFAULT_MEMORY_LIMIT) -> list[list[SystemEdit]]:
    """The best path's edits (last first) for each annotator's gold edits: in C when the
    compiled core is there, else in Python; both give the same edits.  Raises
    LatticeTooLarge rather than take more than `memory_limit` bytes (0: no bound)."""
    check_annotators(len(source), len(target), len(annotators), memory_limit)
    if use_compiled and compiled is not None:
        return _compiled_paths(source, target, max_unchanged, annotators, memory_limit)
    lattice = SentenceLattice(source, target, max_unchanged, memory_limit)
    return [lattice.best_edits(gold) for gold in annotators]


# What one edit of a best path may take as the scorer keeps it (its SystemEdit and two
# texts, its places in the attempt's tuples, the compiled core's tuple on the way).
PATH_EDIT_BYTES = 256


def check_annotators(source: int, target: int, annotators: int, memory_limit: float) -> None:
    """LatticeTooLarge, before anything is built, when the best paths of a sentence's
    annotators could take more than the bound: each annotator's path has at most one edit
    per source or hypothesis token, and every annotator's is kept.  This is what grows
    with the number of annotators whatever the lattice; the compiled core checks its
    per-annotator search state against the bound likewise, once it knows the vertices."""
    needed = float(annotators) * (source + target + 1) * PATH_EDIT_BYTES
    if memory_limit and needed > memory_limit:
        raise LatticeTooLarge(0, 0, needed, memory_limit, annotators=annotators, paths=True)


def _compiled_paths(source: Sequence[str], target: Sequence[str], max_unchanged: int,
                    annotators: Sequence[Sequence[GoldEdit]], memory_limit: float
                    ) -> list[list[SystemEdit]]:
    source_ids, target_ids, golds = compiled.encode(source, target, annotators)
    try:
        paths = compiled.best_paths(source_ids, target_ids, max_unchanged, golds, True, -1,
                                    float(memory_limit))
    except compiled.TooLarge as exc:
        vertices, entries, needed, limit, done, total = exc.args
        raise LatticeTooLarge(vertices, entries, needed, limit, done, total,
                              annotators=len(annotators)) from None
    if paths is None:
        raise LatticeCrash("the NUS scorer 3.2 raises an exception on this sentence")
    return [[SystemEdit(start, end, " ".join(source[i1:i2]), " ".join(target[j1:j2]))
             for start, end, i1, j1, i2, j2 in path] for path in paths]


def encoded(source: Sequence[str], target: Sequence[str],
            annotators: Sequence[Sequence[GoldEdit]]) -> tuple[list, list, list]:
    """What the compiled core's `encode` returns, in Python (its reference in the tests):
    tokens as ids, a new token taking the next id, and each gold text as the ids of its
    pieces between single spaces -- () for "", None where a piece is no token of the
    sentence (such a text can equal no tokens joined by single spaces)."""
    vocabulary: dict[str, int] = {}
    source_ids = [vocabulary.setdefault(token, len(vocabulary)) for token in source]
    target_ids = [vocabulary.setdefault(token, len(vocabulary)) for token in target]

    def ids(text: str) -> tuple[int, ...] | None:
        if not text:
            return ()
        found = [vocabulary.get(token) for token in text.split(" ")]
        known = [f for f in found if f is not None]
        return tuple(known) if len(known) == len(found) else None

    golds = [[(g.start, g.end, ids(g.original), [ids(c) for c in g.corrections])
              for g in gold] for gold in annotators]
    return source_ids, target_ids, golds
