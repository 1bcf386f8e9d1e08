"""`m2lsp compare`'s statistics: p-values that say which alternative they test, agree with the
interval printed beside them, match hand-worked tables and SciPy's paired resampling, and a
`--metric` choice for every metric that can be compared (and none other)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from m2lsp.cli import main
from m2lsp.scoring.bootstrap import bootstrap_p, compare, randomisation_p
from m2lsp.scoring.metric import comparable, metric, names
from tests.conftest import SHARED_DATA

DATA = SHARED_DATA / "conll2014"

# resampled differences M(A) - M(B) -> the bootstrap p of each alternative, worked by hand:
# greater = share <= 0, less = share >= 0, two-sided = 2 * the smaller share (at most 1)
BOOTSTRAP_TABLE = [
    ([0.1, 0.2, 0.3, -0.1], {"greater": 0.25, "less": 0.75, "two-sided": 0.5}),
    ([0.1, 0.2, 0.3, 0.4], {"greater": 0.0, "less": 1.0, "two-sided": 0.0}),
    ([0.0, 0.2, 0.3, 0.4], {"greater": 0.25, "less": 1.0, "two-sided": 0.5}),
    ([-0.2, -0.1, 0.1, 0.2], {"greater": 0.5, "less": 0.5, "two-sided": 1.0}),
    ([0.0, 0.0], {"greater": 1.0, "less": 1.0, "two-sided": 1.0}),
    ([-0.3, -0.2, -0.1, 0.5, -0.4], {"greater": 0.8, "less": 0.2, "two-sided": 0.4}),
]


@pytest.mark.parametrize(("differences", "expected"), BOOTSTRAP_TABLE)
def test_bootstrap_p_by_hand(differences, expected) -> None:
    for alternative, p in expected.items():
        assert bootstrap_p(differences, alternative) == pytest.approx(p), alternative


# shuffled differences, the observed one -> (r + 1) / (n + 1) for each alternative
RANDOMISATION_TABLE = [
    ([0.1, -0.1, 0.3, -0.3], 0.2, {"greater": 2 / 5, "less": 4 / 5, "two-sided": 3 / 5}),
    ([0.1, -0.1, 0.05, -0.05], 0.2, {"greater": 1 / 5, "less": 5 / 5, "two-sided": 1 / 5}),
    ([0.2, -0.2, 0.0], -0.2, {"greater": 4 / 4, "less": 2 / 4, "two-sided": 3 / 4}),
]


@pytest.mark.parametrize(("shuffled", "observed", "expected"), RANDOMISATION_TABLE)
def test_randomisation_p_by_hand(shuffled, observed, expected) -> None:
    for alternative, p in expected.items():
        assert randomisation_p(shuffled, observed, alternative) == pytest.approx(p)


def _f05(row: tuple[float, ...]) -> tuple[float, ...]:
    tp, fp, fn = row
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    f = 1.25 * p * r / (0.25 * p + r) if p + r else 0.0
    return (p, r, f)


def _systems(n: int, seed: int) -> tuple[list[tuple[float, ...]], list[tuple[float, ...]]]:
    """Two systems' per-sentence (TP, FP, FN) counts, A somewhat better than B."""
    rng = random.Random(seed)
    a, b = [], []
    for _ in range(n):
        gold = rng.randint(0, 3)
        found_a, found_b = rng.randint(0, gold), rng.randint(0, gold) if rng.random() < .7 else 0
        a.append((found_a, rng.randint(0, 1), gold - found_a))
        b.append((found_b, rng.randint(0, 2), gold - found_b))
    return a, b


def test_randomisation_agrees_with_scipys_exact_paired_permutation_test() -> None:
    """With 10 sentences SciPy enumerates all 1,024 swaps; 20,000 random ones come close."""
    stats = pytest.importorskip("scipy.stats")
    a, b = _systems(10, seed=4)

    import numpy as np

    rows = np.array(a + b, dtype=float)  # A's sentences, then B's: a swap trades index i, i+n

    def difference(x, y):
        return (_f05(tuple(rows[x.astype(int)].sum(axis=0)))[2]
                - _f05(tuple(rows[y.astype(int)].sum(axis=0)))[2])

    xa, xb = np.arange(len(a)), np.arange(len(a), 2 * len(a))
    for alternative in ("two-sided", "greater", "less"):
        exact = stats.permutation_test(
            (xa, xb), difference, permutation_type="samples", vectorized=False,
            n_resamples=10_000, alternative=alternative).pvalue
        ours = compare(a, b, _f05, 2, samples=20_000, seed=7, alternative=alternative)
        assert ours.p_randomised == pytest.approx(exact, abs=0.015), alternative


def test_bootstrap_agrees_with_scipys_paired_bootstrap() -> None:
    """The interval against SciPy's paired percentile bootstrap, and the p-value against the
    same rule applied to SciPy's resampled differences (both within resampling noise)."""
    stats = pytest.importorskip("scipy.stats")
    import numpy as np

    a, b = _systems(150, seed=11)
    xa, xb = np.array(a, dtype=float), np.array(b, dtype=float)

    def difference(ia, axis=-1):
        ia = ia.astype(int)
        return _f05(tuple(xa[ia].sum(axis=0)))[2] - _f05(tuple(xb[ia].sum(axis=0)))[2]

    found = stats.bootstrap((np.arange(len(a)),), difference, vectorized=False,
                            n_resamples=5_000, method="percentile", random_state=3)
    theirs = list(found.bootstrap_distribution)
    ours = compare(a, b, _f05, 2, samples=5_000, seed=3)
    assert ours.difference.low == pytest.approx(found.confidence_interval.low, abs=0.01)
    assert ours.difference.high == pytest.approx(found.confidence_interval.high, abs=0.01)
    for alternative in ("two-sided", "greater", "less"):
        assert bootstrap_p(
            [d for d in _resampled(ours, a, b)], alternative) == pytest.approx(
            bootstrap_p(theirs, alternative), abs=0.03), alternative


def _resampled(found, a, b) -> list[float]:
    from m2lsp.scoring.bootstrap import Columns, resamples

    ca, cb = Columns(a), Columns(b)
    return [_f05(ca.sums(s))[2] - _f05(cb.sums(s))[2]
            for s in resamples(len(a), found.samples, found.seed)]


def test_two_sided_p_agrees_with_the_interval_on_random_systems() -> None:
    """A two-sided bootstrap p below 0.05 exactly when the 95% interval excludes 0 (up to the
    one resample on the percentile's edge)."""
    for seed in range(30):
        a, b = _systems(60, seed)
        found = compare(a, b, _f05, 2, samples=400, seed=seed)
        excludes = found.difference.low > 0 or found.difference.high < 0
        if excludes:
            assert found.p_value <= 0.05 + 2 / 400, seed
        else:
            assert found.p_value >= 0.05 - 2 / 400, seed


@pytest.mark.skipif(not DATA.is_dir(), reason="needs ../shared/data/conll2014")
def test_compare_camb_amu_two_sided_by_default(capsys) -> None:
    """The repro: an interval that holds 0 beside a p below 0.05 (it was one-sided)."""
    systems, gold = DATA / "systems", str(DATA / "gold" / "official-2014.combined.m2")
    assert main(["compare", str(systems / "CAMB"), str(systems / "AMU"), gold]) == 0
    out = capsys.readouterr().out
    assert "[-0.0006, +0.0470]" in out
    assert "p = 0.060 (two-sided, paired bootstrap" in out
    assert "p = 0.044 (two-sided, paired approximate randomisation" in out
    assert "alternative: two-sided (A and B differ)" in out
    assert main(["compare", str(systems / "CAMB"), str(systems / "AMU"), gold,
                 "--alternative", "greater"]) == 0
    assert "p = 0.030 (greater, paired bootstrap" in capsys.readouterr().out


def test_compare_offers_exactly_the_metrics_it_can_compare(tmp_path, capsys) -> None:
    assert comparable() == [n for n in names() if metric(n).per_sentence]
    assert set(comparable()) == {"m2", "errant", "cherrant", "cgec", "green", "cleme",
                                 "impara", "some", "scribendi", "bertscore", "gotoscorer",
                                 "pt-errant", "pt-m2", "llm-s", "llm-e"}
    for name in set(names()) - set(comparable()):
        with pytest.raises(SystemExit) as stop:
            main(["compare", "a", "b", "gold", "--metric", name])
        assert stop.value.code == 2
        assert f"unknown --metric '{name}'" in capsys.readouterr().err


def test_every_offered_metric_compares(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    Path("gold.m2").write_text("S a b .\nA 1 2|||R:NOUN|||c|||REQUIRED|||-NONE-|||0\n\n"
                               "S d e .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n")
    Path("a.txt").write_text("a c .\nd e .\n")
    Path("b.txt").write_text("a b .\nd e .\n")
    Path("a.m2").write_text("S a b .\nA 1 2|||R:NOUN|||c|||REQUIRED|||-NONE-|||0\n\n"
                            "S d e .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n")
    Path("b.m2").write_text("S a b .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n"
                            "S d e .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n")
    inputs = {"m2": ("a.txt", "b.txt"), "errant": ("a.m2", "b.m2"), "cherrant": ("a.m2", "b.m2"),
              "cgec": ("a.txt", "b.txt"), "green": ("a.txt", "b.txt"),
              "cleme": ("a.m2", "b.m2"), "gotoscorer": ("a.txt", "b.txt")}
    # the metrics with models compare in tests/learned (test_compare_and_report)
    assert set(comparable()) - set(inputs) == {"impara", "some", "scribendi", "bertscore",
                                               "pt-errant", "pt-m2", "llm-s", "llm-e"}
    for name in inputs:
        a, b = inputs[name]
        assert main(["compare", a, b, "gold.m2", "--metric", name, "--samples", "50"]) == 0, name
        assert "(two-sided, paired bootstrap" in capsys.readouterr().out, name
