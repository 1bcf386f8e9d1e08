"""What the metrics added last (cleme, green) and meta-eval make of any input: a clear
error (an M2lspError), never a crash, whatever the bytes."""

from __future__ import annotations

import contextlib
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from m2lsp.errors import M2lspError
from m2lsp.scoring.cleme.reading import read_m2

LINES = st.lists(st.one_of(
    st.sampled_from(["S a b c", "S ", "S", "", " ", "T0-A0 a b", "T0-A1 x", "T1", "T-",
                     "A 0 1|||R|||x|||REQUIRED|||-NONE-|||0",
                     "A 0 1|||R|||x|||REQUIRED|||-NONE-|||1",
                     "A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0",
                     "A 2 1|||R|||x|||REQUIRED|||-NONE-|||0", "A 0 9|||M|||y z|||R|||-|||0",
                     "A x y|||R|||z|||REQUIRED|||-NONE-|||0", "A 0 1|||R|||x", "A 1 1",
                     "A -1 -1|||noop|||x|||REQUIRED|||-NONE-|||0"]),
    st.text(max_size=12)), max_size=12)


@settings(max_examples=400, deadline=None)
@given(LINES)
@example(["S a b c", "A 2 1|||R|||x|||REQUIRED|||-NONE-|||0", ""])  # backwards: once, an
# endless chunk loop (the reference's too)
@example(["S a b", "A 0 9|||M|||y z|||R|||-|||0", ""])  # past the sentence's end
def test_the_cleme_reader_reads_or_says_why(lines) -> None:
    from m2lsp.scoring.cleme.metric import evaluate

    text = "\n".join(lines)
    try:
        samples = read_m2(text, "x.m2")
        for scorer in ("dependent", "independent"):
            for level in ("corpus", "sentence"):
                evaluate(samples, samples, scorer, level)
    except M2lspError:
        pass


FIXTURE = [HealthCheck.function_scoped_fixture]


@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURE)
@given(st.lists(st.text(max_size=20), max_size=6), st.lists(st.text(max_size=20), max_size=6))
def test_green_scores_or_says_why(tmp_path: Path, system, gold) -> None:
    from m2lsp.cli import main

    (tmp_path / "s.txt").write_text("\n".join(system), encoding="utf-8", errors="replace")
    (tmp_path / "g.m2").write_text("\n".join(gold), encoding="utf-8", errors="replace")
    for variant in ("authors", "gec-metrics"):
        assert main(["score", "--metric", "green", "--green-variant", variant,
                     str(tmp_path / "s.txt"), str(tmp_path / "g.m2")]) in (0, 2)


ITEMS = st.lists(st.sampled_from([
    '<ranking-item src-id="3" user="u">', '<ranking-item src-id="x">', '<ranking-item>',
    '<ranking-item src-id="1" user="admin">', "</ranking-item>",
    '<translation rank="1" system="A B"/>', '<translation rank="2" system="C"/>',
    '<translation rank="z" system="A"/>', '<translation system="A"/>', '<translation/>',
    "<r>", "</r>", "&", "<"]), max_size=12).map("".join) | st.text(max_size=200)


@settings(max_examples=200, deadline=None, suppress_health_check=FIXTURE)
@given(ITEMS)
def test_judgments_read_or_say_why(tmp_path: Path, text) -> None:
    from m2lsp.metaeval.judgments import compared, expected_wins, read_judgments

    path = tmp_path / "j.xml"
    path.write_text(text, encoding="utf-8", errors="replace")
    with contextlib.suppress(M2lspError):
        judged = read_judgments(path)
        expected_wins(judged)
        compared(judged)
