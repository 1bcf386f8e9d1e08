"""The agreement dashboard and a system's score against the project's gold: the numbers
`m2lsp agree` and `m2lsp score` print, on the project's files (the layers in name order,
annotator k the k-th name, as `m2lsp agree layers/*.m2` numbers them; the curated gold).
Pure of HTTP: `views/dashboard.py` serves them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from m2lsp.errors import UsageError
from m2lsp.model import M2Document
from m2lsp.web.project import Project, read_document, sentences_of_m2

MOST_PAIRS = 10  # every pair up to this many, else one row per annotator (as `agree`)
SCORING = ("m2", "errant", "cherrant")  # metrics scoring plain text against an M2 gold


def options_of(query: Mapping[str, str], metrics: list[str]) -> tuple[str, float]:
    """The metric and beta a query asks for (m2 and 0.5 by default)."""
    import m2lsp.arguments as arguments
    import m2lsp.defaults as defaults

    metric = query.get("metric", "m2")
    if metric not in metrics:
        raise UsageError(f"metric is one of {', '.join(metrics)}")
    beta = arguments.BETA.check(query.get("beta", defaults.BETA))
    if beta is None:
        raise UsageError("beta is a positive number")
    return metric, beta


def agreement_of(project: Project, metric: str = "m2", beta: float = 0.5) -> dict[str, Any]:
    """Every pair of annotators both ways (or one row each past `MOST_PAIRS` pairs), and
    each annotator against the gold once there is one: what `m2lsp agree
    layers/A.m2 layers/B.m2 ...` and `m2lsp agree --against gold.m2 ...` print as JSON."""
    from m2lsp.agreement import agreement, agreement_data, summary, summary_data
    from m2lsp.formats.m2.annotators import annotators

    names = project.layer_names()
    if not names:
        raise UsageError("no annotator has a layer yet")
    document = _layers(project, names)
    out: dict[str, Any] = {"names": names, "pairs": None, "summary": None, "gold": None,
                           "unfinished": None}
    count = len(names) * (len(names) - 1) // 2
    if 0 < count <= MOST_PAIRS:
        out["pairs"] = agreement_data(agreement(document, metric, beta))
    elif count:
        out["summary"] = summary_data(summary(document))
    if project.gold.is_file() and annotators(document):
        out["gold"] = _against_gold(project, document, metric, beta)
        out["unfinished"] = unfinished_of(project)
    return out


def _layers(project: Project, names: list[str]) -> M2Document:
    """The layers as one document, annotator k the k-th name (`m2lsp agree`'s merge)."""
    from m2lsp.agreement import merged
    from m2lsp.parsing.m2 import parse_m2

    documents = [(str(project.layer(n)), read_document(project.layer(n))) for n in names]
    if len(documents) == 1:
        return documents[0][1]
    try:
        return parse_m2(merged(documents))
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _against_gold(project: Project, document: M2Document, metric: str,
                  beta: float) -> dict[str, Any]:
    from m2lsp.agreement import GOLD_ID, agreement, agreement_data, with_gold
    from m2lsp.formats.m2.annotators import annotators
    from m2lsp.parsing.m2 import parse_m2

    try:
        both = parse_m2(with_gold(document, read_document(project.gold), str(project.gold)))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    pairs = [(a, GOLD_ID) for a in annotators(document)]
    return agreement_data(agreement(both, metric, beta, pairs))


def unfinished_of(project: Project) -> int:
    """The gold's sentences still to decide (its noops there are no decision yet)."""
    from m2lsp.files.curation import is_curated, unfinished

    return unfinished(project.gold) if is_curated(project.gold) else 0


def score_of(project: Project, body: Any) -> dict[str, Any]:
    """A system's output (`{"system": its text, one sentence a line, "metric", "beta"}`)
    scored against the gold: what `m2lsp score SYSTEM gold.m2 --format json` prints
    (its corpus P/R/F, and each sentence's with its true, false and missed edits), and
    the gold's sentences (`sources`, a sentence's `index` counting from 1), for the page
    to show each beside its edits."""
    from m2lsp.api import score

    if not isinstance(body, dict) or not isinstance(body.get("system"), str):
        raise UsageError("the body is a JSON object: system (the output's text, one "
                         "sentence a line), and metric and beta if not m2 and 0.5")
    metric, beta = options_of({k: body[k] for k in ("metric", "beta") if k in body}, list(SCORING))
    if not project.gold.is_file():
        raise UsageError("there is no gold yet: curate the layers first")
    lines = body["system"].splitlines()
    gold = project.gold.read_text(encoding="utf-8")
    found = score(lines, gold, metric=metric, beta=beta)
    data = found.to_dict()
    data.update({"system": "system", "gold": project.gold.name,
                 "warnings": list(found.warnings), "unfinished": unfinished_of(project),
                 "sources": [" ".join(t) for t in sentences_of_m2(gold)]})
    return data
