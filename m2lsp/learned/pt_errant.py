"""PT-ERRANT (Gong et al. 2022) as gec-metrics 0.1.1 computes it: ERRANT's counts, each edit
weighted by how much it moves the source's BERTScore against the reference, |BERTScore
(source with this edit alone) - BERTScore(source)|.  The weights of one sentence and
reference cover the hypothesis's and the reference's edits (the first of equal edits).

Faster, same arithmetic: every (sentence, reference) the corpus needs is scored in one
BERTScore pass (each distinct pair once, kept in the cache) instead of two calls per
sentence and reference."""

from __future__ import annotations

from collections.abc import Sequence

from m2lsp.annotation.edit_lists import Edit
from m2lsp.learned.bertscore import BertScore, sentence_scores
from m2lsp.scoring.weighted_counts import Counts

Key = tuple[int, int, str]


def applied(source: str, edit: Edit) -> str:
    """The source with one edit made, as gecommon.apply_edits makes it."""
    tokens = source.split(" ")
    if edit.o_start == -1:
        return " ".join(tokens)
    tokens[edit.o_start:edit.o_end] = ["$DELETE"] if edit.c_str == "" else edit.c_str.split(" ")
    return (" ".join(tokens).replace(" $DELETE", "").replace("$DELETE ", "")
            .replace("$DELETE", ""))


def weights(bert: BertScore, jobs: Sequence[tuple[str, str, Sequence[Edit]]]
            ) -> list[dict[Key, float]]:
    """For each (source, reference, edits): each distinct edit's weight."""
    texts: list[str] = []
    references: list[tuple[str]] = []
    plans = []
    for source, reference, edits in jobs:
        unique = list(dict.fromkeys(e.key for e in edits))
        first = {e.key: e for e in reversed(edits)}
        start = len(texts)
        texts += [source, *(applied(source, first[k]) for k in unique)]
        references += [(reference,)] * (len(unique) + 1)
        plans.append((start, unique))
    scores = sentence_scores(bert, texts, references)
    return [{key: abs(scores[start + 1 + i] - scores[start]) for i, key in enumerate(unique)}
            for start, unique in plans]


def counts(hypothesis: Sequence[Edit], reference: Sequence[Edit], weight: dict[Key, float],
           beta: float) -> dict[str, Counts]:
    """One sentence's weighted counts per error type against one reference."""
    found: dict[str, Counts] = {}
    keys = [e.key for e in reference]
    mine = [e.key for e in hypothesis]
    for edit in hypothesis:
        c = found.setdefault(edit.type, Counts(beta=beta))
        if edit.key in keys:
            c.tp += weight[edit.key]
        else:
            c.fp += weight[edit.key]
    for edit in reference:
        if edit.key not in mine:
            found.setdefault(edit.type, Counts(beta=beta)).fn += weight[edit.key]
    return found
