"""`m2lsp.explain`: each hypothesis edit's share of a sentence-level metric score, as
`m2lsp explain` computes it, as an object (`Explanation`; `to_dict()` is the command's
JSON)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import m2lsp.api.inputs as inputs
from m2lsp.api.scoring import Scorer
from m2lsp.errors import UsageError

EDIT_METRICS = ("errant", "gotoscorer", "pt-errant")  # they take spacy_model themselves


@dataclass(frozen=True)
class Explanation:
    """`sentences`: each sentence's `explain.run.SentenceShares` (its source and hypothesis
    scores, its edits with their attributions); `types`: per error type, the edits, their
    total and mean share, how many helped and hurt."""

    metric: str
    attributor: str
    signature: str
    found: Any  # explain.run.Explanation
    system: str

    @property
    def sentences(self) -> tuple[Any, ...]:
        return self.found.sentences

    @property
    def types(self) -> dict[str, dict[str, float]]:
        return self.to_dict()["types"]

    def to_dict(self, top: int = 10) -> dict[str, Any]:
        from m2lsp.attribution.render import data

        return data(self.found, self.system, top)

    def __repr__(self) -> str:
        edits = sum(len(s.edits) for s in self.sentences)
        return (f"Explanation({self.metric}, {self.attributor}: {len(self.sentences)} "
                f"sentences, {edits} edits)")


def explain(system: Any, gold: Any = None, *, metric: str = "m2", sources: Any = None,
            references: Any = None, attributor: str = "add", seed: int = 12345,
            samples: int | None = None, max_exact_edits: int | None = None,
            max_edits: int | None = None, spacy_model: str | None = None,
            **options: Any) -> Explanation:
    """Each edit of `system` (ERRANT's edits of each source and hypothesis) attributed its
    share of `metric`'s sentence score by `attributor` (add, sub, shapley,
    shapley-sampling), as `m2lsp explain` does.  A reference-free metric takes `sources`
    without a gold."""
    from m2lsp.attribution.files import explain_file, explainable

    settings = _settings(attributor, seed, samples, max_exact_edits, max_edits)
    if isinstance(metric, str) and not explainable(metric):
        raise UsageError(f"explain: {metric} does not score each sentence")
    if spacy_model is not None and metric in EDIT_METRICS:
        options["spacy_model"] = spacy_model
    with Scorer(metric, gold=gold, sources=sources, references=references,
                **options) as scorer, scorer._speaking():
        path = scorer._folder.file(system, "the system")
        found = explain_file(_scoring(scorer), path, settings, _model(spacy_model),
                             f"m2lsp.explain(system, gold, metric={metric!r})")
        named = (str(system) if inputs.is_path(system)
                 else inputs.named(system, "the system"))
    return Explanation(found.metric, found.attributor, found.signature, found, named)


def _scoring(scorer: Scorer) -> Any:
    from m2lsp.attribution.variants import Scoring
    from m2lsp.config import config_for
    from m2lsp.scoring.metric import metric

    return Scoring(metric(scorer.metric), scorer._values, config_for([]).score,
                   scorer._shared, scorer.gold)


def _model(value: Any) -> str | None:
    if value is not None and not isinstance(value, str):
        raise inputs.refuse("spacy_model", value, "a spaCy pipeline's name (a str)")
    return value


def _settings(attributor: Any, seed: Any, samples: Any, max_exact: Any, max_edits: Any
              ) -> Any:
    import m2lsp.arguments as arguments
    from m2lsp.attribution.attributors import ATTRIBUTORS, MAX_EXACT, SAMPLES, Bounds
    from m2lsp.attribution.run import Settings

    if attributor not in ATTRIBUTORS:
        raise UsageError(f"attributor: one of {', '.join(ATTRIBUTORS)}, not {attributor!r}")
    exact = arguments.Number(int, 0, 20)
    return Settings(attributor, int(inputs.counted(arguments.SEED, "seed", seed)),
                    Bounds(int(inputs.counted(arguments.SAMPLES, "samples",
                                              SAMPLES if samples is None else samples)),
                           int(inputs.counted(exact, "max_exact_edits",
                                              MAX_EXACT if max_exact is None else max_exact))),
                    None if max_edits is None else int(
                        inputs.counted(arguments.SAMPLES, "max_edits", max_edits)))
