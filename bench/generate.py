"""Generate a large, varied M2 file for benchmarks: well-formed, or (--messy) with a defect
in most blocks, about one finding every three lines.

Content is random (seeded) so that no two blocks are alike and the block cache
cannot help: the benchmark measures parsing and linting, not caching.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

ERRANT_TYPES = (
    "M:DET", "R:DET", "U:DET", "R:PREP", "M:PREP", "U:PREP", "R:VERB:TENSE",
    "R:NOUN:NUM", "R:SPELL", "M:PUNCT", "U:PUNCT", "R:ORTH", "R:OTHER", "R:VERB:SVA",
)
WORDS = (
    'the', 'a', 'an', 'of', 'to', 'in', 'on', 'at', 'for', 'with', 'is', 'are', 'was', 'were',
    'be', 'been', 'have', 'has', 'had', 'do', 'does', 'did', 'cat', 'dog', 'house', 'school',
    'teacher', 'student', 'people', 'time', 'year', 'way', 'day', 'thing', 'man', 'world',
    'life', 'hand', 'part', 'child', 'eye', 'woman', 'place', 'work', 'week', 'case', 'point',
    'government', 'company', 'number', 'group', 'problem', 'fact', ',', '.', '?', '!', "'",
    '"', '(', ')', 'good', 'new', 'first', 'last', 'long', 'great', 'little', 'own', 'other',
    'old', 'right', 'big', 'high', 'different', 'small', 'large', 'next', 'early', 'young',
    'important', 'few', 'public', 'bad', 'same', 'able',
)


def block(rng: random.Random) -> list[str]:
    """One S line and 0-6 edit lines over one or two annotators."""
    n = rng.randint(4, 30)
    tokens = [rng.choice(WORDS) + (str(rng.randint(0, 99)) if rng.random() < 0.3 else "")
              for _ in range(n)]
    lines = ["S " + " ".join(tokens)]
    for annotator in range(2):
        k = rng.randint(0, 4)
        if k == 0:
            lines.append(f"A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||{annotator}")
            continue
        starts = sorted(rng.sample(range(n), min(k, n)))
        for s in starts:
            e = s + rng.choice((0, 1, 1, 1))
            corr = " ".join(rng.choice(WORDS) for _ in range(rng.randint(e == s, 2)))
            if corr == " ".join(tokens[s:e]):
                corr = "x" + corr
            if e > s and corr and corr.split()[-1].lower() == tokens[e - 1].lower():
                corr += " x"  # ERRANT would read `a !` -> `. !` as an insertion (M409)
            etype = fitted(rng.choice(ERRANT_TYPES), s, e, corr)
            lines.append(f"A {s} {e}|||{etype}|||{corr}|||REQUIRED|||-NONE-|||{annotator}")
    return lines


def fitted(etype: str, start: int, end: int, correction: str) -> str:
    """The type with the operation its edit makes (M: an insertion, U: a deletion, R: a
    replacement), as a clean file has it (M409); ERRANT's OTHER where ERRANT has no such
    type (R:SPELL deleted is U:OTHER)."""
    from m2lsp.taxonomy import ERRANT

    operation = "M" if start == end else "U" if not correction else "R"
    made = f"{operation}:{etype.split(':', 1)[1]}"
    return made if ERRANT.accepts(made) else f"{operation}:OTHER"


DEFECTS = (
    lambda line: line + " ",  # trailing whitespace (fixable)
    lambda line: line.replace("|||REQUIRED|||", "|||REQUIRED |||"),  # a padded field
    lambda line: line.replace("A ", "A 99 ", 1) if line.startswith("A ") else line,
    lambda line: line.replace("|||R:", "|||R:NOPE") if line.startswith("A ") else line + "\t",
)


def messy(lines: list[str], rng: random.Random) -> list[str]:
    """The block with a defect on most lines (whitespace, bad fields, offsets past the end,
    unknown types): the findings of a file nobody has checked yet."""
    return [rng.choice(DEFECTS)(line) if rng.random() < 0.45 else line for line in lines]


def generate(lines: int, seed: int = 0, defects: bool = False) -> str:
    """About `lines` lines of M2 text."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < lines:
        made = block(rng)
        out.extend(messy(made, rng) if defects else made)
        out.append("")
    return "\n".join(out) + "\n"


def cached(lines: int, defects: bool = False) -> Path:
    """The generated file of `lines` lines, made once under bench/.cache/."""
    cache = Path(__file__).resolve().parent / ".cache"
    cache.mkdir(exist_ok=True)
    # (v2: every type makes its edit's operation, as M409 checks)
    path = cache / f"generated-v2-{lines}{'-messy' if defects else ''}.m2"
    if not path.exists():
        path.write_text(generate(lines, defects=defects), encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("output", type=Path)
    parser.add_argument("--lines", type=int, default=400_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--messy", action="store_true", help="a defect in most blocks")
    args = parser.parse_args()
    args.output.write_text(generate(args.lines, args.seed, args.messy), encoding="utf-8")


if __name__ == "__main__":
    main()
