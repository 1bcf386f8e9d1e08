"""The four attributors of gec-metrics 0.1.2 as plans and combinations.

A sentence with edits e_1..e_n gets a score M(S, X) for its source S and each edited
sentence X; dM(X) = M(S, X) - M(S, S).  Each attributor names the edit subsets whose
sentences it needs (`plan`) and turns their dM into one number per edit (`combine`):

- add: dM of each edit alone, scaled so they sum to dM(H) (H: the hypothesis);
- sub: dM(H) - dM(all edits but one), scaled the same way;
- shapley: the Shapley value of each edit over all 2^n subsets (exact: exponential in n);
- shapley-sampling: the Shapley value over orders of the edits: all n! orders where there
  are no more than `samples`, else `samples` distinct random orders (an edit's value is the
  mean of what adding it changes along each order).

Sums run in gec-metrics' order, so the numbers are the same to the last digit.  Random orders
come from one generator for the whole corpus, drawn as gec-metrics draws them from Python's
`random` after `random.seed(seed)`: the sentence's indices shuffled in place, again and
again, an order kept when not drawn before.  (gec-metrics 0.1.2 keeps the one list it
shuffles, so every kept order is in fact its last; m2lsp keeps each order as drawn.)
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from m2lsp.errors import UsageError

ATTRIBUTORS = ("add", "sub", "shapley", "shapley-sampling")
SAMPLES = 64  # sampled Shapley's orders per sentence (gec-metrics' Config has no default)
MAX_EXACT = 10  # exact Shapley's most edits a sentence (2^10 = 1,024 sentences to score)

Subset = tuple[int, ...]  # edit indices (an order's prefix, for sampled Shapley)


@dataclass(frozen=True)
class Plan:
    """What one sentence's attribution scores: `subsets` (each an edit subset, in the
    order `combine` reads their dM) by `method` (shapley past its bound is
    shapley-sampling)."""

    method: str
    edits: int
    subsets: tuple[Subset, ...]
    orders: int = 0  # the orders sampled Shapley went through


@dataclass(frozen=True)
class Bounds:
    samples: int = SAMPLES
    max_exact: int = MAX_EXACT


def plan(method: str, edits: int, rng: random.Random, bounds: Bounds = Bounds()) -> Plan:
    """The subsets `method` scores for a sentence of `edits` edits (exact Shapley past
    `bounds.max_exact` edits: sampled Shapley)."""
    if method == "add":
        return Plan(method, edits, tuple((i,) for i in range(edits)))
    if method == "sub":
        return Plan(method, edits, tuple(tuple(j for j in range(edits) if j != i)
                                         for i in range(edits)))
    if method == "shapley" and edits <= bounds.max_exact:
        return Plan(method, edits, tuple(_members(mask, edits) for mask in range(2 ** edits)))
    if method in ("shapley", "shapley-sampling"):
        orders = _orders(edits, rng, bounds.samples)
        return Plan("shapley-sampling", edits,
                    tuple(order[:k + 1] for order in orders for k in range(edits)),
                    len(orders))
    raise UsageError(f"no attributor {method!r}: {', '.join(ATTRIBUTORS)}")


def _members(mask: int, size: int) -> Subset:
    return tuple(j for j in range(size) if (mask >> j) & 1)


def _orders(edits: int, rng: random.Random, samples: int) -> list[Subset]:
    """All orders of the edits (itertools' order) where there are no more than `samples`,
    else `samples` distinct ones drawn by shuffling one list in place."""
    if math.factorial(edits) <= samples:
        return list(itertools.permutations(range(edits)))
    current, seen = list(range(edits)), set()
    found: list[Subset] = []
    while len(found) < samples:
        rng.shuffle(current)
        if tuple(current) not in seen:
            seen.add(tuple(current))
            found.append(tuple(current))
    return found


def combine(chosen: Plan, deltas: Sequence[float], whole: float) -> list[float]:
    """Each edit's attribution from the dM of `chosen.subsets` (in its order) and
    `whole` = dM(H)."""
    if chosen.method == "add":
        return _scaled(list(deltas), whole)
    if chosen.method == "sub":
        return _scaled([whole - d for d in deltas], whole)
    if chosen.method == "shapley":
        return _shapley(chosen.edits, dict(zip(chosen.subsets, deltas, strict=True)))
    return _sampled(chosen, deltas)


def _scaled(values: list[float], whole: float) -> list[float]:
    """`values` scaled to sum to `whole` (all 0 where they sum to 0)."""
    total = sum(values)
    weight = 0 if total == 0 else whole / total
    return [weight * v for v in values]


def _shapley(edits: int, delta: dict[Subset, float]) -> list[float]:
    values = [0.0] * edits
    for i in range(edits):
        others = tuple(j for j in range(edits) if j != i)
        for mask in range(2 ** len(others)):
            subset = [others[k] for k in range(mask) if (mask >> k) & 1]
            weight = (math.factorial(len(subset)) * math.factorial(edits - len(subset) - 1)
                      / math.factorial(edits))
            values[i] += weight * (delta[tuple(sorted([*subset, i]))] - delta[tuple(subset)])
    return values


def _sampled(chosen: Plan, deltas: Sequence[float]) -> list[float]:
    values = [0.0] * chosen.edits
    size = chosen.edits
    for k in range(chosen.orders):
        prefixes = chosen.subsets[k * size:(k + 1) * size]
        batch = deltas[k * size:(k + 1) * size]
        for position, edit in enumerate(prefixes[-1]):
            values[edit] += batch[position] - (batch[position - 1] if position else 0)
    return [v / chosen.orders for v in values]
