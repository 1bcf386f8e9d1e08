"""Every rule is linear in the number of edits or errors: run alone on documents of 1,000 and
16,000 items (edits crowded into one sentence, errors into one `<DOC>`, lines of one id,
essays, annotations; seeded, crossing and overlapping at random), its time per item at 16,000
stays within six times its time per item at 1,000.  A rule that compares every pair (C009
did: 27 s on 4,000 errors) takes 16 times as long per item.

The ratio, not a time, is what is asserted (the best of a few runs on each side, so a busy
machine slows both); a rule too fast to time at 16,000 items (under 0.1 s) passes."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from m2lsp.config import LintSettings
from m2lsp.linting.run import _parse, block_findings
from m2lsp.model import Format
from m2lsp.parsing.source import SourceText
from m2lsp.rules.base import LineRange, Rule, Scope
from m2lsp.rules.crossing import crossed, overlapped
from m2lsp.rules.registry import all_rules

SMALL, LARGE = 1_000, 16_000
RATIO = 6  # time per item may grow this much from SMALL to LARGE (quadratic: 16)
TYPES = ["R:NOUN", "M:DET", "U:PREP", "R:VERB:SVA", "R:ORTH", "noop", "R:NOUM"]
CHARS = "我们他们知道吸烟对未成年人会造成的各种伤害从此父母亲就教咱爬行走路叫爸妈到长大了开始"


def m2_one_sentence(n: int, rng: random.Random) -> str:
    words = " ".join(f"w{i % 97}" for i in range(n))
    lines = [f"S {words}"]
    for _ in range(n):
        start = rng.randrange(n)
        end = min(n, start + rng.randrange(4))
        lines.append(f"A {start} {end}|||{rng.choice(TYPES)}|||x{rng.randrange(9)}|||"
                     f"REQUIRED|||-NONE-|||{rng.randrange(4)}")
    return "\n".join(lines) + "\n"


def m2_many_sentences(n: int, rng: random.Random) -> str:
    blocks = [f"S a b c d\nA {rng.randrange(4)} 4|||{rng.choice(TYPES)}|||x|||REQUIRED|||"
              f"-NONE-|||{rng.randrange(3)}\n" for _ in range(n)]
    return "\n".join(blocks)


def cged_one_doc(n: int, rng: random.Random) -> str:
    length = 2 * n
    text = "".join(rng.choice(CHARS) for _ in range(length))
    errors = []
    for _ in range(n):
        start = rng.randrange(1, length)
        end = min(length, start + rng.randrange(6))
        errors.append(f'<ERROR start_off="{start}" end_off="{end}" '
                      f'type="{rng.choice("RMSW")}"></ERROR>')
    return f'<DOC>\n<TEXT id="doc1">\n{text}\n</TEXT>\n' + "\n".join(errors) + "\n</DOC>\n"


def truth_lines(n: int, rng: random.Random) -> str:
    lines = []
    for _ in range(n):
        sid = f"{rng.randrange(n // 50 + 1):08d}"
        start = rng.randrange(1, 60)
        lines.append(f"{sid}, {start}, {start + rng.randrange(4)}, {rng.choice('RMSW')}")
    return "\n".join(lines) + "\n"


def input_lines(n: int, rng: random.Random) -> str:
    return "".join(f"{rng.randrange(n):08d}\t{''.join(rng.choices(CHARS, k=12))}\n"
                   for _ in range(n))


def essays(n: int, rng: random.Random) -> str:
    return "".join(f"### essay_id = {rng.randrange(n)}\nUna frase con {k} palabras.\n\n"
                   for k in range(n))


def annotated(n: int, rng: random.Random) -> str:
    parts = [f"{{слово{k}=>слова{k}:::error_type={rng.choice(['Spelling', 'G/Case'])}}} "
             f"і" for k in range(n)]
    return " ".join(parts) + "\n"


def bea_essay(n: int, rng: random.Random) -> str:
    import json

    text = " ".join(f"w{k % 97}" + ("\n" if k % 50 == 49 else "") for k in range(n))
    edits = []
    for _ in range(n):
        start = rng.randrange(len(text))
        edits.append([start, min(len(text), start + rng.randrange(8)),
                      rng.choice(["x", "", None])])
    return json.dumps({"text": text, "edits": [[rng.randrange(2), edits]]}) + "\n"


DOCUMENTS: dict[str, tuple[Format, Callable[[int, random.Random], str]]] = {
    "m2-one-sentence": (Format.M2, m2_one_sentence),
    "m2-many-sentences": (Format.M2, m2_many_sentences),
    "cged-one-doc": (Format.CGED, cged_one_doc),
    "truth": (Format.TRUTH, truth_lines),
    "input": (Format.INPUT, input_lines),
    "multigec": (Format.MULTIGEC, essays),
    "ua-gec": (Format.ANN, annotated),
    "bea-json": (Format.BEA_JSON, bea_essay),
}


def parsed(text: str, fmt: Format) -> tuple[SourceText, Any, Any]:
    source = SourceText(text)
    return (source, *_parse(source, fmt, LintSettings(), None, None))


def runner(rule: Rule, read: tuple[SourceText, Any, Any]) -> Callable[[], int]:
    """Running `rule` alone on the parsed document (parsing is not timed)."""
    source, document, ctx = read
    if rule.scope is Scope.TEXT:
        return lambda: sum(1 for _ in rule.check(source, ctx))
    if rule.scope is Scope.LINE:
        return lambda: sum(1 for _ in rule.check(LineRange(0, source.lines), ctx))
    if rule.scope is Scope.M2_BLOCK:
        return lambda: sum(1 for _ in block_findings(document.blocks, [rule], ctx))
    return lambda: sum(1 for _ in rule.check(document, ctx))


def best(run: Callable[[], int], times: int) -> float:
    found = []
    for _ in range(times):
        began = time.perf_counter()
        run()
        found.append(time.perf_counter() - began)
    return min(found)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(DOCUMENTS))
def test_every_rule_is_linear_in_the_items(name: str) -> None:
    fmt, made = DOCUMENTS[name]
    small = parsed(made(SMALL, random.Random(1)), fmt)
    large = parsed(made(LARGE, random.Random(2)), fmt)
    slow = []
    for rule in (r for r in all_rules() if fmt in r.formats):
        at_large = best(runner(rule, large), 1)
        if at_large < 0.1:
            continue
        at_small = best(runner(rule, small), 5)
        for round_ in range(6):  # interleaved: a busy moment slows one side, not both
            at_large = min(at_large, best(runner(rule, large), 1))
            at_small = min(at_small, best(runner(rule, small), 3))
            if round_ >= 1 and at_large / LARGE <= RATIO * at_small / SMALL:
                break  # (more rounds only while it looks slow: a busy machine's noise)
        if at_large / LARGE > RATIO * at_small / SMALL:
            slow.append(f"{rule.code}: {at_small:.4f} s at {SMALL}, {at_large:.3f} s at "
                        f"{LARGE}")
    assert not slow, slow


def crosses(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """The definition, pair by pair: they share a position and neither contains the other."""
    overlap = a[0] <= b[1] and b[0] <= a[1]
    nested = (a[0] <= b[0] and b[1] <= a[1]) or (b[0] <= a[0] and a[1] <= b[1])
    return overlap and not nested


def test_crossed_finds_what_the_pairwise_definition_finds() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    spans = st.lists(st.tuples(st.integers(-3, 12), st.integers(-3, 12)), max_size=14)

    @settings(max_examples=400, deadline=None)
    @given(spans)
    def holds(found: list[tuple[int, int]]) -> None:
        for i, k in enumerate(crossed(found)):
            earlier = [j for j in range(i) if crosses(found[j], found[i])]
            assert (k is None) == (not earlier)
            assert k is None or k in earlier

    holds()


def overlaps(a: tuple[int, int, object], b: tuple[int, int, object]) -> bool:
    """M401's definition, pair by pair (token spans [start, end))."""
    if a[0] == a[1] and b[0] == b[1]:
        return False
    if a[0] == a[1]:
        return b[0] < a[0] < b[1]
    if b[0] == b[1]:
        return a[0] < b[0] < a[1]
    return a[0] < b[1] and b[0] < a[1]


def test_overlapped_finds_what_the_pairwise_definition_finds() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    span = st.tuples(st.integers(0, 8), st.integers(0, 4), st.sampled_from("abc")).map(
        lambda t: (t[0], t[0] + t[1], t[2]))

    @settings(max_examples=600, deadline=None)
    @given(st.lists(span, max_size=14))
    def holds(found: list[tuple[int, int, object]]) -> None:
        for i, k in enumerate(overlapped(found)):
            earlier = [j for j in range(i) if overlaps(found[j], found[i])
                       and found[j] != found[i]]
            assert (k is None) == (not earlier)
            assert k is None or k in earlier

    holds()
