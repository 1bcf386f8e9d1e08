"""The Scribendi score (Islam and Magnani 2021), as gec-metrics 0.1.1 computes it: 0 for a
hypothesis equal to its source; else -1 unless a language model (GPT-2 by default) finds
the hypothesis less perplexing than the source and the two stay alike (the larger of the
token sort ratio and the Levenshtein distance ratio at least `threshold`), then 1.  The
corpus score is the sum.

Perplexity is the exponent of the mean token loss after a beginning-of-text token, padding
left out.  Each distinct text's perplexity is computed once (and kept in the cache), in
length-sorted batches; unchanged sentences never reach the model.  A perplexity that is not
a finite number (a model whose weights are NaN, an overflow) is refused with a ModelError:
gec-metrics compares it as it is, and a NaN is never smaller, so every changed sentence
close to its source would score +1 -- the best score from a model that read nothing.

The token sort ratio is fuzzywuzzy's with python-Levenshtein (gec-metrics' dependencies):
characters 128-255 dropped, anything but letters and digits made a space, lower case, words
sorted, then round(100 x the Indel similarity) / 100; the Levenshtein distance ratio is
1 - d / (|s| + |h|) with d the character edit distance where a substitution costs 2."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from m2lsp.learned.batching import distinct, run_batches
from m2lsp.learned.loading import Loaded

NOT_WORD = re.compile(r"(?ui)\W")
LATIN1_UPPER = {code: None for code in range(128, 256)}


@dataclass(frozen=True)
class Scribendi:
    model: Loaded
    threshold: float = 0.8
    batch_size: int = 32


def sentence_scores(scribendi: Scribendi, sources: Sequence[str],
                    hypotheses: Sequence[str]) -> list[float]:
    changed = [i for i, (s, h) in enumerate(zip(sources, hypotheses, strict=True)) if s != h]
    texts, at = distinct([sources[i] for i in changed] + [hypotheses[i] for i in changed])
    ppl = perplexities(scribendi, texts)
    scores = [0.0] * len(hypotheses)
    for k, i in enumerate(changed):
        before, after = ppl[at[k]], ppl[at[len(changed) + k]]
        scores[i] = _judged(scribendi, sources[i], hypotheses[i], before, after)
    return scores


def _judged(scribendi: Scribendi, source: str, hypothesis: str, before: float,
            after: float) -> float:
    if before <= after:
        return -1.0
    alike = max(token_sort_ratio(source, hypothesis), distance_ratio(source, hypothesis))
    return 1.0 if alike >= scribendi.threshold else -1.0


def perplexities(scribendi: Scribendi, texts: Sequence[str]) -> list[float]:
    """Each text's perplexity (from the cache where it was computed before)."""
    from m2lsp.learned.remembered import namespace, remembered

    space = namespace("scribendi-ppl", scribendi.model.signed, scribendi.model.model.device)
    return finite_perplexities(scribendi, texts, remembered(
        space, list(texts), lambda missing: finite_perplexities(
            scribendi, [texts[i] for i in missing],
            _computed(scribendi, [texts[i] for i in missing]))))


def finite_perplexities(scribendi: Scribendi, texts: Sequence[str],
                        found: list[float]) -> list[float]:
    """`found`, each a finite number, else a ModelError naming the model and the text
    (checked before the cache keeps them, and again as the cache gives them back)."""
    import math

    from m2lsp.learned.loading import ModelError

    bad = next((i for i, v in enumerate(found) if not math.isfinite(v)), None)
    if bad is None:
        return found
    model = scribendi.model.name
    text = texts[bad] if len(texts[bad]) <= 60 else texts[bad][:57] + "..."
    raise ModelError(f"Scribendi: the model {model!r} (--scribendi-model) gives {text!r} "
                     f"the perplexity {found[bad]}, which is not a finite number: its "
                     "weights (NaN, after a training run that diverged?) or its settings "
                     "do not fit this metric")


def _computed(scribendi: Scribendi, texts: Sequence[str]) -> list[float]:
    import torch

    model, tokenizer = scribendi.model.model, scribendi.model.tokenizer
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    found = tokenizer([tokenizer.bos_token + text for text in texts])
    encoded = {"input_ids": found["input_ids"], "attention_mask": found["attention_mask"]}

    def step(batch: dict[str, Any]) -> list[float]:
        ids = batch["input_ids"].to(model.device)
        mask = batch["attention_mask"].to(model.device)
        logits = model(ids, attention_mask=mask).logits[:, :-1, :].contiguous()
        labels, kept = ids[:, 1:].contiguous(), mask[:, 1:].contiguous()
        rows, length = labels.shape
        loss = torch.nn.CrossEntropyLoss(reduction="none")(
            logits.view(-1, logits.size(-1)), labels.view(-1)).view(rows, length)
        return torch.exp((loss * kept).sum(dim=1) / kept.sum(dim=1)).tolist()

    return run_batches(encoded, tokenizer, scribendi.batch_size, step)


def _indel() -> Any:
    """RapidFuzz's Indel distance, or a UsageError naming the extra that installs it."""
    try:
        from rapidfuzz.distance import Indel
    except ImportError as missing:
        from m2lsp.errors import UsageError

        cause = f"{missing.name} is not installed" if missing.name else str(missing)
        raise UsageError(f"--metric scribendi needs RapidFuzz ({cause}): pip install "
                         "'m2lsp[neural]'") from None
    return Indel


def token_sort_ratio(a: str, b: str) -> float:
    Indel = _indel()
    first, second = _sorted_words(a), _sorted_words(b)
    if first == second:
        return 1.0
    if not first or not second:
        return 0.0
    return round(100 * Indel.normalized_similarity(first, second)) / 100


def _sorted_words(text: str) -> str:
    cleaned = NOT_WORD.sub(" ", text.translate(LATIN1_UPPER)).lower().strip()
    return " ".join(sorted(cleaned.split())).strip()


def distance_ratio(a: str, b: str) -> float:
    Indel = _indel()
    return 1 - Indel.distance(a, b) / (len(a) + len(b))
