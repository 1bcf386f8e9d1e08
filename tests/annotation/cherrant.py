"""ChERRANT (MuCGEC's scorers/ChERRANT in the shared data) run in place beside m2lsp:
`parallel_to_m2.py -g char` and `compare_m2_for_evaluation.py`, with Python 3 and the
packages it imports.  It imports `ltp` and `torch` at the top but never uses them at char
level, so it gets empty stand-ins for them on its PYTHONPATH."""

from __future__ import annotations

import importlib.util
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import shared

STAND_INS = {
    "ltp.py": "class LTP:\n    pass\n",
    "torch.py": "class device:\n    pass\n\n\nclass cuda:\n    @staticmethod\n"
                "    def is_available():\n        return False\n",
}


def cherrant() -> Path:
    """ChERRANT's folder; skip when the data or a package it or m2lsp needs is missing."""
    folder = shared("mucgec/ChERRANT")
    for name in ("pypinyin", "opencc", "Levenshtein", "tqdm", "numpy"):
        if importlib.util.find_spec(name) is None:
            pytest.skip(f"{name} is not installed (pip install -e '.[test]')")
    return folder


def data() -> Path:
    return cherrant() / "data"


def run(script: str, args: list[str], where: Path) -> str:
    """A ChERRANT script's standard output (it writes its files where `args` say)."""
    stand_ins = where / "stand-ins"
    stand_ins.mkdir(exist_ok=True)
    for name, text in STAND_INS.items():
        (stand_ins / name).write_text(text, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(stand_ins), "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([sys.executable, script, *args], cwd=cherrant(), env=env,
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


# Edits made at random to real sentences, as systems and annotators make them: characters
# dropped, doubled, replaced (by a look-alike, a punctuation mark, Latin or digits), spans
# moved or swapped, Traditional characters, ChERRANT's own targets (no error, cannot be
# annotated) and its missing-part token.
TRADITIONAL = "們這國說為個來時會對學後發經過還與當"
COMMON = ("的了是在不我有他这中大上个国们为和地到以说时要就出会可也你对生能而子那得于着下自"
          "之年过发后作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还进好小"
          "部其些主样理心她本前开但因只从想实日军者意无力它与长把机十民第公此已工使情明性知"
          "全三又关点正业外将两高间由问很最重并物手应战向头文体政美相见被利什二等产或新己制"
          "身果加西斯月话合回特代内信表化老给世位次度门任常先海通教儿原东声提立及比员解水名"
          "真论处走义各入几口认条平系气题活尔更别打女变四神总何电数安少报才结反受目太量再感")


def random_pairs(sentences: list[str], rng: random.Random, count: int
                 ) -> list[tuple[str, list[str]]]:
    """`count` (source, targets) rows: each source a real sentence, each of its one to three
    targets made from it by random edits."""
    rows = []
    for _ in range(count):
        source = rng.choice(sentences)
        targets = [_edited(source, rng) for _ in range(rng.choice((1, 1, 1, 2, 3)))]
        rows.append((source, targets))
    return rows


def _edited(source: str, rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.05:
        return "没有错误"
    if roll < 0.08:
        return "无法标注"
    if roll < 0.13:
        return source
    chars = list(source)
    for _ in range(rng.choice((1, 1, 2, 3, 5, 14))):
        _one_edit(chars, rng)
    return "".join(chars) or source


def _one_edit(chars: list[str], rng: random.Random) -> None:
    if not chars:
        return
    i = rng.randrange(len(chars))
    kind = rng.choice(("drop", "double", "replace", "insert", "swap", "move", "mark", "latin",
                       "missing", "traditional"))
    if kind == "drop":
        del chars[i:i + rng.choice((1, 1, 2))]
    elif kind == "double":
        chars.insert(i, chars[i])
    elif kind == "replace":
        chars[i] = rng.choice(COMMON)
    elif kind == "insert":
        chars.insert(i, rng.choice(COMMON + "的了是在"))
    elif kind == "swap" and i + 1 < len(chars):
        chars[i], chars[i + 1] = chars[i + 1], chars[i]
    elif kind == "move":
        span = chars[i:i + rng.choice((1, 2, 3))]
        del chars[i:i + len(span)]
        j = rng.randrange(len(chars) + 1)
        chars[j:j] = span
    elif kind == "mark":
        chars.insert(i, rng.choice("，。、！？：；“”《》()-.,"))
    elif kind == "latin":
        chars.insert(i, rng.choice(("A", "x", "7", "10", "ok")))
    elif kind == "missing":
        chars.insert(i, "[缺失成分]")
    elif kind == "traditional":
        chars.insert(i, rng.choice(TRADITIONAL))


