"""Which reference each sentence is scored against in each iteration of GLEU.

GLEU with several references scores the corpus many times (500 by default), each time against
one reference per sentence drawn at random, and reports the mean.  The draws are seeded per
iteration j with j * 101, so the numbers are reproducible -- but they depend on the Python that
draws them:

- `jfleg_choices`: `random.seed(j * 101); random.randint(0, R - 1)` under Python 3, as JFLEG's
  `eval/gleu.py` runs today;
- `python2_choices`: the same seeds under Python 2, where `randint` was `int(random() * R)`;
  the original GLEU+ and the `gleu` package's `--fix-seed` (MultiGEC-2025) draw this way.
"""

from __future__ import annotations

import random
import sys
from array import array

SEED_STEP = 101
WORD = next(code for code in "IL" if array(code).itemsize == 4)  # an unsigned 32-bit word


def jfleg_choices(iterations: int, sentences: int, references: int) -> list[list[int]]:
    """Per iteration, each sentence's reference: Python 3's `randint(0, references - 1)`."""
    return [_python3_row(iteration * SEED_STEP, sentences, references)
            for iteration in range(iterations)]


def _python3_row(seed: int, sentences: int, references: int) -> list[int]:
    """`randint(0, n - 1)` is `randrange(n)`: take the top bit_length(n) bits of the next
    32-bit output of the generator until they are below n (the tests hold this equal to
    `random.randint` itself).  The outputs are drawn many at once: `getrandbits(32 * m)` is
    m successive outputs, the first in the lowest 32 bits: its little-endian bytes read as
    32-bit words are those outputs in turn."""
    generator = random.Random(seed)
    shift = 32 - references.bit_length()
    limit = references << shift  # top bits below n <=> the word below n << shift
    row: list[int] = []
    while len(row) < sentences:
        words = 2 * (sentences - len(row)) + 16  # at least half are kept
        drawn = generator.getrandbits(32 * words).to_bytes(4 * words, "little")
        row += [w >> shift for w in _words(drawn) if w < limit]
    return row[:sentences]


def _words(data: bytes) -> array:
    """Little-endian bytes as unsigned 32-bit words, on any machine."""
    words = array(WORD, data)
    if sys.byteorder == "big":
        words.byteswap()
    return words


def python2_choices(iterations: int, sentences: int, references: int) -> list[list[int]]:
    """Per iteration, each sentence's reference as Python 2 drew it."""
    out = []
    for iteration in range(iterations):
        uniform = random.Random(iteration * SEED_STEP).random
        out.append([int(uniform() * references) for _ in range(sentences)])
    return out
