"""Which script a text is written in, so that a metric made for one language is not run
silently on the other: ERRANT's annotation of Chinese text, or Chinese char-level BLEU on
English, print numbers that mean nothing."""

from __future__ import annotations

import re
from collections.abc import Sequence
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


# other scripts, by the letters that make most of a text (the first that holds at least
# SHARE of the letters names it; Latin is what is left)
_OTHER = {"Cyrillic": re.compile("[\u0400-\u04ff]+"), "Greek": re.compile("[\u0370-\u03ff]+"),
          "Arabic": re.compile("[\u0600-\u06ff]+"), "Hebrew": re.compile("[\u0590-\u05ff]+"),
          "Devanagari": re.compile("[\u0900-\u097f]+"), "Thai": re.compile("[\u0e00-\u0e7f]+"),
          "Armenian": re.compile("[\u0530-\u058f]+"), "Georgian": re.compile("[\u10a0-\u10ff]+"),
          "Korean": re.compile("[\uac00-\ud7af]+"),
          "Japanese": re.compile("[\u3040-\u30ff]+")}


@lru_cache(maxsize=16)  # the same gold against one system after another
def script(text: str) -> str | None:
    """'Chinese', 'Cyrillic', 'Greek', ... (`_OTHER`), 'Latin' (any other letters), or
    None: too few letters to tell.  Of an M2 text, its S lines (its edit lines are full
    of REQUIRED and -NONE-)."""
    head = text[:SAMPLE]
    if head.startswith("S ") or "\nS " in head:
        head = "\n".join(line for line in head.splitlines() if line.startswith("S "))
    share, letters = han_share(head)
    if letters < 5:
        return None
    if share >= SHARE:
        return "Chinese"
    for name, pattern in _OTHER.items():
        if sum(map(str.isalpha, "".join(pattern.findall(head)))) >= SHARE * letters:
            return name
    return "Latin"


def mismatch(system: str, gold: str) -> str | None:
    """A sentence saying that the system and the gold are in different scripts, or None."""
    ours, theirs = script(system), script(gold)
    if ours is None or theirs is None or ours == theirs:
        return None
    return f"the system is in {ours} script but the gold in {theirs}"


CHARS, WORDS, UNSPLIT = "characters", "words", "unsplit"
LEAST_HAN = 20  # Han characters below which a text's segmentation is not judged


def segmentation(lines: Sequence[str]) -> str | None:
    """How the Chinese of tokenized lines is cut: CHARS (one Han character a token, as
    MuCGEC's and ChERRANT's char-level files are), WORDS (segmented, as NLPCC-2018 and
    the `.word` files are), UNSPLIT (written without spaces, as a system outputs it), or
    None: too little Chinese to tell.  From the mean number of Han characters in a token
    that has any, over the first SAMPLE characters."""
    han = tokens = 0
    seen = 0
    for line in lines:
        for token in line.split():
            count = sum(map(str.isalpha, "".join(_HAN.findall(token))))
            if count:
                han, tokens = han + count, tokens + 1
        seen += len(line)
        if seen >= SAMPLE:
            break
    if han < LEAST_HAN:
        return None
    mean = han / tokens
    return CHARS if mean <= 1.05 else WORDS if mean <= 3.5 else UNSPLIT


def split_chars(line: str) -> str:
    """A line cut into characters as ChERRANT's char level cuts it: its whitespace
    removed, then every character a token."""
    return " ".join("".join(line.split()))


def segmentation_problem(system: str, system_lines: Sequence[str], gold: str,
                         theirs: str | None) -> str | None:
    """One line when the system's Chinese is cut otherwise than the gold's (`theirs`: the
    `segmentation` of its sentences, read once a gold), with the way to cut it the same
    (`--split-chars` where splitting is unambiguous); else None."""
    ours = segmentation(system_lines)
    if ours is None or theirs is None or ours == theirs:
        return None
    if theirs == CHARS and ours != CHARS:
        return (f"{system} is {_CUT[ours]} but {gold} is split into characters (one a "
                f"token): every sentence would be scored as a few long wrong edits; give "
                f"--split-chars to split the system's lines into characters as ChERRANT's "
                f"char level does")
    return (f"{system} is {_CUT[ours]} but {gold} is {_CUT[theirs]}: tokenize the system "
            f"as the gold is tokenized (for words, the segmenter the gold was made with)")


_CUT = {CHARS: "split into characters (one a token)", WORDS: "segmented into words",
        UNSPLIT: "Chinese written without spaces (not tokenized)"}


def chinese_for_english(texts: dict[str, str], tool: str, instead: str) -> str | None:
    """One line when any of `texts` (role -> text) is Chinese but `tool` annotates English
    (ERRANT): it would align Chinese word by word as English, whole sentences as R:NOUN
    edits; `instead` says what to run.  Else None."""
    chinese = [what for what, text in texts.items() if script(text) == "Chinese"]
    if not chinese:
        return None
    which = " and the ".join(chinese) + (" is" if len(chinese) == 1 else " are")
    return f"the {which} Chinese, but {tool} annotates English with ERRANT: {instead}"
