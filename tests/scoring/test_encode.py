"""The compiled core's `encode` (tokens and gold texts to ids, before the lattice) against
its Python reference `lattice.encoded`: the same ids, the same None for a text that can
match nothing, on random sentences with odd spacing, repeats and empty texts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from m2lsp.scoring.m2.lattice import GoldEdit, compiled, encoded

pytestmark = pytest.mark.skipif(compiled is None, reason="the compiled core was not built")

WORDS = ["a", "b", "the", ".", "\u00e9", "\u180e", "", " "]
tokens = st.lists(st.sampled_from(WORDS[:6]), max_size=8)
texts = st.lists(st.sampled_from(WORDS), max_size=4).map(" ".join) | st.text(max_size=6)
golds = st.lists(st.builds(GoldEdit, st.integers(-2, 9), st.integers(-2, 9), texts,
                           st.lists(texts, max_size=3)), max_size=4)


@settings(max_examples=1000, deadline=None)
@given(tokens, tokens, st.lists(golds, max_size=3))
def test_encode_equals_its_python_reference(source, target, annotators) -> None:
    assert compiled.encode(source, target, annotators) == encoded(source, target, annotators)


@pytest.mark.parametrize(("bad", "error"), [
    ((["a"], ["b"], [[(0, 1, "a")]]), TypeError),  # three fields, not four
    ((["a"], ["b"], [[(0, 1, 5, ["a"])]]), TypeError),  # an original that is no str
    ((["a"], ["b"], [[(0, 1, "a", None)]]), TypeError),  # corrections that are no list
    ((["a"], None, []), TypeError),
])
def test_encode_refuses_what_is_not_tokens_and_gold_edits(bad, error) -> None:
    with pytest.raises(error):
        compiled.encode(*bad)
