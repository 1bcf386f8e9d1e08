"""m2lsp in a Hugging Face Seq2Seq Trainer: `compute_metrics` decodes the generated token
ids, strips them, and scores them against the evaluation set's gold.

    >>> from m2lsp.trainer import compute_metrics                       # doctest: +SKIP
    >>> trainer = Seq2SeqTrainer(..., compute_metrics=compute_metrics(
    ...     tokenizer, metric="m2", gold="dev.m2"))                      # doctest: +SKIP

The gold (or `sources=` and `references=`) is read once; each evaluation returns the
score's numbers under the keys of `m2lsp score --format json` (`precision`, `recall`, `f`,
`tp`, ...; the Trainer prefixes them with `eval_`), at full precision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from m2lsp.api.inputs import refuse


def compute_metrics(tokenizer: Any, *, metric: str = "m2", gold: Any = None,
                    sources: Any = None, references: Any = None,
                    postprocess: Callable[[list[str]], list[str]] | None = None,
                    **options: Any) -> Callable[[Any], dict[str, float]]:
    """A Trainer's `compute_metrics(eval_pred)`: `tokenizer` decodes the predictions
    (`batch_decode`, special tokens skipped), `postprocess` (if given) turns the decoded
    sentences into what the gold's sentences are like -- tokenised as its S lines are, or
    detokenised for a metric of plain text (`lambda s: [" ".join(nlp.tokenizer(x).text
    ...)]`) -- and they are scored with `metric` against `gold` (or `references` of
    `sources`), as `m2lsp.score` scores them."""
    from m2lsp.api.scoring import Scorer

    if not callable(getattr(tokenizer, "batch_decode", None)):
        raise refuse("tokenizer", tokenizer, "a tokenizer with batch_decode (a Hugging Face "
                     "tokenizer)")
    if postprocess is not None and not callable(postprocess):
        raise refuse("postprocess", postprocess, "a function from a list of sentences to a "
                     "list of sentences")
    scorer = Scorer(metric, gold=gold, sources=sources, references=references, **options)

    def compute(eval_pred: Any) -> dict[str, float]:
        sentences = decoded(tokenizer, predictions_of(eval_pred))
        if postprocess is not None:
            sentences = postprocessed(postprocess, sentences)
        return numbers(scorer.score(sentences))

    compute.scorer = scorer  # type: ignore[attr-defined]  # kept for a caller to close
    return compute


def predictions_of(eval_pred: Any) -> Any:
    """The generated ids of an `EvalPrediction` (or a (predictions, labels) tuple); a
    model that returns more than the ids gives a tuple whose first item they are."""
    found = getattr(eval_pred, "predictions", None)
    if found is None:
        found = eval_pred[0]
    if isinstance(found, tuple):
        found = found[0]
    return found


def decoded(tokenizer: Any, ids: Any) -> list[str]:
    """Each sequence decoded, on one line (-100, the label padding some versions leave in
    the predictions, is the pad token)."""
    rows = ids.tolist() if hasattr(ids, "tolist") else [list(row) for row in ids]
    pad = getattr(tokenizer, "pad_token_id", None) or 0
    cleaned = [[pad if token < 0 else token for token in row] for row in rows]
    texts = tokenizer.batch_decode(cleaned, skip_special_tokens=True)
    return [" ".join(str(text).split()) for text in texts]


def postprocessed(postprocess: Callable[[list[str]], list[str]], sentences: list[str]
                  ) -> list[str]:
    """What `postprocess` made of the decoded sentences: as many sentences, each a str on
    one line (else a UsageError saying what it returned)."""
    from m2lsp.api.inputs import sentences as checked
    from m2lsp.errors import UsageError

    found = postprocess(list(sentences))
    if isinstance(found, tuple):
        found = list(found)
    found = checked(found, "what postprocess returned")
    if len(found) != len(sentences):
        raise UsageError(f"postprocess returned {len(found)} sentences for "
                         f"{len(sentences)}: one per prediction")
    return found


def numbers(found: Any) -> dict[str, float]:
    """The score's numbers a Trainer logs (floats only: no signature)."""
    return {k: float(v) for k, v in found.flat().items()
            if isinstance(v, int | float) and not isinstance(v, bool)}
