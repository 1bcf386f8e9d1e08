"""The Trainer's `compute_metrics`: decoded predictions, made like the gold's sentences by a
`postprocess` hook (a model that writes detokenised text scored against a tokenised gold),
then scored as `m2lsp.score` scores them."""

from __future__ import annotations

import re

import pytest

import m2lsp
from m2lsp.trainer import compute_metrics

GOLD = ("S The cat sat on the mat .\nA 1 2|||R:NOUN|||dog|||REQUIRED|||-NONE-|||0\n\n"
        "S It was happy .\nA 2 3|||R:ADJ|||glad|||REQUIRED|||-NONE-|||0\n\n")
WORDS = ["<pad>", "The", "dog", "sat", "on", "the", "mat.", "It", "was", "glad."]


class Tokenizer:
    """Ids to words, as a Hugging Face tokenizer's batch_decode gives text."""

    pad_token_id = 0

    def batch_decode(self, rows, skip_special_tokens=True):
        return [" ".join(WORDS[i] for i in row if i) for row in rows]


PREDICTIONS = [[1, 2, 3, 4, 5, 6, 0], [7, 8, 9, 0, 0, 0, 0]]


def split_punctuation(sentences: list[str]) -> list[str]:
    return [re.sub(r"(\w)([.,!?])", r"\1 \2", s) for s in sentences]


def test_a_postprocess_hook_tokenises_as_the_gold_is(tmp_path) -> None:
    gold = tmp_path / "gold.m2"
    gold.write_text(GOLD, encoding="utf-8")
    raw = compute_metrics(Tokenizer(), gold=gold)((PREDICTIONS, None))
    fixed = compute_metrics(Tokenizer(), gold=gold, postprocess=split_punctuation)(
        (PREDICTIONS, None))
    assert raw["f"] < 1.0 and fixed["f"] == 1.0
    expected = m2lsp.score(["The dog sat on the mat .", "It was glad ."], gold)
    assert fixed["f"] == expected.f


@pytest.mark.parametrize(("hook", "says"), [
    (lambda s: s[:1], "postprocess returned 1 sentences for 2"),
    (lambda s: None, "what postprocess returned: None"),
    ("split", "postprocess: a str"),
])
def test_a_hook_that_returns_something_else_is_said(tmp_path, hook, says) -> None:
    gold = tmp_path / "gold.m2"
    gold.write_text(GOLD, encoding="utf-8")
    with pytest.raises(m2lsp.UsageError, match=re.escape(says)):
        compute_metrics(Tokenizer(), gold=gold, postprocess=hook)((PREDICTIONS, None))
