"""`--metric pt-errant`: ERRANT's edits of each hypothesis and reference (annotation.
edit_lists), weighted by BERTScore (learned.pt_errant); each sentence's reference chosen as
ERRANT chooses it (against the running corpus counts), F-beta of the sums."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from m2lsp.parsing.source import Input, Text, file_option
from m2lsp.scoring.metric import MetricBase, Request, Shared
from m2lsp.scoring.pt_errant import DECLARATION


@dataclass(frozen=True)
class PtOptions:
    beta: float
    annotation: Any  # annotation.english.EnglishSettings
    bertscore: dict[str, Any]  # BERTScore's options, by gec-metrics' field names
    jobs: int
    references: tuple[str | Text, ...]  # paths, or the API's texts in memory
    source: str | Text | None


class PtErrant(MetricBase):
    declaration = DECLARATION

    def options(self, values: Mapping[str, Any], shared: Shared, config: Any) -> PtOptions:
        from m2lsp.annotation.parallel import settings_for

        weights = {f.dest.removeprefix("bertscore_"): values.get(f.dest, f.default)
                   for f in self.also if f.dest.startswith("bertscore_")}
        return PtOptions(shared.beta,
                         settings_for("en", config, spacy_model=values.get("spacy_model")),
                         weights, shared.jobs or 1,
                         tuple(file_option(r) for r in values.get("gleu_references") or ()),
                         None if shared.source is None else file_option(shared.source))

    def run(self, request: Request) -> Any:
        return self.run_many(request, [request.system])[0]

    def run_many(self, request: Request, systems: Sequence[Input]) -> list[Any]:
        from m2lsp.annotation.edit_lists import edit_lists
        from m2lsp.learned.bertscore import load
        from m2lsp.learned.loading import model_errors
        from m2lsp.scoring.sentence_inputs import with_references

        options: PtOptions = request.options
        found = [with_references(replace(request, system=s), options.references,
                                 options.source, "PT-ERRANT") for s in systems]
        sources, columns = found[0].sources, _columns(found[0].references)
        with model_errors("PT-ERRANT"):
            bert = load(options.bertscore, "--bertscore-model-type")
        references = [edit_lists(sources, column, options.annotation, options.jobs)
                      for column in columns]
        return [self._scored(bert, options, f, sources, columns, references,
                             edit_lists(sources, f.hypotheses, options.annotation,
                                        options.jobs)) for f in found]

    def _scored(self, bert: Any, options: PtOptions, found: Any, sources: list[str],
                columns: list[list[str]], references: list[list[Any]],
                hypotheses: list[Any]) -> Any:
        from m2lsp.learned.pt_errant import counts, weights
        from m2lsp.scoring.counted_score import CountedScore
        from m2lsp.scoring.signature import Signature

        jobs = [(sources[i], column[i], [*hypotheses[i], *edits[i]])
                for i in range(len(sources)) for column, edits in zip(columns, references,
                                                                       strict=True)]
        from m2lsp.learned.loading import model_errors

        with model_errors("PT-ERRANT"):
            weighed = iter(weights(bert, jobs))
        per_reference = [[counts(hypotheses[i], edits[i], next(weighed), options.beta)
                          for edits in references] for i in range(len(sources))]
        chosen, best = _chosen(per_reference, options.beta)
        base = Signature("PT-ERRANT", (("beta", f"{options.beta:g}"),
                                       ("weights", f"bertscore:{bert.signed}"),
                                       ("layer", str(bert.num_layers)),
                                       ("rescaled", bert.rescaled),
                                       ("scorer", "gec-metrics-0.1.1")))
        return CountedScore("pt-errant", base, tuple(chosen), tuple(c.f for c in best),
                            options.beta, found.texts)


def _columns(references: list[list[str]]) -> list[list[str]]:
    """The references as columns (every sentence has as many)."""
    from m2lsp.errors import InputError

    sizes = {len(r) for r in references}
    if len(sizes) > 1:
        raise InputError("PT-ERRANT reads references as columns: every sentence needs as "
                         f"many (found {sorted(sizes)})")
    width = sizes.pop() if sizes else 0
    if width == 0:
        raise InputError("PT-ERRANT needs at least one reference")
    return [[refs[k] for refs in references] for k in range(width)]


def _chosen(per_reference: list[list[dict[str, Any]]], beta: float
            ) -> tuple[list[Any], list[Any]]:
    """Each sentence's counts as the corpus score chooses them (the reference whose counts
    added to the running total rank highest, the first of equals) and as the sentence
    score does (its own best)."""
    from m2lsp.scoring.weighted_counts import Counts

    total, chosen, best = Counts(beta=beta), [], []
    for options in per_reference:
        overall = [_overall(types, beta) for types in options]
        pick = own = None
        for counts in overall:
            if pick is None or total.plus(pick).before(total.plus(counts)):
                pick = counts
            if own is None or own.before(counts):
                own = counts
        assert pick is not None and own is not None
        total = total.plus(pick)
        chosen.append(pick)
        best.append(own)
    return chosen, best


def _overall(types: dict[str, Any], beta: float) -> Any:
    from m2lsp.scoring.weighted_counts import Counts

    total = Counts(beta=beta)
    for counts in types.values():
        total = total.plus(counts)
    return total


METRIC = PtErrant()
