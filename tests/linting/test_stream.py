"""`m2lsp check` reads an M2 file chunk by chunk (m2lsp/linting/stream.py): its findings and
fixes are those of the whole document, in every output format, on generated messy files,
on real data and on random text."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.generate import generate
from m2lsp.cli import main
from m2lsp.config import LintSettings
from m2lsp.diagnostic import Applicability
from m2lsp.linting import files as linting_files
from m2lsp.linting import run as linting_run
from m2lsp.linting import stream
from m2lsp.linting.fixes import fix_until_stable
from m2lsp.linting.run import lint
from m2lsp.linting.stream import fix_stream, fixable_stream, lint_stream
from m2lsp.model import Format
from m2lsp.parsing.source import SourceText
from tests.conftest import shared
from tests.strategies import good_documents, lines, messy_documents

SAFE = frozenset({Applicability.SAFE})
BOTH = frozenset({Applicability.SAFE, Applicability.UNSAFE})


def _generated(tmp_path: Path) -> Path:
    return _written(tmp_path / "messy.m2", generate(2000, seed=3, defects=True))


def _unseparated(tmp_path: Path) -> Path:
    """S lines and their edits without a blank line anywhere: every block an M005."""
    text = generate(1200, seed=5, defects=True).replace("\n\n", "\n")
    return _written(tmp_path / "unseparated.m2", text)


def _crlf(tmp_path: Path) -> Path:
    """Windows line breaks, a byte-order mark, a pasted LF block and a stray NUL."""
    text = generate(600, seed=7, defects=True).replace("\n", "\r\n")
    text = "\ufeff" + text + "S pasted\x00 block \nA 0 1|||R:NOUN|||x|||REQUIRED|||-NONE-|||3\n"
    return _written(tmp_path / "crlf.m2", text)


def _real(relative: str):
    return lambda tmp_path: _written(tmp_path / Path(relative).name,
                                     shared(relative).read_text(encoding="utf-8"))


def _written(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8"))
    return path


FILES = {
    "generated-messy": _generated,
    "200k-S-lines-shape": _unseparated,
    "crlf-bom-mixed": _crlf,
    "conll2014-gold": _real("conll2014/gold/official-2014.combined.m2"),
    "bea2019-dev-gold": _real("bea2019-dev/ABCN.dev.gold.bea19.m2"),
}


def _check(argv: list[str], capsys, monkeypatch, streamed: bool) -> tuple:
    """What `m2lsp check argv` prints and returns, the file read chunk by chunk (chunks of a
    few blocks, so that every kind of boundary is met) or whole."""
    with monkeypatch.context() as patch:
        if streamed:
            patch.setattr(stream, "CHUNK_CHARS", 200)
        else:
            patch.setattr(linting_files, "streamable", lambda *args: False)
        code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in FILES if n != "bea2019-dev-gold"])  # (clean:
@pytest.mark.parametrize("output", ["text", "json", "github", "sarif"])  # in the fix table)
@pytest.mark.parametrize("most", ["7", "0"])
def test_streamed_findings_are_the_whole_documents(tmp_path: Path, capsys, monkeypatch,
                                                   name: str, output: str, most: str) -> None:
    path = FILES[name](tmp_path)
    argv = ["check", str(path), "--output-format", output, "--max-findings-per-rule", most]
    whole = _check(argv, capsys, monkeypatch, streamed=False)
    assert whole[1] or output == "github"  # (github prints nothing for a clean file)
    assert _check(argv, capsys, monkeypatch, streamed=True) == whole


@pytest.mark.slow
@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("unsafe", [False, True])
def test_streamed_fixes_are_the_whole_documents(tmp_path: Path, capsys, monkeypatch,
                                                name: str, unsafe: bool) -> None:
    path = FILES[name](tmp_path)
    original = path.read_bytes()
    argv = ["check", str(path), "--fix", *(["--unsafe-fixes"] if unsafe else [])]
    whole = _check(argv, capsys, monkeypatch, streamed=False), path.read_bytes()
    assert whole[1] != original or name.endswith("gold")  # (the messy files had fixes)
    path.write_bytes(original)
    assert (_check(argv, capsys, monkeypatch, streamed=True), path.read_bytes()) == whole


@pytest.mark.parametrize("fix", [[], ["--fix"]])
def test_check_never_parses_a_whole_m2_file(tmp_path: Path, capsys, monkeypatch,
                                            fix: list[str]) -> None:
    """What bounds `check`'s memory: no M2 file is parsed (or its findings listed) whole.
    A 50 MB file parsed whole took 1.8 GB (bench/bench_memory.py measures it)."""
    def whole(*args, **kwargs):
        raise AssertionError("an M2 file was parsed whole")

    monkeypatch.setattr(linting_run, "parse_m2", whole)
    path = _generated(tmp_path)
    assert main(["check", str(path), *fix]) == 1
    assert "Found" in capsys.readouterr().out


def test_fixes_are_applied_chunk_by_chunk(tmp_path: Path, monkeypatch) -> None:
    """A round of `--fix` on an LF file keeps no list of the file's fixes: each chunk's are
    applied as it is checked (a 50 MB file's list took 2.6 times the file)."""
    def whole(*args, **kwargs):
        raise AssertionError("a round's fixes were listed for the whole file")

    monkeypatch.setattr(stream, "fixable_stream", whole)
    source = SourceText(_generated(tmp_path).read_text(encoding="utf-8"))
    outcome = fix_stream(source, LintSettings(), SAFE, chunk_chars=300)
    assert outcome.applied > 100 and outcome.by_code == {"X004": outcome.applied}


def _same(text: str, chunk_chars: int, chosen: LintSettings) -> None:
    source = SourceText(text)
    for most in (None, 1):
        whole = lint(source, Format.M2, chosen, most_per_rule=most)
        streamed = lint_stream(source, chosen, most, chunk_chars=chunk_chars)
        assert (streamed.diagnostics, streamed.unlisted) == (whole.diagnostics, whole.unlisted)
    for allowed in (SAFE, BOTH):
        fixable = [d for d in lint(source, Format.M2, chosen).diagnostics
                   if d.fix is not None and d.fix.applicability in allowed]
        assert fixable_stream(source, chosen, allowed, chunk_chars) == fixable
        by_whole = fix_until_stable(source, lambda s: lint(s, Format.M2, chosen).diagnostics,
                                    allowed)
        by_stream = fix_stream(source, chosen, allowed, chunk_chars)
        assert (by_stream.source, by_stream.by_code, by_stream.first_round) == (
            by_whole.source, by_whole.by_code, by_whole.first_round)


texts = st.one_of(messy_documents(), good_documents(),
                  st.lists(lines, max_size=12).map("\n".join))
selections = st.sampled_from([LintSettings(), LintSettings(select=("ALL", "M502")),
                              LintSettings(taxonomy="errant")])


@settings(max_examples=150, deadline=None)
@given(texts, st.integers(1, 60), selections)
def test_streaming_random_m2_text_changes_nothing(text: str, chunk_chars: int,
                                                  chosen: LintSettings) -> None:
    _same(text, chunk_chars, chosen)


@pytest.mark.parametrize("text", [
    "", "\n", "  \n\n", "S a\nS b\nS c\n", "\n\nS a\n\n\nS b\nA 0 1|||X|||y|||R|||-|||2\n",
    "A 0 1|||X|||y|||R|||-|||0\nS a\n", "S a\r\nS b\r\n\r\nS c", "S a \n\t\nS b\u2028c\n",
])
def test_streaming_edge_texts_changes_nothing(text: str) -> None:
    for chunk_chars in (1, 2, 1000):
        _same(text, chunk_chars, LintSettings())


@pytest.mark.parametrize(("fmt", "chosen", "sidecars", "streamed"), [
    (Format.M2, LintSettings(), None, True),
    (Format.M2, LintSettings(), object(), False),  # N001/N002 read the curation files
    (Format.M2, LintSettings(ignore=("N",)), object(), True),
    (Format.CGED, LintSettings(), None, False),
])
def test_what_streams(fmt: Format, chosen: LintSettings, sidecars: object,
                      streamed: bool) -> None:
    assert stream.streamable(fmt, chosen, sidecars) is streamed
