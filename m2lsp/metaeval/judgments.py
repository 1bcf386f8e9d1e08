"""Human rankings in the Appraise XML format (GJG15's `judgments.xml`, SEEDA's
`judgments_{edit,sent}.xml`): each ranking item ranks several systems' corrections of one
sentence, 1 best, systems whose outputs were the same collapsed into one rank
(`system="RAC SJTU"`).  From them: each judgment's scores for the sentence level, and
Expected Wins for the system level, as GJG15's `EW.pl` computes it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from m2lsp.errors import InputError


@dataclass(frozen=True)
class Judgment:
    """One ranking item: the sentence (`src-id`, as the file numbers it), who ranked, and
    each ranked system's rank (1 best)."""

    sentence: int
    user: str
    ranks: tuple[tuple[str, int], ...]

    def scores(self, systems: Sequence[str]) -> list[float | None]:
        """Each of `systems`' score in this judgment (minus its rank: higher is better),
        None for a system it does not rank."""
        found = dict(self.ranks)
        return [-found[s] if s in found else None for s in systems]


def read_judgments(path: Path) -> list[Judgment]:
    """Every ranking item of an Appraise XML file, in file order (an InputError says what
    is wrong with a file that is not one)."""
    import xml.etree.ElementTree as ElementTree

    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError) as exc:
        raise InputError(f"{path}: not a readable Appraise XML file ({exc})") from None
    found = [_judgment(item, path) for item in root.iter("ranking-item")]
    if not found:
        raise InputError(f"{path}: no <ranking-item> (an Appraise ranking file has them)")
    return found


def _judgment(item: object, path: Path) -> Judgment:
    attributes = item.attrib  # type: ignore[attr-defined]
    ranks = []
    for translation in item.iter("translation"):  # type: ignore[attr-defined]
        try:
            rank = int(translation.attrib["rank"])
        except (KeyError, ValueError):
            raise InputError(f"{path}: ranking item {attributes.get('id')}: a translation "
                             "without an integer rank") from None
        ranks += [(system, rank) for system in translation.attrib.get("system", "").split()]
    try:
        sentence = int(attributes["src-id"])
    except (KeyError, ValueError):
        raise InputError(f"{path}: ranking item {attributes.get('id')}: no integer "
                         "src-id") from None
    return Judgment(sentence, attributes.get("user", ""), tuple(ranks))


def expected_wins(judgments: Sequence[Judgment], ties: bool = False) -> dict[str, float]:
    """Expected Wins of each system (GJG15's `EW.pl`, Bojar et al. 2013): every judgment
    gives a win to the better of each pair of systems it ranks differently; a system's
    score is the mean, over the systems it beat at least once, of its share of the wins
    between the two.  The admin user's rankings, and those without a user, are left out,
    as the script leaves them;
    `ties` counts a tie as a win for both (its -t).  Systems that never win are not
    ranked (the script ranks only those)."""
    wins: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for judgment in judgments:
        if judgment.user in ("admin", ""):
            continue
        for a, rank_a in judgment.ranks:
            for b, rank_b in judgment.ranks:
                if a != b and (rank_a < rank_b or (ties and rank_a == rank_b)):
                    wins[a][b] += 1
    return {system: sum(won / (won + wins.get(other, {}).get(system, 0))
                        for other, won in beaten.items()) / len(beaten)
            for system, beaten in wins.items()}


def pairwise(judgments: Sequence[Judgment]) -> dict[tuple[str, str], list[tuple[int, int]]]:
    """Every pair of systems a ranking item ranks, with their two ranks, by the pair (names
    in sorted order): what GJG15's `print_pairs.pl -r` gives TrueSkill (ranks renumbered
    1, 2, ... over the ranks the item uses; the admin user left out)."""
    found: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    for judgment in judgments:
        if judgment.user in ("admin", ""):
            continue
        renumbered = {rank: k for k, rank in enumerate(sorted({r for _, r in judgment.ranks}), 1)}
        ranked = sorted((s, renumbered[r]) for s, r in judgment.ranks)
        for i, (a, rank_a) in enumerate(ranked):
            for b, rank_b in ranked[i + 1:]:
                if a != b:
                    found[(a, b)].append((rank_a, rank_b))
    return found


def trueskill(judgments: Sequence[Judgment], runs: int = 10, seed: int = 12345
              ) -> dict[str, float]:
    """TrueSkill of each system (Sakaguchi et al. 2014, as WMT and GJG15 ran it: mu 0,
    sigma 0.5, beta = sigma * iterations / 40, tau 0, draw probability 0.25; one pairwise
    judgment a step, the pair chosen by the uncertainty of the ratings), the mean mu of
    `runs` runs from `seed`.  Needs the `trueskill` package (m2lsp[meta-eval])."""
    import random

    try:
        import trueskill as package
    except ImportError:
        from m2lsp.errors import UsageError

        raise UsageError("TrueSkill rankings need the trueskill package: pip install "
                         "'m2lsp[meta-eval]'") from None
    pairs = pairwise(judgments)
    systems = sorted({s for pair in pairs for s in pair})
    steps = sum(len(v) for v in pairs.values()) + 1
    rng = random.Random(seed)
    totals = dict.fromkeys(systems, 0.0)
    for _ in range(runs):
        for system, mu in _trueskill_run(package, pairs, systems, steps, rng).items():
            totals[system] += mu
    return {s: v / runs for s, v in totals.items()}


def _trueskill_run(package: object, pairs: dict[tuple[str, str], list[tuple[int, int]]],
                   systems: list[str], steps: int, rng: object) -> dict[str, float]:
    import math

    env = package.TrueSkill(mu=0.0, sigma=0.5, beta=0.5 * (steps / 40.0), tau=0.0,  # type: ignore[attr-defined]
                            draw_probability=0.25)
    ratings = {s: env.create_rating() for s in systems}
    for _ in range(steps):
        first = max(systems, key=lambda s: (ratings[s].sigma, s))
        others = [s for s in systems if s != first]
        weights = [1 / math.exp(abs(ratings[first].mu - ratings[s].mu)) for s in others]
        second = rng.choices(others, weights)[0]  # type: ignore[attr-defined]
        pair = (first, second) if first < second else (second, first)
        if pair not in pairs:
            continue
        ranks = rng.choice(pairs[pair])  # type: ignore[attr-defined]
        (a,), (b,) = env.rate([[ratings[pair[0]]], [ratings[pair[1]]]], ranks=list(ranks))
        ratings[pair[0]], ratings[pair[1]] = a, b
    return {s: r.mu for s, r in ratings.items()}
