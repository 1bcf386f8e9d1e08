"""SOME (Yoshimura et al. 2020), as gec-metrics 0.1.1 computes it, on the CPU or CUDA: three
BERT regressors rate a hypothesis's grammaticality and fluency (the hypothesis alone) and its
meaning preservation (source and hypothesis as a pair); each rating is min-max normalised
from [1, 4] and the three are weighed (0.43 fluency + 0.55 grammaticality + 0.02 meaning by
default, summed in that order).  The tokenizer is the fluency model's, for all three.

Faster, same arithmetic: each distinct hypothesis and pair is rated once, in length-sorted
batches padded to their longest sentence rather than to `max_length`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from m2lsp.learned.batching import distinct, run_batches
from m2lsp.learned.loading import Loaded


@dataclass(frozen=True)
class Some:
    grammar: Loaded
    fluency: Loaded
    meaning: Loaded
    weight_g: float = 0.55
    weight_f: float = 0.43
    weight_m: float = 0.02
    max_length: int = 128
    batch_size: int = 32


def sentence_scores(some: Some, sources: Sequence[str], hypotheses: Sequence[str]
                    ) -> list[float]:
    """Each hypothesis's SOME score against its source (a pair scored before is read from
    the cache)."""
    from m2lsp.learned.remembered import namespace, remembered

    unique, where = distinct(list(zip(sources, hypotheses, strict=True)))
    space = namespace("some", some.grammar.signed, some.fluency.signed, some.meaning.signed,
                      some.weight_g, some.weight_f, some.weight_m, some.max_length,
                      some.fluency.model.device)

    def compute(missing: list[int]) -> list[float]:
        return fresh(some, [unique[i][0] for i in missing], [unique[i][1] for i in missing])

    scores = remembered(space, ["\0".join(pair) for pair in unique], compute)
    return [scores[i] for i in where]


def fresh(some: Some, sources: Sequence[str], hypotheses: Sequence[str]) -> list[float]:
    hyps, hyp_at = distinct(hypotheses)
    tokenizer = some.fluency.tokenizer
    alone = tokenizer(hyps, max_length=some.max_length, truncation=True)
    paired = tokenizer(list(sources), list(hypotheses), max_length=some.max_length,
                       truncation=True)
    grammar = _rated(some.grammar.model, alone, tokenizer, some.batch_size)
    fluency = _rated(some.fluency.model, alone, tokenizer, some.batch_size)
    meaning = _rated(some.meaning.model, paired, tokenizer, some.batch_size)
    return [some.weight_f * _normalised(fluency[hyp_at[i]])
            + some.weight_g * _normalised(grammar[hyp_at[i]])
            + some.weight_m * _normalised(meaning[i]) for i in range(len(hypotheses))]


def _normalised(x: float, low: float = 1, high: float = 4) -> float:
    return (x - low) / (high - low)


def _rated(model: Any, encoded: Any, tokenizer: Any, size: int) -> list[float]:
    def step(batch: dict[str, Any]) -> list[float]:
        return model(**{k: v.to(model.device) for k, v in batch.items()}).logits.view(
            -1).tolist()

    return run_batches(dict(encoded), tokenizer, size, step)
