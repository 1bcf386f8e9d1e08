"""Annotating from a correction: the edits, applied to the source, give back the corrected
sentence, whichever engine made them (the plain alignment, ERRANT, ChERRANT at char level)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from m2lsp.annotation.from_correction import (
    Engines,
    annotate_correction,
    language_of,
    plain_annotation,
)
from m2lsp.model import corrected_sentence
from m2lsp.parsing.m2 import parse_m2
from m2lsp.parsing.source import SourceText
from tests.annotation.conftest import spacy_model
from tests.conftest import shared

WORDS = ["the", "a", "cat", "cats", "is", "are", "on", "mat", ",", ".", "go", "went", "Ram"]
HAN = list("我你他喜欢吃苹果了很的。，是不")


@st.composite
def edited(draw: st.DrawFn, vocabulary: list[str]) -> tuple[list[str], str]:
    """A source and an M2 block of non-overlapping edits on it, as annotator 0."""
    tokens = draw(st.lists(st.sampled_from(vocabulary), min_size=1, max_size=14))
    cuts = sorted(draw(st.lists(st.integers(0, len(tokens)), max_size=8)))
    lines, at = [], 0
    for start, end in zip(cuts[::2], cuts[1::2], strict=False):
        if start < at:
            continue
        correction = " ".join(draw(st.lists(st.sampled_from(vocabulary), max_size=3)))
        lines.append(f"A {start} {end}|||X|||{correction}|||REQUIRED|||-NONE-|||0")
        at = end
    return tokens, "\n".join([f"S {' '.join(tokens)}", *lines])


def _corrected(block: str) -> str | None:
    document = parse_m2(SourceText(block + "\n"))
    return corrected_sentence(document.blocks[0], "0")


def _round_trip(tokens: list[str], block: str, engines: Engines, joined: bool = False) -> None:
    corrected = _corrected(block)
    assert corrected is not None
    found = annotate_correction(tokens, corrected, "0", engines)
    again = _corrected("\n".join([f"S {' '.join(tokens)}", *found.lines]))
    if joined:  # char level: the correction's characters, however they are spaced
        assert "".join((again or "").split()) == "".join(corrected.split())
    else:
        assert again == corrected
    assert all(line.endswith("|||0") for line in found.lines)


@given(edited(WORDS))
@settings(max_examples=300)
def test_alignment_round_trip(case: tuple[list[str], str]) -> None:
    _round_trip(*case, Engines(default_type="UNK"))


@cache
def _english_engine() -> object:
    from m2lsp.annotation.english import EnglishAnnotator, EnglishSettings

    return EnglishAnnotator(EnglishSettings(model=spacy_model()))


@cache
def _chinese_engine(data: Path) -> object:
    from m2lsp.annotation.chinese import ChineseAnnotator, ChineseSettings

    return ChineseAnnotator(ChineseSettings(data, simplified=False, strategy="first"))


@given(case=edited(WORDS))
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_errant_round_trip(case: tuple[list[str], str]) -> None:
    engine = _english_engine()
    _round_trip(*case, Engines(english=lambda: engine))


def test_chinese_round_trip() -> None:
    pytest.importorskip("pypinyin")
    pytest.importorskip("opencc")
    engine = _chinese_engine(shared("mucgec/ChERRANT/data"))

    @given(edited(HAN))
    @settings(max_examples=80, deadline=None)
    def check(case: tuple[list[str], str]) -> None:
        _round_trip(*case, Engines(chinese=lambda: engine), joined=True)
    check()


TYPED = [
    # engine, source, corrected, expected lines
    ("english", "He go to school yesterday .", "He went to school yesterday .",
     ["A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||3"]),
    ("chinese", "我 喜 欢 吃 苹 果 了 。", "我很喜欢吃苹果。",
     ["A 1 1|||M|||很|||REQUIRED|||-NONE-|||3", "A 6 7|||R|||-NONE-|||REQUIRED|||-NONE-|||3"]),
    ("none", "He go to school .", "He went to the school .",
     ["A 1 2|||UNK|||went|||REQUIRED|||-NONE-|||3", "A 3 3|||UNK|||the|||REQUIRED|||-NONE-|||3"]),
    ("none", "He go .", "He go .", ["A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||3"]),
]


@pytest.mark.parametrize(("engine", "source", "corrected", "expected"), TYPED)
def test_engines_type_the_edits(engine: str, source: str, corrected: str,
                                expected: list[str]) -> None:
    if engine == "english":
        english = _english_engine()
        engines = Engines(english=lambda: english)
    elif engine == "chinese":
        pytest.importorskip("opencc")
        chinese = _chinese_engine(shared("mucgec/ChERRANT/data"))
        engines = Engines(chinese=lambda: chinese)
    else:
        engines = Engines()
    found = annotate_correction(source.split(), corrected, "3", engines)
    assert list(found.lines) == expected
    assert (found.note is None) == (engine != "none" or found.engine == "same")


def test_no_engine_says_why_and_uses_the_default_type() -> None:
    found = plain_annotation(["a", "b"], "a c", "1", "OTHER", "ERRANT is not installed")
    assert found.lines == ("A 1 2|||OTHER|||c|||REQUIRED|||-NONE-|||1",)
    assert found.note == "the types are OTHER: check them (ERRANT is not installed)"
    found = annotate_correction(["我们", "好"], "我们 很 好", "0", Engines())
    assert "word-level Chinese" in (found.note or "")


@pytest.mark.parametrize(("tokens", "language"), [
    (["He", "go"], "en"), (list("我喜欢"), "zh"), (["我们", "好"], "zh-words"),
    (["[缺失成分]", "我"], "zh-words")])
def test_language_of(tokens: list[str], language: str) -> None:
    assert language_of(tokens) == language
