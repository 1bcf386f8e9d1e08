"""The curation's guard: a decision that would leave the gold holding edits its own rules
flag (an error or a warning `m2lsp check` would report on the sentence, beyond what it
already reported there) is refused, so a curated gold is never worse than the check it has
to pass; and what every annotator agrees on is not auto-merged when the rules flag it."""

from __future__ import annotations

from collections.abc import Sequence

from m2lsp.curation.record import Decision
from m2lsp.curation.state import AUTO, Curation, Outcome, curation
from m2lsp.model import M2Document
from m2lsp.severity import Severity


def findings(outcome: Outcome) -> set[tuple[str, str]]:
    """(code, message) of every error and warning of the rules on the gold's sentence,
    linted alone (rules across sentences, such as N001, are not asked)."""
    from m2lsp.linting.run import lint
    from m2lsp.model import Format
    from m2lsp.parsing.source import SourceText

    lines = [f"S {outcome.text}", *outcome.lines()]
    found = lint(SourceText("\n".join(lines) + "\n"), Format.M2).diagnostics
    return {(d.code, d.message) for d in found
            if d.severity in (Severity.ERROR, Severity.WARNING)}


def new_findings(before: Outcome, after: Outcome) -> list[str]:
    """What the rules flag on the sentence after a decision and did not before, as
    `CODE message` lines."""
    return sorted(f"{code} {message}" for code, message in
                  findings(after) - findings(before))


def held_back(found: Curation) -> frozenset[str]:
    """The keys of auto-merged sentences whose agreed edits the rules flag (an error or a
    warning): those are not merged, and stay for the curator (one lint of the gold)."""
    import bisect

    from m2lsp.linting.run import lint
    from m2lsp.model import Format
    from m2lsp.parsing.source import SourceText

    result = lint(SourceText(found.gold()), Format.M2)
    document = result.document
    assert isinstance(document, M2Document)
    starts = [s for s, b in zip(document.starts, document.blocks, strict=True)
              if b.sentence is not None]
    flagged = set()
    for d in result.diagnostics:
        if d.severity in (Severity.ERROR, Severity.WARNING) and not d.code.startswith("N"):
            at = bisect.bisect_right(starts, d.span.line) - 1
            if 0 <= at < len(found.outcomes) and found.outcomes[at].state == AUTO:
                flagged.add(found.outcomes[at].key)
    return frozenset(flagged)


def guarded(document: M2Document, decisions: Sequence[Decision],
            also: Sequence[str] = ()) -> tuple[Curation, frozenset[str]]:
    """The curation after `decisions`, with the agreed sentences the rules flag held back
    from auto-merge (those depend on the annotators alone), and their keys."""
    held = held_back(curation(document, (), also=also))
    return curation(document, decisions, held, also), held
