"""IMPARA (Maeda et al. 2022), as gec-metrics 0.1.1 computes it: a hypothesis's quality is
the sigmoid of a BERT regressor's logit (the QE model), kept only when the mean-pooled
embeddings of source and hypothesis (the SE model's last layer, padding left out) have a
cosine similarity of at least `threshold`; else 0.

Faster, same arithmetic: each distinct hypothesis is rated once and each distinct text
embedded once (a report over 15 systems shares most sentences), padding reaches only the
longest sentence of a length-sorted batch instead of `max_length`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from m2lsp.learned.batching import distinct, run_batches
from m2lsp.learned.loading import Loaded


@dataclass(frozen=True)
class Impara:
    qe: Loaded
    se: Loaded
    max_length: int = 128
    threshold: float = 0.9
    batch_size: int = 32


def sentence_scores(impara: Impara, sources: Sequence[str], hypotheses: Sequence[str]
                    ) -> list[float]:
    """Each hypothesis's IMPARA score against its source (a pair scored before is read
    from the cache)."""
    from m2lsp.learned.remembered import namespace, remembered

    pairs = list(zip(sources, hypotheses, strict=True))
    unique, where = distinct(pairs)
    space = namespace("impara", impara.qe.signed, impara.se.signed, impara.max_length,
                      impara.threshold, impara.qe.model.device)

    def compute(missing: list[int]) -> list[float]:
        return fresh(impara, [unique[i][0] for i in missing], [unique[i][1] for i in missing])

    scores = remembered(space, ["\0".join(pair) for pair in unique], compute)
    return [scores[i] for i in where]


def fresh(impara: Impara, sources: Sequence[str], hypotheses: Sequence[str]) -> list[float]:
    """IMPARA of each pair, computed now."""
    import torch

    hyps, hyp_at = distinct(hypotheses)
    quality = _quality(impara, hyps)
    texts, text_at = distinct([*sources, *hypotheses])
    pooled = _embedded(impara, texts)
    count = len(sources)
    with torch.inference_mode():
        similarity = torch.nn.functional.cosine_similarity(
            pooled[text_at[:count]], pooled[text_at[count:]], dim=1, eps=1e-8)
        kept = (similarity >= impara.threshold).tolist()  # compared in float32, as there
    return [quality[hyp_at[i]] if kept[i] else 0.0 for i in range(count)]


def _encoded(loaded: Loaded, texts: Sequence[str], max_length: int) -> dict[str, Any]:
    found = loaded.tokenizer(list(texts), max_length=max_length, truncation=True)
    return {"input_ids": found["input_ids"], "attention_mask": found["attention_mask"]}


def _quality(impara: Impara, texts: Sequence[str]) -> list[float]:
    import torch

    model = impara.qe.model

    def step(batch: dict[str, Any]) -> list[float]:
        logits = model(input_ids=batch["input_ids"].to(model.device),
                       attention_mask=batch["attention_mask"].to(model.device)).logits
        return torch.sigmoid(logits.view(-1)).tolist()

    return run_batches(_encoded(impara.qe, texts, impara.max_length), impara.qe.tokenizer,
                       impara.batch_size, step)


def _embedded(impara: Impara, texts: Sequence[str]) -> Any:
    """Each text's mean-pooled last hidden state (a float32 tensor, one row a text)."""
    import torch

    model = impara.se.model

    def step(batch: dict[str, Any]) -> list[Any]:
        mask = batch["attention_mask"].to(model.device)
        states = model(input_ids=batch["input_ids"].to(model.device),
                       attention_mask=mask).last_hidden_state
        states[mask == 0] = 0
        pooled = torch.div(torch.sum(states, dim=1).transpose(1, 0),
                           torch.sum(mask, dim=-1)).transpose(1, 0)
        return list(pooled.cpu())

    rows = run_batches(_encoded(impara.se, texts, impara.max_length), impara.se.tokenizer,
                       impara.batch_size, step)
    return torch.stack(rows) if rows else torch.zeros((0, 1))
