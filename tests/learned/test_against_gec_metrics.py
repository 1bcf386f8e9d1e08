"""The learned metrics against gec-metrics on CoNLL-2014 outputs (four systems of different
kinds, the first 400 sentences: `conftest.FOUR`, `HEAD`), with models the tests made, at
sentence and corpus level.

Tolerance.  IMPARA, SOME and BERTScore run float32 models.  gec-metrics pads every batch of
32 to 128 tokens (BERTScore: the package's own batches), m2lsp pads length-sorted batches to
their longest sentence; the same sentence then goes through matrix products of other shapes,
whose float32 sums round differently.  On these models the largest difference seen is
2.3e-6, so sentence scores must agree within 1e-5 and corpus scores (means of 1,312 of
them) within 1e-6, and every threshold decision (IMPARA's zeros) must be the same.
Scribendi's scores are +1, 0 or -1: those must be identical."""

from __future__ import annotations

import copy
import inspect

import pytest

import m2lsp
from tests.learned.conftest import FOUR, HEAD

pytestmark = [pytest.mark.usefixtures("neural"), pytest.mark.slow]
SENTENCE, CORPUS = 1e-5, 1e-6


@pytest.fixture(scope="module")
def head(conll, tmp_path_factory):
    return conll.head(HEAD, FOUR, tmp_path_factory.mktemp("conll-head"))


def _mine(conll, name: str, metric: str, **options) -> m2lsp.Score:
    return m2lsp.score(conll.systems[name], metric=metric, sources=conll.sources,
                       **options)


def _close(theirs: list[float], mine: list[float]) -> None:
    assert len(theirs) == len(mine)
    worst = max(abs(a - b) for a, b in zip(theirs, mine, strict=True))
    assert worst < SENTENCE, worst


def test_impara(head, made, gec_metrics) -> None:
    conll = head
    reference = gec_metrics.IMPARA(gec_metrics.IMPARA.Config(
        model_qe=str(made["qe"]), model_se=str(made["se"]), no_cuda=True))
    zeros = 0
    for name, hypotheses in conll.systems.items():
        theirs = reference.score_sentence(conll.sources, hypotheses)
        mine = _mine(conll, name, "impara", impara_model_qe=str(made["qe"]),
                     impara_model_se=str(made["se"]))
        scores = mine.data["sentence_scores"]
        _close(theirs, scores)
        assert [s == 0 for s in theirs] == [s == 0 for s in scores]
        zeros += sum(s == 0 for s in scores)
        assert mine.score == pytest.approx(sum(theirs) / len(theirs), abs=CORPUS)
    assert zeros > 0  # the threshold was tested: some sentences fell below it


def test_some_on_the_cpu(head, made, gec_metrics) -> None:
    conll = head
    reference = remembered(gec_metrics.SOME(gec_metrics.SOME.Config(
        model_g=str(made["g"]), model_f=str(made["f"]), model_m=str(made["m"]),
        no_cuda=True)), "score_sentence")
    corpus = {}
    for name, hypotheses in conll.systems.items():
        theirs = reference.score_sentence(conll.sources, hypotheses)
        mine = _mine(conll, name, "some", some_model_g=str(made["g"]),
                     some_model_f=str(made["f"]), some_model_m=str(made["m"]),
                     some_no_cuda=True)
        _close(theirs, mine.data["sentence_scores"])
        assert mine.score == pytest.approx(reference.score_corpus(conll.sources, hypotheses),
                                           abs=CORPUS)
        corpus[name] = mine.score
    assert len({round(v, 6) for v in corpus.values()}) == 4  # the models tell systems apart


def test_scribendi_is_identical(head, made, gec_metrics) -> None:
    """On the first 300 sentences: gec-metrics' Levenshtein ratio is a pure-Python table
    (two minutes for all eight outputs); m2lsp's is RapidFuzz's Indel distance."""
    conll = head
    reference = gec_metrics.Scribendi(gec_metrics.Scribendi.Config(model=str(made["gpt2"]),
                                                                   no_cuda=True))
    sources = conll.sources[:300]
    totals = set()
    for hypotheses in conll.systems.values():
        theirs = reference.score_sentence(sources, hypotheses[:300])
        mine = m2lsp.score(hypotheses[:300], metric="scribendi", sources=sources,
                           scribendi_model=str(made["gpt2"]))
        assert mine.data["sentence_scores"] == theirs
        assert mine.score == reference.score_corpus(sources, hypotheses[:300])
        totals.add(mine.score)
    assert len(totals) == 4


def test_bertscore(head, made, gec_metrics) -> None:
    conll = head
    assert {len(r) for r in conll.references} == {2}  # both annotators, every sentence
    columns = [[refs[k] for refs in conll.references] for k in range(2)]
    options = {"model_type": str(made["bs"]), "num_layers": 2,
               "baseline_path": str(made["baseline"])}
    reference = remembered(gec_metrics.BertScore(gec_metrics.BertScore.Config(**options)),
                           "score_sentence")
    for name, hypotheses in conll.systems.items():
        theirs = reference.score_sentence(hypotheses, columns)
        mine = m2lsp.score(conll.path(name), conll.gold, metric="bertscore",
                           **{f"bertscore_{k}": v for k, v in options.items()})
        _close(theirs, mine.data["sentence_scores"])
        assert mine.score == pytest.approx(reference.score_corpus(hypotheses, columns),
                                           abs=CORPUS)


def remembered(reference, method: str):
    """`reference` (a gec-metrics metric), its `method` computing once for the same
    sentences: PT-ERRANT's corpus and sentence scores both start from `score_base`, which
    ran BERTScore on every edit again for each (half of its test's time), and SOME's and
    BERTScore's `score_corpus` is the mean of their `score_sentence`, which scored every
    sentence again; each call is given a copy of the same result, a function of the
    sentences alone."""
    compute, seen = getattr(reference, method), {}
    signature = inspect.signature(compute)

    def once(*args, **kwargs):
        given = signature.bind(*args, **kwargs).arguments
        key = tuple(tuple(tuple(x) if isinstance(x, list) else x for x in value)
                    for value in given.values())
        if key not in seen:
            seen[key] = compute(*args, **kwargs)
        return copy.deepcopy(seen[key])

    setattr(reference, method, once)
    return reference


def test_pt_errant(head, made, gec_metrics, english_pipeline) -> None:
    """On the first 60 sentences (gec-metrics calls BERTScore twice per sentence and
    reference: 140 s for 100).  A weight is a difference of two BERTScores, so float32
    noise is larger here (sentence F within 5e-5); and where two references give nearly
    the same corpus F, the noise can pick the other one (seen once on 800 sentences:
    2.5e-5 on CUUI's F), so corpus F agrees within 1e-4."""
    conll, count = head, 60
    sources = conll.sources[:count]
    columns = [[refs[k] for refs in conll.references[:count]] for k in range(2)]
    options = {"model_type": str(made["bs"]), "num_layers": 2,
               "baseline_path": str(made["baseline"])}
    reference = remembered(gec_metrics.PTERRANT(gec_metrics.PTERRANT.Config(
        weight_model_config=gec_metrics.BertScore.Config(**options))), "score_base")
    fs = set()
    for hypotheses in conll.systems.values():
        theirs = reference.score_corpus_verbose(sources, hypotheses[:count], columns)
        mine = m2lsp.score(hypotheses[:count], metric="pt-errant", sources=sources,
                           references=columns,
                           **{f"bertscore_{k}": v for k, v in options.items()})
        assert mine.f == pytest.approx(theirs.f, abs=1e-4)
        assert mine.tp == pytest.approx(theirs.tp, abs=1e-3)
        sentence = reference.score_sentence(sources, hypotheses[:count], columns)
        worst = max(abs(a - b) for a, b in zip(sentence, mine.data["sentence_scores"],
                                               strict=True))
        assert worst < 5e-5, worst
        fs.add(round(mine.f, 6))
    assert len(fs) == 4
