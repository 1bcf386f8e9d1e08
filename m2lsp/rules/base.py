"""What a rule is, and the registry of all rules.

A rule is a class: a stable code, a kebab-case name for the pattern it flags, a severity, a
message template, an optional fix title, and a docstring in ruff's shape (What it does / Why
is this bad? / Example / Use instead / Fix safety) that `m2lsp rule CODE` prints.  Its
`check` reads one part of the document model and yields diagnostics made by `report`.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, NamedTuple

from m2lsp.config import LintSettings
from m2lsp.diagnostic import Diagnostic, Fix, Related, Severity, capped
from m2lsp.formats.cged.model import TruthDocument
from m2lsp.model import Block, Edit, Format, LineProblem, M2Document, Span
from m2lsp.parsing.source import SourceText


class Scope(StrEnum):
    """What a rule's `check` receives."""

    TEXT = "text"  # SourceText, any format
    LINE = "line"  # a LineRange: what such a rule finds on a line depends on that line alone
    M2_BLOCK = "m2-block"  # a BlockSet; yields (block index, block-relative diagnostic)
    M2_DOCUMENT = "m2-document"  # the whole M2Document
    CGED = "cged"  # a CgedDocument
    TRUTH = "truth"  # a TruthDocument
    INPUT = "input"  # an InputDocument
    ESSAYS = "essays"  # a MultiGEC EssayDocument
    ANNOTATED = "annotated"  # a UA-GEC AnnotatedText
    BEA_JSON = "bea-json"  # a BeaDocument


SCOPE_FORMATS = {
    Scope.M2_BLOCK: frozenset({Format.M2}),
    Scope.M2_DOCUMENT: frozenset({Format.M2}),
    Scope.CGED: frozenset({Format.CGED}),
    Scope.TRUTH: frozenset({Format.TRUTH}),
    Scope.INPUT: frozenset({Format.INPUT}),
    Scope.ESSAYS: frozenset({Format.MULTIGEC}),
    Scope.ANNOTATED: frozenset({Format.ANN}),
    Scope.BEA_JSON: frozenset({Format.BEA_JSON}),
}


@dataclass(frozen=True)
class Context:
    """What rules may know beyond the part they check."""

    source: SourceText
    format: Format
    settings: LintSettings
    m2: M2Document | None = None
    truth: TruthDocument | None = None
    annotators: frozenset[str] = frozenset()  # M2: every annotator id used in the file
    # M2: the ids used in at least half of the sentences that have A lines (None: all ids),
    # and the ids used in under 1% of them with their sentence counts
    expected_annotators: frozenset[str] | None = None
    rare_annotators: tuple[tuple[str, int], ...] = ()
    taxonomy: Any = None  # M2: the rules.taxonomy.Taxonomy that applies
    types: frozenset[str] | None = None  # M2: every error type used in the file (None: unknown)
    known_ids: frozenset[str] | None = None  # truth files: ids of the matching input;
    # MultiGEC files: the essay ids of the corpus's original file
    essay_role: str | None = None  # MultiGEC: "orig", "ref" or "hyp", by the file's name
    essay_original: str | None = None  # MultiGEC: the original file's name
    sidecars: Any = None  # M2: the curation and notes beside the file (curation.sidecars)


class LineRange(NamedTuple):
    """Consecutive lines of a text and the row of the first: what a LINE rule checks (the
    whole text, or in the editor the lines of the blocks that changed).  Rows of the
    diagnostics it yields count from `first`."""

    first: int
    lines: Sequence[str]


Found = tuple[int, Diagnostic]
"""What M2 block rules yield: the block's index and a block-relative diagnostic."""


class BlockSet:
    """The blocks an M2 block rule checks (a whole file, or the blocks that changed), with
    their edits in one flat list: a rule that judges edits one at a time scans `edits`
    with a comprehension, which is several times faster than nested loops over blocks."""

    def __init__(self, blocks: Sequence[Block]) -> None:
        self.blocks = blocks

    @functools.cached_property
    def edits(self) -> list[Edit]:
        """Every edit of the blocks, in order (made when a rule first asks)."""
        return [edit for block in self.blocks for edit in block.edits]

    @functools.cached_property
    def owner(self) -> list[int]:
        """The block index of each of `edits`."""
        return [index for index, block in enumerate(self.blocks) for _ in block.edits]

    @functools.cached_property
    def problems(self) -> list[tuple[int, LineProblem]]:
        """(block index, problem) for every line problem of the blocks, in order."""
        return [(index, problem) for index, block in enumerate(self.blocks) if block.problems
                for problem in block.problems]

    def __len__(self) -> int:
        return len(self.blocks)


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity]
    message: ClassVar[str]
    scope: ClassVar[Scope]
    formats: ClassVar[frozenset[Format]] = frozenset(Format)
    fix_title: ClassVar[str | None] = None
    # M2 block rules: the parser's suspect bit (m2lsp/parsing/suspects.py) without which a
    # block cannot have this rule's problem; None: the rule checks every block
    suspect: ClassVar[int | None] = None
    # opt-in rules run only when `select` names them (their code, or a prefix of two or
    # more characters such as M5): not under ALL or a format's letter
    opt_in: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "code" in cls.__dict__:
            if cls.code in RULES:
                raise TypeError(f"duplicate rule code {cls.code}")
            if cls.scope in SCOPE_FORMATS:
                cls.formats = SCOPE_FORMATS[cls.scope]
            RULES[cls.code] = cls()

    def check(self, target: Any, ctx: Context) -> Iterable[Any]:
        """Diagnostics for `target` (see Scope).  M2 block rules receive a BlockSet and yield
        (block index, diagnostic with block-relative rows) pairs: one call covers a whole
        file, or only the blocks that changed."""
        raise NotImplementedError

    def report(self, span: Span, fix: Fix | None = None, related: tuple[Related, ...] = (),
               **values: Any) -> Diagnostic:
        """A diagnostic of this rule at `span`; `values` fill the message template (a
        message is at most `diagnostic.MESSAGE_CHARS` long: a value read from the input may
        be long)."""
        return Diagnostic(self.code, capped(self.message.format(**values)), span,
                          self.severity, fix, related)

    @classmethod
    def doc(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or "")

    @classmethod
    def summary(cls) -> str:
        """The first paragraph of the doc, on one line."""
        return " ".join(cls.doc().split("\n\n", 1)[0].split())

    @classmethod
    def fix_label(cls) -> str | None:
        """The fix title with its placeholders shown as <name>."""
        if cls.fix_title is None:
            return None
        return re.sub(r"\{(\w+)\}", r"<\1>", cls.fix_title)


LISTED = 10  # items a message names before "... and N more"


def listed(items: Sequence[str], most: int = LISTED) -> str:
    """Items joined by commas, the first `most` of them: "a, b, c, ... and 99,990 more"."""
    shown = ", ".join(items[:most])
    return shown + (f", … and {len(items) - most:,} more" if len(items) > most else "")


RULES: dict[str, Rule] = {}
"""Every rule class registers itself here when its module is imported; `rules.registry`
imports them all."""
