"""Every public function of the API, called with a value of the wrong type in one of its
arguments (the others right): it scores, or raises an M2lspError (UsageError for a wrong
type, InputError for an input that cannot be used) -- never TypeError, AttributeError,
FileNotFoundError or anything else of Python's."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import m2lsp

GOLD = ("S The cat sat on mat .\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n\n"
        "S It is fine .\nA -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0\n\n")
SYSTEM = ["The dog sat on mat .", "It is fine ."]
SOURCES = ["The cat sat on mat .", "It is fine ."]

WRONG = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
    st.binary(max_size=8), st.just(bytearray(b"ab")), st.complex_numbers(),
    st.lists(st.integers(), min_size=1, max_size=3), st.lists(st.none(), min_size=1,
                                                              max_size=20),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.just(object()), st.just(Path("/dev/zero")), st.just(Path("/")),
    st.just(Path("/no/such/file.m2")), st.just(""), st.just([["a", 1]]),
    st.just([b"x"]), st.just((1, 2)), st.just({"a"}), st.just(iter(["a"])),
    st.just(["line\nbreak"]), st.just(float("inf")))


def _scorer_call(method: str) -> Callable[..., Any]:
    def call(**kwargs: Any) -> Any:
        scorer = m2lsp.Scorer("m2", gold=GOLD)
        try:
            if method == "update":
                scorer.update(kwargs.get("hypotheses", SYSTEM), ids=kwargs.get("ids"))
                return scorer.compute()
            return scorer.score(kwargs.get("system", SYSTEM), ids=kwargs.get("ids"))
        finally:
            scorer.close()
    return call


def _sentence_score(**kwargs: Any) -> Any:
    from m2lsp.metrics import M2

    return M2().sentence_score(kwargs.get("hypothesis", SYSTEM[0]),
                               kwargs.get("references", [SYSTEM[0]]),
                               source=kwargs.get("source", SOURCES[0]))


def _corpus_score(**kwargs: Any) -> Any:
    from m2lsp.metrics import GLEU

    return GLEU().corpus_score(kwargs.get("hypotheses", SYSTEM),
                               kwargs.get("references", [SYSTEM]),
                               sources=kwargs.get("sources", SOURCES))


def _compute_metrics(**kwargs: Any) -> Any:
    from m2lsp.trainer import compute_metrics

    return compute_metrics(kwargs.get("tokenizer", object()), gold=kwargs.get("gold", GOLD))


def _confidence(**kwargs: Any) -> Any:
    return m2lsp.score(SYSTEM, gold=GOLD).confidence(**kwargs)


# (call, its right arguments): each argument in turn is replaced by a wrong value
CALLS: list[tuple[str, Callable[..., Any], dict[str, Any]]] = [
    ("score", lambda **k: m2lsp.score(k.pop("system"), **k),
     {"system": SYSTEM, "gold": GOLD, "metric": "m2", "beta": 0.5}),
    ("score gleu", lambda **k: m2lsp.score(k.pop("system"), **k),
     {"system": SYSTEM, "metric": "gleu", "sources": SOURCES, "references": [SYSTEM]}),
    ("Scorer", lambda **k: m2lsp.Scorer(k.pop("metric"), **k).close(),
     {"metric": "m2", "gold": GOLD, "max_unchanged_words": 2}),
    ("Scorer.score", _scorer_call("score"), {"system": SYSTEM, "ids": [0, 1]}),
    ("Scorer.update", _scorer_call("update"), {"hypotheses": SYSTEM, "ids": [0, 1]}),
    ("compare", lambda **k: m2lsp.compare(k.pop("a"), k.pop("b"), k.pop("gold"), **k),
     {"a": SYSTEM, "b": SOURCES, "gold": GOLD, "samples": 10, "seed": 1,
      "alternative": "two-sided"}),
    ("annotate", lambda **k: m2lsp.annotate(k.pop("sources"), k.pop("corrections"), **k),
     {"sources": SOURCES, "corrections": SYSTEM, "lang": "zh", "jobs": 1}),
    ("check", lambda **k: m2lsp.check(k.pop("text"), **k), {"text": GOLD, "format": "m2"}),
    ("agree", lambda **k: m2lsp.agree(k.pop("gold"), **k),
     {"gold": GOLD, "metric": "m2", "beta": 0.5}),
    ("rank_systems", lambda **k: m2lsp.rank_systems(k.pop("systems"), **k),
     {"systems": [SYSTEM, SOURCES], "gold": GOLD, "metric": "m2",
      "aggregation": "expected-wins"}),
    ("report", lambda **k: m2lsp.report(k.pop("gold"), k.pop("systems"), **k),
     {"gold": GOLD, "systems": [SYSTEM], "samples": 10, "format": "json"}),
    ("meta_eval", lambda **k: m2lsp.meta_eval(k.pop("dataset"), **k),
     {"dataset": "seeda", "data": "/no/such/folder", "scores": {"x": "f.tsv"},
      "metrics": ["m2"], "bootstrap": 0, "window": 0}),
    ("evaluate_module", lambda **k: m2lsp.evaluate_module(**k), {"metric": "m2"}),
    ("sentence_score", _sentence_score,
     {"hypothesis": SYSTEM[0], "references": [SYSTEM[0]], "source": SOURCES[0]}),
    ("corpus_score", _corpus_score,
     {"hypotheses": SYSTEM, "references": [SYSTEM], "sources": SOURCES}),
    ("compute_metrics", _compute_metrics, {"tokenizer": object(), "gold": GOLD}),
    ("confidence", _confidence, {"samples": 10, "seed": 1}),
    ("explain", lambda **k: m2lsp.explain(k.pop("system"), **k),
     {"system": SYSTEM, "gold": GOLD, "metric": "m2", "attributor": "shapley", "seed": 1,
      "samples": 8, "max_exact_edits": 4, "max_edits": 6}),
]


@pytest.mark.parametrize(("name", "call", "right"), CALLS, ids=[c[0] for c in CALLS])
@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(data=st.data())
def test_a_wrong_type_is_an_m2lsp_error(name, call, right, data) -> None:
    argument = data.draw(st.sampled_from(sorted(right)))
    value = data.draw(WRONG)
    with contextlib.suppress(m2lsp.M2lspError):  # anything else fails the test
        call(**{**right, argument: value})


def test_the_table_covers_the_public_functions() -> None:
    """Every public function (and the Scorer) is in the table; classes whose instances
    only the API makes (Score, MetaEval, MetricInfo, the errors) are not called."""
    covered = {name.split()[0].split(".")[0] for name, _, _ in CALLS}
    public = {n for n in m2lsp.__all__ if n == "Scorer" or (
        callable(getattr(m2lsp, n)) and not isinstance(getattr(m2lsp, n), type))}
    public -= {"metrics", "trainer"}  # modules: their classes and functions are covered
    assert public <= covered, public - covered
