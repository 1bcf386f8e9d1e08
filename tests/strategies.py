"""Hypothesis strategies for M2 and CGED text: well-formed pieces, near misses, and noise."""

from __future__ import annotations

from hypothesis import strategies as st

# characters that matter to the grammar, plus some that only tools disagree about
TRICKY = "|| ||| \t-0123456789ASTaXé中\u3000\u00a0\u2028\x0b\x85"
FIELD_CHARS = "abcXYZ:-_| 中文\u3000\t"

offsets = st.one_of(st.integers(-3, 40).map(str), st.sampled_from(["-1", "x", "1.5", "", "007"]))
fields = st.text(alphabet=FIELD_CHARS, max_size=8)
spaces = st.sampled_from([" ", " ", " ", "  ", "\t", ""])


@st.composite
def a_lines(draw: st.DrawFn) -> str:
    """A lines: mostly well-formed, with pipes, spacing and field counts varied."""
    head = draw(st.sampled_from(["A ", "A ", "A ", "A  ", "A\t", "A"]))
    start, end = draw(offsets), draw(offsets)
    tail = draw(st.sampled_from(["", "", " ", "\t"]))
    span = f"{start}{draw(spaces)}{end}{tail}"
    n = draw(st.sampled_from([5, 5, 5, 5, 4, 6]))
    parts = [draw(fields) for _ in range(n)]
    corrections = draw(st.lists(fields, min_size=1, max_size=3))
    parts[1 % n] = "||".join(corrections)
    return head + span + "|||" + "|||".join(parts)


s_lines = st.builds(lambda head, text: head + text,
                    st.sampled_from(["S ", "S ", "S", "S\t", "s "]),
                    st.text(alphabet="ab c\t中 \u3000.", max_size=20))
t_lines = st.builds(lambda label, text: label + text,
                    st.sampled_from(["T0", "T0-A0", "T12-A3", "T", "T0-A", "Tx"]),
                    st.sampled_from(["", " ", " text here", "\ttab", " 中 文"]))
noise = st.text(alphabet=TRICKY, min_size=1, max_size=30)
lines = st.one_of(a_lines(), s_lines, t_lines, noise).filter(
    lambda line: "\n" not in line and "\r" not in line and line != "")


@st.composite
def good_blocks(draw: st.DrawFn) -> list[str]:
    """A well-formed block: an S line, then A and T lines that the grammar accepts."""
    tokens = draw(st.lists(st.sampled_from(["the", "cat", "中", "é", ".", "a|b"]), max_size=8))
    out = ["S " + " ".join(tokens)]
    for _ in range(draw(st.integers(0, 4))):
        start = draw(st.integers(-1, 9))
        end = draw(st.integers(-1, 9))
        etype = draw(st.sampled_from(["R:NOUN", "noop", "M:DET", "S", "W", "UNK", ""]))
        corr = draw(st.sampled_from(["-NONE-", "", "dog", "a b", "x||y", "中 文"]))
        ann = draw(st.sampled_from(["0", "1", "2", "kim"]))
        out.append(f"A {start} {end}|||{etype}|||{corr}|||REQUIRED|||-NONE-|||{ann}")
    if draw(st.booleans()):
        out.insert(1, "T0-A0 " + " ".join(tokens))
    return out


@st.composite
def good_documents(draw: st.DrawFn) -> str:
    blocks = draw(st.lists(good_blocks(), max_size=5))
    separators = [draw(st.sampled_from(["\n", "\n\n"])) for _ in blocks]
    text = "".join("\n".join(b) + "\n" + sep for b, sep in zip(blocks, separators, strict=True))
    return draw(st.sampled_from(["", "\n"])) + text


@st.composite
def messy_documents(draw: st.DrawFn) -> str:
    """Documents mixing good blocks with the defects the rules look for."""
    defects = st.sampled_from([
        "S  double  spaces .", "A 3 2|||R:X|||y|||REQUIRED|||-NONE-|||0", "  ",
        "A -1 -1|||noop|||the|||REQUIRED|||-NONE-|||0",
        "A 0 0|||noop|||-NONE-|||REQUIRED|||-NONE-|||1",
        "A 1 2|||R:NOUN|||dog |||REQUIRED|||-NONE-|||0",
        "A -1 -1|||NOOP|||-NONE-|||REQUIRED|||-NONE-|||0",
        "S trailing space ", "# comment", "A 1 2|||R:NOUN|||a  b|||REQUIRED|||-NONE-|||0\t",
        "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0",
    ])
    pieces = []
    for block in draw(st.lists(good_blocks(), min_size=1, max_size=4)):
        block = list(block)
        for _ in range(draw(st.integers(0, 2))):
            block.insert(draw(st.integers(1, len(block))), draw(defects))
        pieces.append("\n".join(block))
    joiners = [draw(st.sampled_from(["\n\n", "\n", "\r\n\r\n", "\n\n\n"])) for _ in pieces]
    text = "".join(p + j for p, j in zip(pieces, joiners, strict=True))
    if draw(st.booleans()):
        text = text.rstrip("\r\n")
    return text
