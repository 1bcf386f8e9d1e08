"""What kinds of problem a parsed M2 block may have: the bits the compiled parser
(`_m2scan.c`) records on each block it builds, as `Block.__dict__["_suspects"]`.

An M2 block rule that declares one of these bits (`Rule.suspect`) is run only on the blocks
that have it, so a clean 400k-line file costs the rules almost nothing.  The bits are
conservative: a block gets a bit whenever the rules of that bit *might* find something in
it, and tests check on random and real files that no rule finds anything in a block without
its bit.  A block without recorded bits (parsed in Python, or built by hand) has them all.
"""

from __future__ import annotations

from enum import IntFlag

from m2lsp.model import Block


class Suspect(IntFlag):
    PROBLEMS = 1  # a line that does not parse (M001, M003, M004, M009)
    SENTENCE = 2  # no S line, no tokens, or irregular spacing in it (M002, M006, M007)
    OFFSETS = 4  # offsets out of order, negative or out of range; a noop's (M101-M105)
    NOOP_CORRECTION = 8  # a noop whose correction is not -NONE- (M106)
    NOOP_MIX = 16  # a noop's annotator has another line (M201, M202)
    ANNOTATOR = 32  # an annotator id that is not digits with spaces around them (M301)
    ORDER = 64  # one annotator's edits not sorted, touching, or on one span (M304, M401, M402)
    CORRECTIONS = 128  # several alternatives, or spacing or characters off (M404)
    IDENTITY = 256  # a correction that may equal the original tokens (M403)
    UNK = 512  # an UNK edit (M407)
    NOOP_SPELLING = 1024  # a type that may be `noop` misspelt (M406)
    REQUIRED = 2048  # a required flag other than REQUIRED or OPTIONAL (M408)


ALL = int(sum(Suspect))


def suspects(block: Block) -> int:
    """The block's bits (all of them when the parser recorded none)."""
    return block.__dict__.get("_suspects", ALL)
