"""What the editor shows of a scored sentence, whatever the metric: its counts and P/R/F,
each edit marked found (TP), wrong (FP) or missed (FN) in plain words, and the hover text.
A metric that keeps a live score (`Metric.live`) returns these; the server only places
them (marks on the sentence's tokens, a summary above it, a report of all of them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

FOUND = "TP"
WRONG = "FP"
MISSED = "FN"
NOTHING_WRONG = "TN"  # CGED: a correct sentence the system leaves alone
SENTENCE = "score"  # a sentence's own score mark
EMPTY = "∅"


@dataclass(frozen=True)
class Mark:
    """One edit of a scored sentence: found (TP), wrong (FP) or missed (FN)."""

    kind: str
    start: int  # source tokens of the smallest change (start == end: between tokens)
    end: int
    message: str
    type: str = ""  # the gold edit's error type (TP, FN)
    gold_line: int | None = None  # the gold edit's A line, 0-based (TP, FN)
    hyp_start: int | None = None  # the hypothesis tokens it is about, where known (a FN:
    hyp_end: int | None = None  # those standing where the missed edit's source words are)


@dataclass(frozen=True)
class SentenceReview:
    """A scored sentence: the chosen annotator's counts as the scorer counts them (they add
    up to the corpus counts), its P/R/F, and every edit as a Mark in source order."""

    index: int
    line: int  # the S line, 0-based
    annotator: int
    correct: int
    proposed: int
    gold: int
    precision: float
    recall: float
    f: float
    source: str
    hypothesis: str
    marks: tuple[Mark, ...]
    corrected: tuple[tuple[int, str], ...]  # each annotator's corrected sentence, marked

    def count(self, kind: str) -> int:
        return sum(1 for m in self.marks if m.kind == kind)

    def summary(self, beta: float) -> str:
        """The line shown above the S line (CodeLens)."""
        if not self.proposed and not self.gold:
            return "nothing to correct, and the system changed nothing"
        return (f"F{beta:g} {self.f:.4f} · P {self.precision:.4f} · R {self.recall:.4f} · "
                f"{self.count(FOUND)} found · {self.count(WRONG)} wrong · "
                f"{self.count(MISSED)} missed · annotator {self.annotator}")


@dataclass(frozen=True)
class LiveView:
    """The current live score of a gold document: corpus numbers, each sentence's review,
    and how many sentences the last update scored afresh."""

    precision: float
    recall: float
    f: float
    beta: float
    signature: str
    counts: dict[str, Any]  # e.g. correct, proposed, gold: what the CLI's JSON prints
    reviews: Sequence[SentenceReview]
    rescored: int
    warnings: tuple[str, ...] = ()  # gold problems that change the score
    hypothesis_tokens: str = ""  # how the marks' hypothesis tokens split a system line:
    # "words" (at whitespace), "chars" (each character but whitespace); "": not known
    marks: tuple[Any, ...] = ()  # marks placed as they are (diagnostic.Diagnostic), for a
    # metric whose marks are lines rather than words of sentences (CGED's truth lines)
    summary: str = ""  # the metric's own headline, when P/R/F do not say it all

    @property
    def headline(self) -> str:
        return self.summary or (f"P {self.precision:.4f}  R {self.recall:.4f}  "
                                f"F{self.beta:g} {self.f:.4f}")


@dataclass(frozen=True)
class Change:
    """The smallest change of an edit: tokens start..end of the source become `after`."""

    start: int
    end: int
    before: tuple[str, ...]
    after: tuple[str, ...]

    @classmethod
    def of(cls, start: int, end: int, original: str, correction: str) -> Change:
        before, after = tuple(original.split()), tuple(correction.split())
        head = 0
        while head < min(len(before), len(after)) and before[head] == after[head]:
            head += 1
        tail = 0
        while (tail < min(len(before), len(after)) - head
               and before[-1 - tail] == after[-1 - tail]):
            tail += 1
        return cls(start + head, end - tail, before[head:len(before) - tail],
                   after[head:len(after) - tail])

    def verb(self) -> str:
        """`inserts "the"`, `deletes "more"`, `changes "has" to "have"`."""
        if not self.before:
            return f'inserts "{" ".join(self.after)}"'
        if not self.after:
            return f'deletes "{" ".join(self.before)}"'
        return f'changes "{" ".join(self.before)}" to "{" ".join(self.after)}"'

    def overlaps(self, other: Change) -> bool:
        """Whether two changes touch the same words (or insert at the same place)."""
        if self.start == self.end and other.start == other.end:
            return self.start == other.start
        if self.start == self.end:
            return other.start < self.start < other.end
        if other.start == other.end:
            return self.start < other.start < self.end
        return self.start < other.end and other.start < self.end

    def shown(self, tokens: Sequence[str]) -> str:
        """`"is genetic" → "is the genetic"`: the change with a word either side."""
        left = (tokens[self.start - 1],) if 0 < self.start <= len(tokens) else ()
        right = (tokens[self.end],) if 0 <= self.end < len(tokens) else ()
        return f"{_quoted(left + self.before + right)} → {_quoted(left + self.after + right)}"


def _quoted(words: tuple[str, ...]) -> str:
    return f'"{" ".join(words)}"' if words else EMPTY


def escape(text: str) -> str:
    return "".join("\\" + ch if ch in "\\`*_[]<>|~" else ch for ch in text)
