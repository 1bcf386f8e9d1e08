"""One line of a megabyte, of any repeated shape, is tokenized, linted, outlined, hovered and
formatted in time linear in its length: a pattern that backtracks (CGED's attribute pattern
once took minutes on 100,000 letters and held the server) fails here by the watchdog, not by
a stopwatch: a linear pass over 1 MB takes about a second, a quadratic one hours."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from m2lsp.config import LintSettings
from m2lsp.editor.formatting import format_m2
from m2lsp.editor.highlighting import tokens
from m2lsp.editor.hover import hover
from m2lsp.editor.outline import folding_ranges, inlay_hints, symbols
from m2lsp.linting.run import lint
from m2lsp.model import Format
from m2lsp.parsing.m2 import parse_m2
from m2lsp.parsing.source import SourceText

SIZE = 1_000_000
WATCHDOG = 60  # seconds for all the passes over one document

# The pieces the formats are made of: a motif of a few of them, repeated to a megabyte,
# gives long runs of exactly what the patterns look for.
PIECES = ["a", "Z", "_", "1", "-1", " ", "\t", ",", "|||", "||", "|", "<", "</", ">", "=",
          '"', "a=", '="', "S ", "A ", "T0-A0 ", "noop", "-NONE-", "REQUIRED", "我", "\ufffd",
          "start_off", "<ERROR", "(sid=", ")", "correct", "\\", "\r"]
PREFIXES = ["", "S ", "A ", "A 1 2|||", "T0-A0 ", "<ERROR ", "1, "]


class Hung(Exception):
    pass


@contextmanager
def watchdog(seconds: int) -> Iterator[None]:
    def expired(_signum, _frame):
        raise Hung(f"not done within {seconds} s: not linear in the line's length")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def every_pass(text: str) -> None:
    """Everything the server and the CLI run on a document, for each format."""
    source = SourceText(text)
    lines = source.lines
    for fmt in Format:
        tokens(lines, fmt)
        lint(source, fmt, LintSettings())
    doc = parse_m2(source)
    hover(doc, 0, None)
    symbols(doc)
    folding_ranges(doc)
    inlay_hints(doc)
    format_m2(text)


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(motif=st.lists(st.sampled_from(PIECES), min_size=1, max_size=4).map("".join),
       prefix=st.sampled_from(PREFIXES))
def test_a_megabyte_line_of_any_shape(motif: str, prefix: str) -> None:
    line = prefix + (motif * (SIZE // len(motif) + 1))[:SIZE]
    with watchdog(WATCHDOG):
        every_pass(line + "\n")


@pytest.mark.parametrize("motif", ["a", "start_off", "|||", "1", "<", "a=", " ", ","])
def test_the_shapes_that_were_slow(motif: str) -> None:
    line = (motif * (SIZE // len(motif) + 1))[:SIZE]
    with watchdog(WATCHDOG):
        every_pass(f"S {line}\n{line}\nA {line}\n")


# The language server's side: every position a feature sends is converted to the agreed
# units (UTF-16 by default, UTF-8 where agreed).  Converting each token's column from the
# line's start made semantic tokens and C010's quick fix quadratic on a line with non-ASCII
# text and many tags (8,000 attributes: 8 s; the CGED-2018 training file on one line:
# 25 s, the server answering nothing else).
LSP_PIECES = [*PIECES, "我", "😀", 'a="1"', "<ERROR ", 'a="1"我']


def every_lsp_conversion(text: str, encoding: str) -> None:
    """What the server converts for a document, for each format: semantic tokens, every
    diagnostic (hover and code action ranges) and every fix's workspace edit."""
    from m2lsp.lsp import convert
    from m2lsp.lsp.features.semantic_tokens import encoded

    source = SourceText(text)
    lines = source.lines
    for fmt in Format:
        encoded(lines, tokens(lines, fmt), encoding)
        for found in lint(source, fmt, LintSettings()).diagnostics:
            convert.diagnostic(found, lines, "file:///x", encoding)
            if found.fix is not None:
                convert.workspace_edit(found.fix, "file:///x", lines, encoding, 1)
    for line in lines:  # a client's positions back to columns, one at every 997th unit
        for units in range(0, len(line), 997):
            convert.to_col(line, units, encoding)


@pytest.mark.slow
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(motif=st.lists(st.sampled_from(LSP_PIECES), min_size=1, max_size=4).map("".join),
       prefix=st.sampled_from(PREFIXES), encoding=st.sampled_from(["utf-16", "utf-8"]))
def test_the_servers_conversions_of_a_megabyte_line(motif: str, prefix: str,
                                                    encoding: str) -> None:
    line = prefix + (motif * (SIZE // len(motif) + 1))[:SIZE]
    with watchdog(WATCHDOG):
        every_lsp_conversion(line + "\n", encoding)


@pytest.mark.slow
def test_many_glued_attributes_after_chinese() -> None:
    """The issue's line: a CGED <ERROR> with 100,000 glued attributes after a Chinese word:
    its tokens and C010's fix of 100,000 edits, each position converted, in linear time;
    the message names ten attributes and counts the rest."""
    from m2lsp.rules.registry import rule_by_code

    text = '<DOC><TEXT id="1">我</TEXT><ERROR ' + 'a="1"' * 100_000 + "></ERROR></DOC>\n"
    with watchdog(WATCHDOG):
        every_lsp_conversion(text, "utf-16")
    c010 = [d for d in lint(SourceText(text), Format.CGED, LintSettings()).diagnostics
            if d.code == "C010"]
    assert len(c010) == 1 and rule_by_code("C010") is not None
    assert c010[0].message.endswith("a, a, … and 99,989 more") and len(c010[0].message) < 200
