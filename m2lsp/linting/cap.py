"""At most so many findings of one rule in one file, and a count of the rest.

A file of a million findings held whole takes gigabytes (a Diagnostic with its span and fix
is about a kilobyte); what a person reads is the first few hundred of each rule. `RuleCap`
takes findings as they come (a whole file's, or block by block), keeps the first `most` of
each rule and counts the others by rule, so that the exit code and the summary still count
every finding. The language server caps its own way (max-diagnostics)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from m2lsp.config import LintSettings
from m2lsp.diagnostic import Applicability, Diagnostic
from m2lsp.severity import Severity

MOST_PER_RULE = 1000  # `m2lsp check`'s default: findings listed per rule and file


@dataclass(frozen=True)
class Unlisted:
    """The findings of one rule in one file that were counted, not kept."""

    code: str
    count: int
    fixable: int  # of them, how many carry a safe fix
    severity: Severity  # the worst of them


class RuleCap:
    """Keeps the first `most` findings of each rule (None: all) and counts the rest."""

    def __init__(self, most: int | None, settings: LintSettings | None = None) -> None:
        self.most = most
        self.kept: list[Diagnostic] = []
        self._seen: dict[str, int] = {}
        self._unlisted: dict[str, list[int]] = {}  # code -> [count, fixable, worst]
        self._settings = settings if settings is not None and settings.severity else None

    def add(self, found: Iterable[Diagnostic]) -> None:
        if self.most is None:
            self.kept.extend(found)
            return
        seen, most = self._seen, self.most
        for diagnostic in found:
            code = diagnostic.code
            count = seen.get(code, 0)
            seen[code] = count + 1
            if count < most:
                self.kept.append(diagnostic)
            else:
                self._count(diagnostic)

    def _count(self, diagnostic: Diagnostic) -> None:
        severity = diagnostic.severity
        if self._settings is not None:  # as with_severities will make the kept ones
            severity = self._settings.severity_of(diagnostic.code, severity)
        tally = self._unlisted.setdefault(diagnostic.code, [0, 0, int(severity)])
        tally[0] += 1
        fix = diagnostic.fix
        tally[1] += fix is not None and fix.applicability is Applicability.SAFE
        tally[2] = min(tally[2], int(severity))

    @property
    def unlisted(self) -> tuple[Unlisted, ...]:
        """The counted findings, by rule code."""
        return tuple(Unlisted(code, count, fixable, Severity(worst))
                     for code, (count, fixable, worst) in sorted(self._unlisted.items()))
