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
from typing import Any

from m2lsp.errors import InputError


@dataclass(frozen=True)
class Judgment:
    """One ranking item: the sentence (`src-id`, as the file numbers it), who ranked, and
    each ranked system's rank (1 best)."""

    sentence: int
    user: str
    ranks: tuple[tuple[str, int], ...]
    doc: str = ""  # the document (doc-id) where src-ids count per document (RevisitCGEC)

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
    return Judgment(sentence, attributes.get("user", ""), tuple(ranks),
                    attributes.get("doc-id", ""))


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


def trueskill(judgments: Sequence[Judgment], runs: int = 10, seed: int = 12345
              ) -> dict[str, float]:
    """TrueSkill of each system as grammatical/evaluation's scripts compute it (see
    metaeval.trueskill; Sakaguchi et al. 2014's settings: mu 0, sigma 0.5, beta = sigma *
    steps / 40, tau 0, draw probability 0.25), the mean mu of `runs` runs, run k seeded
    with seed + k.  Needs the `trueskill` package (m2lsp[meta-eval])."""
    from m2lsp.metaeval import trueskill as skill
    from m2lsp.summation import numpy_mean

    results = skill.runs(compared(judgments), runs, seed)
    return {s: numpy_mean([r[s][0] for r in results]) for s in results[0]}


def compared(judgments: Sequence[Judgment]) -> Any:
    """The judgments' pairs as TrueSkill reads them (`print_pairs.pl -r`)."""
    from m2lsp.metaeval import trueskill as skill

    return skill.comparisons(skill.printed_pairs((j.user, j.ranks) for j in judgments))
