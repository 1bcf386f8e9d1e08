"""Which script a text is written in, so that a metric made for one language is not run
silently on the other: ERRANT's annotation of Chinese text, or Chinese char-level BLEU on
English, print numbers that mean nothing."""

from __future__ import annotations

import re
from functools import lru_cache

SAMPLE = 50_000  # characters looked at: enough to tell, bounded on a large file
SHARE = 0.3  # of the letters: Han characters from here on make a text Chinese


def han_share(text: str) -> tuple[float, int]:
    """(the share of Han characters among the letters, how many letters) of the text's
    first SAMPLE characters."""
    sample = text[:SAMPLE]
    letters = sum(map(str.isalpha, sample))  # a call per character, in C
    han = sum(map(str.isalpha, "".join(_HAN.findall(sample))))
    return (han / letters if letters else 0.0), letters


_HAN = re.compile("[\u3400-\u9fff\uf900-\ufaff]+")


@lru_cache(maxsize=16)  # the same gold against one system after another
def script(text: str) -> str | None:
    """'Chinese', 'Latin' (any other letters), or None: too few letters to tell.  Of an M2
    text, its S lines (its edit lines are full of REQUIRED and -NONE-)."""
    head = text[:SAMPLE]
    if head.startswith("S ") or "\nS " in head:
        head = "\n".join(line for line in head.splitlines() if line.startswith("S "))
    share, letters = han_share(head)
    if letters < 5:
        return None
    return "Chinese" if share >= SHARE else "Latin"


def mismatch(system: str, gold: str) -> str | None:
    """A sentence saying that the system and the gold are in different scripts, or None."""
    ours, theirs = script(system), script(gold)
    if ours is None or theirs is None or ours == theirs:
        return None
    return f"the system is in {ours} script but the gold in {theirs}"
