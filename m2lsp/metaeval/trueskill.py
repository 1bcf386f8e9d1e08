"""TrueSkill of systems from pairwise human judgments, exactly as grammatical/evaluation's
scripts compute it (GJG15's `data/Makefile`, target `trueskill`; RevisitCGEC ranks its
systems with the same): `print_pairs.pl -r` turns each ranking into pairs, each of the
bootstrap runs is `wmt-trueskill/TS.py RUN -n 2 -d 0` (Sakaguchi et al. 2014), and
`eval/cluster.py -by-rank -i 0.95` ranks the systems by their mean mu over the runs and
clusters them by their rank ranges.

The scripts run on Python 2 and draw from Python's `random`, unseeded.  Run `k` here draws
from `random.Random(seed + k)` what the script draws after `random.seed(seed + k)`: one
`random()` to choose the second system (the first is the one with the largest sigma, ties
to the later name), one for the judgment (Python 2's `choice`: `seq[int(random() * n)]`).
The second system's chances are listed in the order Python 2 iterates a dict of the
systems, which this module computes (Python 2's string hash, without the hash
randomisation PYTHONHASHSEED would turn on, and its dict probing) -- so the runs, their mu
and sigma, and the printed ranking are the scripts' own.  The ratings are
the `trueskill` package's (m2lsp[meta-eval]), as the script's are."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from m2lsp.errors import InputError, UsageError
from m2lsp.metaeval.trueskill_pair import rate_pair
from m2lsp.summation import numpy_mean, numpy_std

Pair = tuple[str, str]
Ranks = tuple[str, str]  # as the script reads them: text


@dataclass(frozen=True)
class Comparisons:
    """The pairs of `print_pairs.pl -r` in file order: `systems` in order of first
    appearance, and each pair's rank pairs in order."""

    systems: tuple[str, ...]
    pairs: dict[Pair, list[Ranks]]

    @property
    def count(self) -> int:
        return sum(len(v) for v in self.pairs.values())


def printed_pairs(rankings: Iterable[tuple[str, Sequence[tuple[str, int]]]]
                  ) -> list[tuple[str, str, int, int]]:
    """The lines `print_pairs.pl -r` prints for rankings given as (user, ((system, rank),
    ...)) in file order (the admin's left out): ranks renumbered 1, 2, ... over those used;
    each rank's systems paired in name order, then with each worse rank's in its order."""
    out = []
    for user, ranked in rankings:
        if user == "admin":
            continue
        groups: dict[int, list[str]] = {}
        for system, rank in ranked:
            groups.setdefault(rank, []).append(system)
        levels = [groups[r] for r in sorted(groups)]
        for i, level in enumerate(levels):
            first = sorted(level)
            out += [(first[x], first[y], i + 1, i + 1) for x in range(len(first))
                    for y in range(x + 1, len(first))]
            for j in range(i + 1, len(levels)):
                for a in first:
                    for b in levels[j]:
                        out.append((a, b, i + 1, j + 1) if a < b else (b, a, j + 1, i + 1))
    return out


def comparisons(lines: Iterable[tuple[str, str, int, int]]) -> Comparisons:
    """What `TS.py` reads from those lines."""
    systems: dict[str, None] = {}
    pairs: dict[Pair, list[Ranks]] = {}
    for a, b, rank_a, rank_b in lines:
        systems.setdefault(a)
        systems.setdefault(b)
        key = (a, b) if a <= b else (b, a)
        pairs.setdefault(key, []).append((str(rank_a), str(rank_b)))
    return Comparisons(tuple(systems), pairs)


# -- Python 2's dict order ------------------------------------------------------------------

_MASK = (1 << 64) - 1


def py2_hash(text: str) -> int:
    """Python 2.7's hash of a byte string (64-bit, no -R), as an unsigned 64-bit value."""
    data = text.encode("utf-8")
    if not data:
        return 0
    x = (data[0] << 7) & _MASK
    for byte in data:
        x = ((1000003 * x) & _MASK) ^ byte
    x ^= len(data)
    return _MASK - 1 if x == _MASK else x  # a hash of -1 is -2


def py2_order(keys: Sequence[str]) -> list[str]:
    """The order Python 2.7 iterates a dict whose keys were inserted in this order."""
    size = 8
    table: list[str | None] = [None] * 8
    for used, key in enumerate(keys, 1):
        _insert(table, key)
        if used * 3 >= size * 2:  # fill == used: nothing is ever deleted
            size = _grown(4 * used)
            old: list[str | None] = table
            table = [None] * size
            for kept in old:
                if kept is not None:
                    _insert(table, kept)
    return [k for k in table if k is not None]


def _grown(minimum: int) -> int:
    size = 8
    while size <= minimum:
        size <<= 1
    return size


def _insert(table: list[str | None], key: str) -> None:
    mask = len(table) - 1
    hashed = py2_hash(key)
    i, perturb = hashed & mask, hashed
    while table[i & mask] is not None:
        i = ((i << 2) + i + perturb + 1) & _MASK
        perturb >>= 5
    table[i & mask] = key


# -- one run of TS.py -------------------------------------------------------------------------

SIGMA, TAU, DRAW = 0.5, 0.0, 0.25


def package() -> object:
    try:
        import trueskill
    except ImportError:
        raise UsageError("TrueSkill needs the trueskill package: pip install "
                         "'m2lsp[meta-eval]'") from None
    return trueskill


def run(found: Comparisons, rng: random.Random) -> dict[str, tuple[float, float]]:
    """One run of `TS.py -n 2 -d 0`: each system's (mu, sigma^2)."""
    skill = package()
    steps = found.count // 1 + 1  # the script's data points (Python 2's / on ints)
    env = skill.TrueSkill(mu=0.0, sigma=SIGMA, beta=SIGMA * (steps / 40.0), tau=TAU,  # type: ignore[attr-defined]
                          draw_probability=DRAW)
    env.make_as_global()
    ratings = {s: skill.Rating() for s in found.systems}  # type: ignore[attr-defined]
    order = py2_order(py2_order(list(found.systems)))  # get_mu_sigma's dict, iterated
    for _ in range(steps):
        pair = _next_pair(ratings, order, rng)
        observed = found.pairs.get(pair)
        if not observed:
            raise InputError(f"no judgment compares {pair[0]} and {pair[1]}: TS.py stops "
                             "here (random.choice of an empty list)")
        ranks = observed[int(rng.random() * len(observed))]
        ratings[pair[0]], ratings[pair[1]] = rate_pair(env, skill, ratings[pair[0]],
                                                       ratings[pair[1]], ranks)
    return {s: (r.mu, r.sigma * r.sigma) for s, r in ratings.items()}


def _next_pair(ratings: dict, order: Sequence[str], rng: random.Random) -> Pair:
    """next_comparison.get(..., 2): the system of largest sigma^2 (ties: the later name),
    and one other drawn with chance exp(-|mu difference|)."""
    first = max(order, key=lambda s: (ratings[s].sigma * ratings[s].sigma, s))
    others = [s for s in order if s != first]
    chances = [1. / math.exp(abs(ratings[first].mu - ratings[s].mu)) for s in others]
    cumulative = [sum(chances[:k + 1]) for k in range(len(chances))]
    cumulative = [c / cumulative[-1] for c in cumulative]
    drawn = rng.random()
    second = next(s for s, c in zip(others, cumulative, strict=True) if drawn < c)
    return (first, second) if first < second else (second, first)


Run = dict[str, tuple[float, float]]


def runs(found: Comparisons, count: int, seed: int, jobs: int | None = None) -> list[Run]:
    """`count` runs, run k from seed + k, in the order the Makefile's cluster.py reads
    them (the shell's sorted `run.*` names: 0, 1, 10, 100, 101, ...).  A run is kept in
    the cache by the pairs and its seed (a second meta-evaluation reads it back); the runs
    not kept are shared among `jobs` processes (default: the cores)."""
    seeds = [seed + k for k in sorted(range(count), key=str)]
    kept = _Kept(found)
    done = {s: r for s in seeds if (r := kept.get(s)) is not None}
    missing = [s for s in seeds if s not in done]
    for s, result in zip(missing, _computed(found, missing, jobs), strict=True):
        done[s] = kept.put(s, result)
    return [done[s] for s in seeds]


def _computed(found: Comparisons, seeds: list[int], jobs: int | None) -> list[Run]:
    from m2lsp.annotation.parallel import default_jobs

    workers = min(jobs or default_jobs(), len(seeds))
    if workers <= 1:
        return [run(found, random.Random(s)) for s in seeds]
    import concurrent.futures
    import multiprocessing

    context = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
        return list(pool.map(_seeded, [(found, s) for s in seeds]))


def _seeded(task: tuple[Comparisons, int]) -> Run:
    found, seed = task
    return run(found, random.Random(seed))


class _Kept:
    """Runs kept as JSON files under the cache folder, by a digest of the pairs."""

    def __init__(self, found: Comparisons) -> None:
        import hashlib
        import json

        from m2lsp.parsing.grammar import cache_dir

        text = json.dumps(["ts.py-v1", found.systems, sorted(found.pairs.items())])
        self.systems = set(found.systems)
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]
        base = cache_dir()
        self.folder = base / "trueskill" / digest if base is not None else None

    def get(self, seed: int) -> Run | None:
        import json

        if self.folder is None:
            return None
        try:
            data = json.loads((self.folder / f"run-{seed}.json").read_text())
            found = {s: (float(mu), float(var)) for s, (mu, var) in data.items()}
        except (OSError, ValueError, TypeError):
            return None
        return found if set(found) == self.systems else None

    def put(self, seed: int, result: Run) -> Run:
        import json

        from m2lsp.files.writing import write_atomic

        if self.folder is not None:
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                write_atomic(self.folder / f"run-{seed}.json", json.dumps(result))
            except OSError:
                pass
        return result


# -- cluster.py -by-rank -i 0.95 --------------------------------------------------------------


@dataclass(frozen=True)
class Ranked:
    system: str
    mu: float  # the mean mu over the runs (numpy's mean)
    low: float  # the rank range of the middle 95% of the runs
    high: float
    boundary: bool  # a cluster ends after this system


def ranked(results: Sequence[dict[str, tuple[float, float]]], interval: float = 0.95
           ) -> list[Ranked]:
    """The systems by mean mu, best first, with their rank ranges and cluster ends."""
    if not results:
        raise UsageError("TrueSkill needs at least one run")
    ranks: dict[str, list[int]] = {s: [] for s in results[0]}
    mus: dict[str, list[float]] = {s: [] for s in results[0]}
    for result in results:
        order = sorted(((mu, var, s) for s, (mu, var) in result.items()), reverse=True)
        for place, (_, _, system) in enumerate(order, 1):
            ranks[system].append(place)
        for system, (mu, _) in result.items():
            mus[system].append(mu)
    final = sorted(((numpy_mean(v), numpy_std(v), s) for s, v in mus.items()), reverse=True)
    ranges = [_range(sorted(ranks[s]), interval) for _, _, s in final]
    return [Ranked(s, mu, *ranges[i], _ends(i, ranges[i][1], [r[0] for r in ranges]))
            for i, (mu, _, s) in enumerate(final)]


def _range(values: list[int], interval: float) -> tuple[float, float]:
    count = len(values)
    alpha = math.ceil((count - (count * 1.0 * interval)) / 2.0)
    clipped = sorted(values[alpha:-alpha]) if alpha else []
    if not clipped:
        raise UsageError(f"too few TrueSkill runs ({count}) for a {interval:.0%} rank range")
    return round(float(clipped[0]), 3), round(float(clipped[-1]), 3)


def _ends(i: int, worst: float, bests: Sequence[float]) -> bool:
    return i != len(bests) - 1 and all(worst < h for h in bests[i + 1:])


def ranking_text(found: Sequence[Ranked]) -> str:
    """What cluster.py prints (TS.ranking.txt): `name mu (low, high)`, and `++++++++++`
    after each cluster but the last."""
    lines = []
    for entry in found:
        lines.append(f"{entry.system} {_py2_str(round(entry.mu, 3))} "
                     f"({_py2_repr(entry.low)}, {_py2_repr(entry.high)})")
        if entry.boundary:
            lines.append("+" * 10)
    return "\n".join(lines) + "\n"


def _py2_str(value: float) -> str:
    """Python 2.7's str() of a float (12 significant digits)."""
    text = f"{value:.12g}"
    return text if any(c in text for c in ".einf") else text + ".0"


def _py2_repr(value: float) -> str:
    return repr(value)
