"""A plain-text hypothesis scored with ERRANT in one step: annotated as
`errant_parallel -orig SOURCE -cor HYP` would annotate it (SOURCE: the reference's `S` lines,
or --source), then scored as errant_compare scores that M2 against the reference."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from m2lsp.annotation.english import EnglishSettings
from m2lsp.errors import UsageError
from m2lsp.parsing.source import Input
from m2lsp.scoring.errant.inputs import ErrantBlock

Warn = Callable[[str], None]


@dataclass(frozen=True)
class Annotated:
    """The hypothesis as errant_parallel would have written it, and what made it."""

    m2: str
    versions: dict[str, str]  # errant's version, the spaCy pipeline's name and version
    source_name: str = ""  # the file whose lines are its sentences (its S lines)


def reference_sources(blocks: Sequence[ErrantBlock]) -> list[str]:
    """The source sentences of a reference M2 file: its `S` lines without the `S `."""
    return [block.sentence[2:] for block in blocks]


def annotate_hypothesis(system: Input, hypotheses: Sequence[str], sources: Sequence[str],
                        source_name: str, settings: EnglishSettings, jobs: int | None,
                        warn: Warn | None = None, progress: Callable | None = None
                        ) -> Annotated:
    from m2lsp.annotation.english import EnglishAnnotator
    from m2lsp.annotation.parallel import ParallelText, annotate, check_lengths, default_jobs
    from m2lsp.scoring.system_text import system_notes

    check_lengths(source_name, len(sources), system, len(hypotheses))
    if (empty := next((i for i, s in enumerate(sources) if not s.strip()), None)) is not None:
        raise UsageError(f"sentence {empty + 1} of {source_name} is empty: errant_parallel "
                         f"would write no block for it, and the hypothesis would no longer "
                         f"line up with the reference")
    if warn is not None:
        for note in system_notes(system, hypotheses, sources):
            warn(f"warning: {note}")
    text = ParallelText(list(sources), [list(hypotheses)])
    blocks = annotate(text, settings, jobs or default_jobs(), progress)
    m2 = "".join(blocks)
    return Annotated(m2, EnglishAnnotator(settings).versions, source_name)
