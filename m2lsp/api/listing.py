"""The registry's metrics as the API lists them (`m2lsp.metrics()`)."""

from __future__ import annotations

from dataclasses import dataclass

# the options several metrics share, by the name the API and the command line give them
SHARED = ("beta", "jobs", "seed", "source", "sentence_average")


@dataclass(frozen=True)
class MetricInfo:
    """A registered metric: its id, what it scores, and the options it takes."""

    name: str
    help: str
    options: tuple[str, ...]
    per_sentence: bool  # bootstrap intervals and `compare`
    needs_m2_gold: bool  # given sources= and references=, they are annotated first


def metrics() -> list[MetricInfo]:
    """Every metric `score` takes, from the registry."""
    from m2lsp.scoring.metric import declared, names

    found = []
    for name in names():
        chosen = declared(name)
        own = tuple(f.dest for f in (*chosen.flags, *chosen.also))
        shared = tuple(s for s in SHARED if s in chosen.shared)
        found.append(MetricInfo(name, chosen.help, shared + own, chosen.per_sentence,
                                chosen.annotates is not None))
    return found
