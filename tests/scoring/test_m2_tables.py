"""The M2 scorer on hand-computed tables, and each behaviour of NUS M2 scorer 3.2 that
changes a printed digit, by name.  Expected values were worked out by hand and checked
against release 3.2 run under Python 2.7."""

from __future__ import annotations

import pytest

from m2lsp.scoring.m2.lattice import EPSILON, SentenceLattice
from m2lsp.scoring.m2.maxmatch import M2Settings, score_texts
from m2lsp.scoring.m2.report import shrink, summary

README_GOLD = """S The cat sat at mat .
A 3 4|||Prep|||on|||REQUIRED|||-NONE-|||0
A 4 4|||ArtOrDet|||the||a|||REQUIRED|||-NONE-|||0

S The dog .
A 1 2|||NN|||dogs|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||-NONE-|||-NONE-|||1

S Giant otters is an apex predator .
A 2 3|||SVA|||are|||REQUIRED|||-NONE-|||0
A 3 4|||ArtOrDet|||-NONE-|||REQUIRED|||-NONE-|||0
A 5 6|||NN|||predators|||REQUIRED|||-NONE-|||0
A 1 2|||NN|||otter|||REQUIRED|||-NONE-|||1
"""
README_SYSTEM = "A cat sat on the mat .\nThe dog .\nGiant otters are apex predator .\n"


def edits(result, index=0):
    return [tuple(e) for e in reversed(result.sentences[index].best.system)]


def test_the_m2scorer_readme_example() -> None:
    """4 valid edits, 1 unnecessary, 1 missed: P = R = F0.5 = 0.8."""
    result = score_texts(README_GOLD, README_SYSTEM)
    assert summary(result.score) == ("Precision   : 0.8000\nRecall      : 0.8000\n"
                                     "F_0.5       : 0.8000\n")
    first, second, third = result.sentences
    assert first.best.counts == (2, 3, 2)  # alternative corrections: `the` of `the||a`
    assert second.best.annotator == 1 and second.best.counts == (0, 0, 0)  # the noop annotator
    assert third.best.annotator == 0 and third.best.counts == (2, 2, 3)


def test_the_paper_example_matches_the_phrase_edit() -> None:
    """"feeds word" -> "feeds a word": the gold edit (4, 5, 'word', 'a word') is a
    transitive edge of the lattice and wins.  Without it, the single insertion and the
    edit merged with its unchanged neighbours cost the same (3.001), and the merged edge,
    relaxed first, wins; -v prints it shrunk to the insertion."""
    gold = ("S Our baseline system feeds word into PB-SMT pipeline .\n"
            "A 4 5|||ArtOrDet|||a word||words|||REQUIRED|||-NONE-|||0\n")
    result = score_texts(gold, "Our baseline system feeds a word into PB-SMT pipeline .\n")
    assert edits(result) == [(4, 5, "word", "a word")]
    assert (result.score.precision, result.score.recall, result.score.f) == (1.0, 1.0, 1.0)
    without_gold = score_texts("S Our baseline system feeds word into PB-SMT pipeline .\n",
                               "Our baseline system feeds a word into PB-SMT pipeline .\n")
    assert edits(without_gold) == [(3, 5, "feeds word", "feeds a word")]
    assert shrink(without_gold.sentences[0].best.system[0]) == (4, 4, "", "a")


@pytest.mark.parametrize(("gold", "system", "expected"), [
    # nothing to do, nothing done: 0/0 precision and recall count as 1
    ("S a b .\n", "a b .\n", (1.0, 1.0, 1.0)),
    # edits where the gold has none: P = 0, R = 0/0 = 1, F = 0
    ("S a b .\n", "a c .\n", (0.0, 1.0, 0.0)),
    # a missed gold edit: P = 0/0 = 1, R = 0
    ("S a b .\nA 1 2|||X|||c|||REQUIRED|||-NONE-|||0\n", "a b .\n", (1.0, 0.0, 0.0)),
    # a deletion given as -NONE-
    ("S a b .\nA 1 2|||X|||-NONE-|||REQUIRED|||-NONE-|||0\n", "a .\n", (1.0, 1.0, 1.0)),
])
def test_denominators_and_deletions(gold, system, expected) -> None:
    score = score_texts(gold, system).score
    assert (score.precision, score.recall, score.f) == expected


def test_beta_weighs_recall() -> None:
    gold = ("S a b c d .\nA 0 1|||X|||w|||REQUIRED|||-NONE-|||0\n"
            "A 1 2|||X|||x|||REQUIRED|||-NONE-|||0\nA 3 4|||X|||z|||REQUIRED|||-NONE-|||0\n")
    system = "w b y d .\n"  # 1 of 2 proposed correct, 1 of 3 gold found
    assert score_texts(gold, system, M2Settings(beta=1.0)).score.f == pytest.approx(0.4)
    assert score_texts(gold, system, M2Settings(beta=0.5)).score.f == pytest.approx(
        1.25 * 0.5 * (1 / 3) / (0.25 * 0.5 + 1 / 3))


# ---------------------------------------------------------------------------------------
# Release 3.2's behaviours, by name

def test_quirk_row0_insertions_are_recorded_at_the_hypothesis_position() -> None:
    """3.2 records an insertion before the first source token at offset j-1, so two inserted
    tokens make the edit (0, 1, 'cat', 'The big cat'), which never equals the gold (0, 0,
    '', 'The big'): P = R = 0 in release 3.2 (the repository's later master prints 1.0; the
    issue tracker's "0.5" is not what 3.2 prints)."""
    result = score_texts("S cat sat .\nA 0 0|||X|||The big|||REQUIRED|||-NONE-|||0\n",
                         "The big cat sat .\n")
    assert edits(result) == [(0, 1, "cat", "The big cat")]
    assert (result.score.precision, result.score.recall) == (0.0, 0.0)
    assert shrink(result.sentences[0].best.system[0]) == (0, 0, "", "The big")


def test_quirk_python2_dict_order_decides_annotator_ties() -> None:
    """On a complete tie the annotator tried first wins; the scorer tries them in Python 2.7
    dict order: ascending for small ids (0 before 1 even when 1's lines come first), but 8
    shares 0's slot in an 8-slot table and, inserted first, comes before it."""
    line = "A 0 1|||X|||z|||REQUIRED|||-NONE-|||{}\n"
    for first, second, order, winner in ((1, 0, [0, 1], 0), (8, 0, [8, 0], 8),
                                          (0, 8, [0, 8], 0)):
        gold = "S a b c\n" + line.format(first) + line.format(second)
        sentence = score_texts(gold, "z b c\n").sentences[0]
        assert [a.annotator for a in sentence.attempts] == order
        assert sentence.best.annotator == winner


def test_quirk_choice_maximises_cumulative_f_then_correct_then_fewer_edits() -> None:
    """Sentence 2 alone would prefer annotator 1 (no gold edit, nothing proposed: F = 1), but
    the choice maximises the F of the running totals: with sentence 1's 1 correct of 1
    proposed, annotator 0 (1 correct of 1, 1 missed) gives a higher cumulative F."""
    gold = ("S a b\nA 0 1|||X|||z|||REQUIRED|||-NONE-|||0\n\n"
            "S c d e\nA 0 1|||X|||y|||REQUIRED|||-NONE-|||0\n"
            "A 2 3|||X|||w|||REQUIRED|||-NONE-|||0\n"
            "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n")
    result = score_texts(gold, "z b\ny d e\n")
    assert result.sentences[1].best.annotator == 0
    assert result.score.counts.correct == 2 and result.score.counts.gold == 3


def test_quirk_edges_in_both_lattices_are_listed_and_weighed_twice() -> None:
    """The substitution b -> c is on a shortest path with substitution cost 1 and with cost 2
    (where it ties with delete + insert), so the merged edge list has it twice and its
    epsilon is added twice."""
    lattice = SentenceLattice(["a", "b"], ["a", "c"])
    sub = (1 * lattice.width + 1) * lattice.size + (2 * lattice.width + 2)
    assert lattice.edges.count(sub) == 2
    assert lattice.weights([])[sub] == 1 + EPSILON + EPSILON


def test_quirk_removing_unchanged_edges_skips_the_next_one() -> None:
    """Transitive unchanged-only edges are deleted while the list is being iterated, so the
    element after each deleted one survives (here: one of the two `b c` / `c d` edges)."""
    lattice = SentenceLattice(["a", "b", "c", "d"], ["x", "b", "c", "d"])
    survivors = [e for e in lattice.edges
                 if lattice.info[e].kind == 3 and lattice.info[e].dist > 1]
    assert survivors, "some unchanged-only transitive edge survives the removal"


def test_quirk_bellman_ford_first_relaxation_wins_ties() -> None:
    """`the the cat` -> `the cat`: deleting either `the` costs the same; the merged edge
    found first by Bellman-Ford's relaxation order covers the whole sentence, and the
    verbose edit sequence shows it shrunk to (1, 2, 'the', '')."""
    result = score_texts("S the the cat\n", "the cat\n")
    assert edits(result) == [(0, 3, "the the cat", "the cat")]
    assert shrink(result.sentences[0].best.system[0]) == (1, 2, "the", "")


def test_quirk_ignore_whitespace_casing_does_not_apply_to_gold_matching() -> None:
    """The flag drops system edits that only change case or spaces, but a system edit is
    still compared with gold edits exactly: `dogs` does not match a gold `Dogs`."""
    gold = "S The dog .\nA 1 2|||X|||Dogs|||REQUIRED|||-NONE-|||0\n"
    settings = M2Settings(ignore_whitespace_casing=True)
    assert score_texts(gold, "The dogs .\n", settings).score.counts.correct == 0
    assert score_texts(gold, "The Dogs .\n", settings).score.counts.correct == 1
    case_only = score_texts("S The dog .\n", "the dog .\n", settings)
    assert case_only.score.counts.proposed == 0


def test_quirk_a_system_edit_counts_once_per_equal_gold_edit() -> None:
    """Matching does not stop at the first equal gold edit: a duplicated gold edit makes one
    system edit count as two correct edits (and two gold edits)."""
    gold = ("S a b .\nA 1 2|||X|||c|||REQUIRED|||-NONE-|||0\n"
            "A 1 2|||X|||c|||REQUIRED|||-NONE-|||0\n")
    counts = score_texts(gold, "a c .\n").score.counts
    assert (counts.correct, counts.proposed, counts.gold) == (2, 1, 2)


def test_quirk_unsorted_gold_edits_lose_matches() -> None:
    """Matching resumes after the last matched gold edit, in file order: with the gold edits
    in reverse order only one of two correct system edits is counted."""
    gold = ("S a b c d\nA 3 4|||X|||z|||REQUIRED|||-NONE-|||0\n"
            "A 0 1|||X|||y|||REQUIRED|||-NONE-|||0\n")
    assert score_texts(gold, "y b c z\n").score.counts.correct == 1


def test_quirk_out_of_range_and_noop_edits_are_dropped_but_annotators_stay() -> None:
    gold = ("S a b\nA 1 5|||X|||c|||REQUIRED|||-NONE-|||0\n"
            "A 0 0|||noop|||-NONE-|||REQUIRED|||-NONE-|||1\n")
    sentence = score_texts(gold, "a b\n").sentences[0]
    assert [(a.annotator, a.gold) for a in sentence.attempts] == [(0, ()), (1, ())]


def test_quirk_blocks_without_a_blank_line_share_their_edits() -> None:
    """With no blank line between two S lines (rule M005) the scorer reads one block: every
    edit is checked against both sentences, offsets counted from the block's first token."""
    gold = "S a b\nS c d\nA 2 3|||X|||z|||REQUIRED|||-NONE-|||0\n"
    first, second = score_texts(gold, "a b\nz d\n").sentences
    assert first.best.gold == ()  # offset 2 is past sentence 1's two tokens
    assert second.best.gold[0][:3] == (2, 3, "c")  # the block's token 2 is `c`
    assert second.best.counts == (0, 1, 1)  # and the system edit is at sentence offset 0
