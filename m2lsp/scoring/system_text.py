"""What a plain-text system output should look like beside its gold, and what it probably
means when it does not: the common scoring mistakes, said before a number is printed.

- Arguments given the wrong way round, or an M2 file where a system output is expected
  (`argument_problem`): an error that says what probably happened.
- Nothing to score (`empty_problem`): an error, never P = R = F = 1.
- Invisible characters the scorer keeps in a token (a byte-order mark, zero-width spaces)
  and a system that looks detokenised or lowercased against the gold's tokenized sources
  (`system_notes`): one warning each, with the evidence.  The scores stay those of the
  official scorer; the warning says why they may be lower than expected.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from m2lsp.parsing.source import Input

SHAPE_LINES = 200  # the first non-empty lines that decide what a file looks like
INVISIBLE = {"\ufeff": "U+FEFF BYTE ORDER MARK", "\u200b": "U+200B ZERO WIDTH SPACE",
             "\u200c": "U+200C ZERO WIDTH NON-JOINER", "\u200d": "U+200D ZERO WIDTH JOINER",
             "\u2060": "U+2060 WORD JOINER"}
SHARE = 0.5  # of the sentences that can show it, above which a pattern is reported
LEAST = 3  # sentences that can show it, below which nothing is concluded

# punctuation that ends a token; what precedes it says whether it is a token of its own
# ("fine .") or attached to a word ("fine.")
_PUNCTUATION = re.compile(r"[.,;:!?](?= |$)", re.M)
_INVISIBLE = re.compile("[" + "".join(INVISIBLE) + "]")


def looks_like_m2(text: str) -> bool:
    """Whether a text reads as M2: among its first non-empty lines, S lines and A lines,
    and hardly anything else."""
    lines = [line for line in text.split("\n", SHAPE_LINES * 4)[:SHAPE_LINES * 4]
             if line.strip()][:SHAPE_LINES]
    if not lines:
        return False
    heads = [line[:2] for line in lines]
    m2_lines = sum(1 for h in heads if h in ("S ", "A ", "S\t", "A\t") or h[:1] == "T")
    return "S " in heads and "A " in heads and m2_lines >= 0.9 * len(lines)


def swapped(system: Input, system_text: str, gold: Input, gold_text: str,
            usage: str = "m2lsp score SYSTEM GOLD") -> str | None:
    """One line when SYSTEM reads as an M2 gold and GOLD (not empty) as a system output
    (no line of it an S line: a broken M2 file is not a system output), the way every
    metric with an M2 gold says it; else None."""
    if looks_like_m2(system_text) and gold_text.strip() and not looks_like_m2(gold_text) \
            and not _s_lines(gold_text):
        return (f"{gold} looks like the system output and {system} like the gold: the "
                f"arguments are swapped; the order is `{usage}`")
    return None


def _s_lines(text: str) -> bool:
    head = text[:HEAD]
    return head.startswith("S ") or "\nS " in head


HEAD = 1 << 16  # bytes of a file that tell its shape (`looks_like_m2` reads 200 lines)


def check_order(system: Input, gold: Input | None, usage: str) -> None:
    """An InputError when the inputs were given the wrong way round (`swapped`), from the
    first HEAD bytes of each: before a metric reads them whole and fails on the first line
    that is not what it expected ("neither an S, A nor T line")."""
    from m2lsp.errors import InputError

    if gold is None:
        return
    try:
        heads = [_head(system), _head(gold)]
    except (OSError, ValueError):
        return  # not readable as files: the metric says why
    problem = swapped(system, heads[0], gold, heads[1], usage)
    if problem is not None:
        raise InputError(problem)


def _head(given: Input) -> str:
    """The first HEAD bytes of a file (or characters of a text given in memory)."""
    from m2lsp.parsing.source import Text

    if isinstance(given, Text):
        return given.text[:HEAD]
    with open(given, "rb") as one:
        return one.read(HEAD).decode("utf-8", "replace")


def argument_problem(system: Input, system_text: str, gold: Input, gold_text: str,
                     metric: str = "m2", usage: str = "m2lsp score SYSTEM GOLD") -> str | None:
    """Why these files were probably not meant as SYSTEM and GOLD of a metric that scores a
    plain-text system against M2, or None."""
    if (problem := swapped(system, system_text, gold, gold_text, usage)) is not None:
        return problem
    system_m2, gold_m2 = looks_like_m2(system_text), looks_like_m2(gold_text)
    if system_m2:
        return (f"system file {system} is an M2 file, but --metric {metric} scores a system "
                f"output with one sentence a line; an M2 hypothesis (edits) is scored with "
                f"--metric errant")
    if gold_text.strip() and not gold_m2:
        return (f"gold file {gold} is not an M2 file (it reads as one sentence a line, like "
                f"a system output); GOLD must be M2: `{usage}`")
    return None


def empty_problem(system: Input, hypotheses: int, gold: Input | None,
                  sentences: int) -> str | None:
    """An error when there is nothing to score (a P = R = F = 1 would mean nothing)."""
    if sentences == 0:
        return f"gold file {gold} has no sentence: there is nothing to score"
    if hypotheses == 0:
        return f"system file {system} is empty: there is nothing to score"
    return None


@dataclass(frozen=True)
class Evidence:
    """A pattern seen in `count` of the `of` sentences that can show it; `line` is the
    first (1-based) and `example` what it looks like there."""

    count: int
    of: int
    line: int
    example: str

    @property
    def strong(self) -> bool:
        return self.of >= LEAST and self.count >= SHARE * self.of


def system_notes(system: Input, hypotheses: Sequence[str], sources: Sequence[str]) -> list[str]:
    """Warnings about a system output that will score lower than it should, each with the
    evidence (hypotheses as the scorer read them, sources the gold's S lines)."""
    notes = []
    joined = "\n".join(hypotheses)  # searched once for each pattern (see `_punctuation`)
    invisible = _invisible(hypotheses, joined)
    if invisible is not None:
        notes.append(f"{system}:{invisible.line}: {invisible.example} inside a token, "
                     f"which the scorer keeps as part of the token (so it matches no gold "
                     f"edit); {invisible.count} line(s) have one. Save the file without it.")
    detokenised = _detokenised(hypotheses, joined, sources)
    if detokenised.strong:
        notes.append(f"{system} looks detokenised: in {detokenised.count} of the "
                     f"{detokenised.of} sentences whose gold source has punctuation as its "
                     f"own token, the system attaches it to a word (first at line "
                     f"{detokenised.line}: {detokenised.example!r}). The gold is tokenized; "
                     f"tokenize the system output the same way, or the scores count "
                     f"every such token as an edit.")
    misaligned = unlike_their_sources(hypotheses, sources)
    if misaligned:
        shown = ", ".join(map(str, misaligned[:10])) + (", ..." if len(misaligned) > 10 else "")
        notes.append(f"{system}: {len(misaligned)} line(s) share almost nothing with their "
                     f"source sentence (line {shown}): they may be other sentences (a line "
                     f"added, lost or moved?); each is scored against its line's gold.")
    lowercased = _lowercased(hypotheses, sources)
    if lowercased.strong:
        notes.append(f"{system} looks lowercased: {lowercased.count} of the {lowercased.of} "
                     f"sentences whose gold source has a capital letter have none in the "
                     f"system (first at line {lowercased.line}: {lowercased.example!r}). "
                     f"The gold keeps case, so every lowered capital counts as an edit.")
    return notes


_WORDS = re.compile(r"\w+")
UNLIKE = 0.3  # shared tokens over the longer sentence, below which a line is another's
UNLIKE_LEAST = 4  # tokens both need before they are compared


def unlike_their_sources(hypotheses: Sequence[str], sources: Sequence[str]) -> list[int]:
    """The (1-based) lines whose hypothesis shares fewer than UNLIKE of its tokens with its
    source: NTHU's CoNLL-2014 output has six lines that are other sentences (38, 40, 41,
    43, 165, 167); no other official output has one."""
    from collections import Counter

    found = []
    for line, (hyp, source) in enumerate(zip(hypotheses, sources, strict=False), 1):
        if hyp == source:
            continue
        # words without case or punctuation: a detokenised or lowercased line is no other
        ours, theirs = _WORDS.findall(hyp.lower()), _WORDS.findall(source.lower())
        longer = max(len(ours), len(theirs))
        if min(len(ours), len(theirs)) < UNLIKE_LEAST or len(
                set(ours) & set(theirs)) >= UNLIKE * longer:  # the common case, cheaply:
            continue  # distinct shared words never outnumber shared words with repeats
        shared = sum((Counter(ours) & Counter(theirs)).values())
        if shared < UNLIKE * longer:
            found.append(line)
    return found


def _invisible(hypotheses: Sequence[str], joined: str) -> Evidence | None:
    if _INVISIBLE.search(joined) is None:  # the common case, in one pass
        return None
    found = [(i, m.group()) for i, h in enumerate(hypotheses)
             if (m := _INVISIBLE.search(h)) is not None]
    if not found:
        return None
    line, char = found[0]
    return Evidence(len(found), len(hypotheses), line + 1, INVISIBLE[char])


def _detokenised(hypotheses: Sequence[str], joined: str, sources: Sequence[str]) -> Evidence:
    split_sources, glued_sources = _punctuation(sources, "\n".join(sources))
    eligible = sorted(split_sources - glued_sources)
    _, glued = _punctuation(hypotheses, joined)
    return _evidence(eligible, hypotheses, glued.__contains__, by_index=True)


def _punctuation(lines: Sequence[str], joined: str) -> tuple[set[int], set[int]]:
    """The indices of the lines with punctuation as a token of its own, and of those with
    punctuation attached to a word: one search over `joined` (the lines joined by LF; a
    search per line costs a call each: 20 ms on CoNLL-2014)."""
    starts, at = [], 0
    for line in lines:
        starts.append(at)
        at += len(line) + 1
    split, glued = set(), set()
    for match in _PUNCTUATION.finditer(joined):
        where = match.start()
        before = joined[where - 1] if where else "\n"
        row = bisect.bisect_right(starts, where) - 1
        if before in " \n":
            split.add(row)
        elif before.isalnum() or before == "_":
            glued.add(row)
    return split, glued


def _lowercased(hypotheses: Sequence[str], sources: Sequence[str]) -> Evidence:
    eligible = [i for i, s in enumerate(sources) if s != s.lower()]  # has a capital
    return _evidence(eligible, hypotheses, lambda h: h == h.lower())


def _evidence(eligible: list[int], hypotheses: Sequence[str], shows: Callable[[Any], bool],
              by_index: bool = False) -> Evidence:
    """How many of the `eligible` sentences' hypotheses `shows` (given the hypothesis, or
    with `by_index` its index) holds for, and the first."""
    showing = [i for i in eligible
               if i < len(hypotheses) and shows(i if by_index else hypotheses[i])]
    if not showing:
        return Evidence(0, len(eligible), 0, "")
    return Evidence(len(showing), len(eligible), showing[0] + 1,
                    _shortened(hypotheses[showing[0]]))


def _shortened(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"
