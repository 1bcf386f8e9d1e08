"""The compiled char-level table (`chinese_align.operations`) against its Python form, the
oracle: every cell's operations the same, on NLPCC-2018's corrections with ChERRANT's
tables and on random strings built to tie costs and call for transpositions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from m2lsp.annotation import chinese_align
from tests.annotation.cherrant import data
from tests.conftest import shared

if chinese_align.compiled is None:  # pragma: no cover - a machine without a C compiler
    pytest.skip("the compiled table is not built", allow_module_level=True)


@pytest.fixture(scope="module")
def costs():
    pytest.importorskip("pypinyin")
    from m2lsp.annotation.cherrant_data import load_tables

    return chinese_align.Costs(load_tables(data()))


def same(a: str, b: str, costs) -> None:
    fast = chinese_align.operations(list(a), list(b), costs)
    oracle = chinese_align.operations(list(a), list(b), costs, use_compiled=False)
    assert len(fast) == len(oracle) and len(fast[0]) == len(oracle[0])
    assert [[fast[i][j] for j in range(len(b) + 1)] for i in range(len(a) + 1)] == oracle
    assert list(chinese_align.cheapest_paths(fast)) == list(chinese_align.cheapest_paths(oracle))


CHARS = "我们的是了在有他她它，。！天气今日很好不坏"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=CHARS, max_size=14), st.text(alphabet=CHARS, max_size=14))
def test_random_strings(costs, a, b) -> None:
    same(a, b, costs)


def test_transpositions(costs) -> None:
    table = chinese_align.operations(list("今天天气很好"), list("天气今天好很"), costs)
    assert any(op.startswith("T") for row in range(7) for j in range(7) for op in table[row][j])
    same("今天天气很好", "天气今天好很", costs)


def test_nlpcc_corrections(costs) -> None:
    """NLPCC-2018's sources against annotator 0's corrections (the first 400)."""
    gold = shared("nlpcc2018/nlpcc18.gold").read_text("utf-8")
    rows = []
    for block in gold.split("\n\n")[:400]:
        lines = block.splitlines()
        if not lines or not lines[0].startswith("S "):
            continue
        tokens = lines[0][2:].split(" ")
        for line in lines[1:]:
            start, end = map(int, line[2:].split("|||")[0].split())
            if start >= 0 and line.endswith("|||0"):
                correction = line.split("|||")[2].split(" ") if line.split("|||")[2] else []
                tokens = tokens[:start] + correction + tokens[end:]
                break
        rows.append(("".join(lines[0][2:].split(" ")), "".join(tokens)))
    assert len(rows) > 300
    for source, target in rows:
        same(source, target, costs)


def test_single_characters_cost_what_substitution_cost_says(costs) -> None:
    """`Costs.of_chars` against `substitution_cost` on every pair of a few hundred
    characters of NLPCC-2018 (with punctuation, Latin letters and digits)."""
    gold = shared("nlpcc2018/nlpcc18.gold").read_text("utf-8")
    chars = sorted({ch for ch in gold[:20000] if not ch.isspace()})[:250] + list("，。a1!?")
    fresh = chinese_align.Costs(costs.tables)
    for a in chars:
        for b in chars:
            assert fresh.of_chars(a, b) == chinese_align.substitution_cost(a, b, costs.tables)


def test_a_pair_too_long_to_align_says_so(costs) -> None:
    from m2lsp.errors import InputError

    with pytest.raises(InputError, match="too long to align"):
        chinese_align.operations(list("我们" * 3000), list("他们" * 3000), costs)
